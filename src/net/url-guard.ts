/**
 * SSRF guard for receiver URLs. A URL whose host is, or resolves to, a private, loopback, link-local,
 * multicast or otherwise non-public address (the classification of src/net/address-policy.ts) is
 * refused unless an allowlist entry (IP, CIDR or host name; setting WEBHOOK_URL_ALLOWLIST) permits it.
 * Checked when a webhook is saved (422) and again at every send through the socket's own DNS lookup (and
 * for IP-literal hosts, which skip the lookup, by the sender before it connects), so a name re-pointed
 * after the check (DNS rebinding) is still refused. Both checks call `isDisallowedAddress`.
 */
import dns from 'node:dns';
import net, { BlockList } from 'node:net';
import type { LookupFunction } from 'node:net';
import type { Runtime } from '../runtime.js';
import { invalid } from '../errors.js';
import { classifyAddress, describeRange, type AddressClassification } from './address-policy.js';

/** The compiled allowlist. */
export interface UrlPolicy {
  allowedAddresses: BlockList;
  allowedHosts: Set<string>;
}

/** Compiles allowlist entries (`127.0.0.1`, `10.0.0.0/8`, `::1`, `hooks.internal`); throws on a malformed CIDR. */
export function compileUrlPolicy(entries: string[]): UrlPolicy {
  const allowedAddresses = new BlockList();
  const allowedHosts = new Set<string>();
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const [addr, bits] = entry.split('/');
    const family = net.isIP(addr);
    if (family && bits !== undefined) {
      const prefix = Number(bits);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128))
        throw new Error(`Bad CIDR in WEBHOOK_URL_ALLOWLIST: ${raw}`);
      allowedAddresses.addSubnet(addr, prefix, family === 4 ? 'ipv4' : 'ipv6');
    } else if (family) {
      allowedAddresses.addAddress(addr, family === 4 ? 'ipv4' : 'ipv6');
    } else {
      allowedHosts.add(entry);
    }
  }
  return { allowedAddresses, allowedHosts };
}

declare module '../runtime.js' {
  interface RuntimeParts {
    /** The SSRF policy, compiled once from WEBHOOK_URL_ALLOWLIST. */
    urlPolicy: UrlPolicy;
  }
}

/** Builds the runtime's SSRF policy (src/server/runtime-parts.ts). */
export function createUrlPolicy(rt: Runtime): UrlPolicy {
  return compileUrlPolicy(rt.config.webhooks.urlAllowlist);
}

/** The SSRF policy of this runtime. */
export function urlPolicyOf(rt: Runtime): UrlPolicy {
  return rt.parts.urlPolicy;
}

/** True when the allowlist permits this address (an IPv4-mapped address counts as its IPv4 address). */
function allowlisted(c: AddressClassification, policy: UrlPolicy): boolean {
  if (policy.allowedAddresses.check(c.address, c.family === 4 ? 'ipv4' : 'ipv6')) return true;
  const mapped = c.range === 'ipv4Mapped' ? c.embedded?.[0] : undefined;
  return mapped ? policy.allowedAddresses.check(mapped.address, 'ipv4') : false;
}

/**
 * True when delivering to `ip` is refused: not an IP address, or a non-public address that the allowlist
 * does not permit. Used at create time and at connect time.
 */
export function isDisallowedAddress(rawIp: string, policy: UrlPolicy): boolean {
  const c = classifyAddress(rawIp);
  if (!c) return true;
  if (c.public) return false;
  return !allowlisted(c, policy);
}

/** Why `ip` is refused, for messages (`loopback`, `ipv4Compatible 127.0.0.1 (loopback)`, `not an IP address`). */
export function refusalReason(ip: string): string {
  const c = classifyAddress(ip);
  return c ? describeRange(c) : 'not an IP address';
}

/** Thrown by the guarded lookup; the delivery records it as a non-retryable failure. */
export class DisallowedAddressError extends Error {
  readonly code = 'EDISALLOWEDADDRESS';
  constructor(host: string, address: string) {
    super(
      `Receiver host ${host} resolves to ${address} (${refusalReason(address)}), a non-public (private/loopback/link-local or other special-purpose) address that is not allowlisted; an operator can allow it with WEBHOOK_URL_ALLOWLIST.`,
    );
  }
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

type LookupAll = (hostname: string) => Promise<Array<{ address: string; family: number }>>;
const lookupAll: LookupAll = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** The first refused address of the URL's host (IP literal or resolved name), or null when every address is allowed. */
export async function disallowedAddressOf(
  url: URL,
  policy: UrlPolicy,
  lookup: LookupAll = lookupAll,
): Promise<string | null> {
  const host = hostOf(url);
  if (policy.allowedHosts.has(host)) return null;
  const addresses = net.isIP(host) ? [{ address: host }] : await lookup(host);
  return addresses.find((a) => isDisallowedAddress(a.address, policy))?.address ?? null;
}

/**
 * Validates a receiver URL for saving: http(s), no credentials, at most 2048 characters, a host that
 * resolves, and no address refused by the policy. Throws a 422 naming `field`.
 */
export async function assertDeliverableUrl(
  raw: string,
  policy: UrlPolicy,
  field: string | string[] = 'url',
  lookup: LookupAll = lookupAll,
): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(field, 'must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(field, 'must use http or https');
  if (url.username || url.password)
    throw invalid(field, 'must not contain credentials; receivers authenticate deliveries by their signature');
  if (raw.length > 2048) throw invalid(field, 'must be at most 2048 characters');
  let refused: string | null;
  try {
    refused = await disallowedAddressOf(url, policy, lookup);
  } catch {
    throw invalid(field, `host ${hostOf(url)} does not resolve`);
  }
  if (refused)
    throw invalid(
      field,
      `host ${hostOf(url)} resolves to ${refused} (${refusalReason(refused)}), a private, loopback, link-local or other non-public address: not public; an operator can allow it with WEBHOOK_URL_ALLOWLIST (hosts or CIDR ranges)`,
    );
  return url;
}

/**
 * A `lookup` for http(s).request that refuses names resolving to a disallowed address, so the address
 * checked is the address connected to.
 */
export function guardedLookup(policy: UrlPolicy): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err);
      const list = addresses as dns.LookupAddress[];
      if (!policy.allowedHosts.has(hostname.toLowerCase())) {
        const bad = list.find((a) => isDisallowedAddress(a.address, policy));
        if (bad) return callback(new DisallowedAddressError(hostname, bad.address));
      }
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  }) as LookupFunction;
}
