/**
 * `fetch` for operator-configured outbound HTTP that must stay where it was pointed (the assistant's
 * model server): the address policy of src/webhooks/url-guard.ts applies to every connection (an IP
 * literal before connecting, a name in the socket's own DNS lookup, so a name re-pointed later is still
 * refused), and redirects are never followed: a 3xx answer is an error naming where it pointed, so a
 * server on an allowed address cannot send the request, its body and its API key to another one.
 */
import net from 'node:net';
import { guardedDispatcher, type GuardedDispatcher } from './dispatcher.js';
import { DisallowedAddressError, guardedLookup, isDisallowedAddress, type UrlPolicy } from './url-guard.js';

/** Thrown instead of following a redirect. */
export class RedirectRefusedError extends Error {
  constructor(
    readonly status: number,
    readonly location: string | null,
  ) {
    super(`answered HTTP ${status} redirecting to ${location ?? '(no Location)'}; redirects are not followed`);
  }
}

/** A fetch with the address policy on every connection and no redirects. */
export function policyFetch(policy: UrlPolicy): typeof fetch {
  let dispatcher: Promise<GuardedDispatcher | null> | undefined;
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (net.isIP(literal) && isDisallowedAddress(literal, policy) && !policy.allowedHosts.has(literal.toLowerCase()))
      throw new DisallowedAddressError(literal, literal);
    dispatcher ??= guardedDispatcher(guardedLookup(policy));
    const d = await dispatcher;
    const res = await fetch(input, { ...init, redirect: 'manual', ...(d ? { dispatcher: d } : {}) } as RequestInit);
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel();
      throw new RedirectRefusedError(res.status, res.headers.get('location'));
    }
    return res;
  };
}
