/**
 * SSRF guard for receiver URLs. A URL whose host is, or resolves to, a private, loopback, link-local,
 * multicast or otherwise non-public address is refused unless an allowlist entry (IP, CIDR or host
 * name; setting WEBHOOK_URL_ALLOWLIST) permits it. Checked when a webhook is saved (422) and again at
 * every send through the socket's own DNS lookup, so a name re-pointed after the check (DNS rebinding)
 * is still refused.
 */
import dns from 'node:dns';
import net, { BlockList } from 'node:net';
import type { LookupFunction } from 'node:net';
import { invalid } from '../errors.js';

/** Ranges that are never public (RFC 6890 special-purpose registries, abridged to what matters). */
const NON_PUBLIC = new BlockList();
for (const [net4, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NON_PUBLIC.addSubnet(net4, prefix, 'ipv4');
for (const [net6, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32],
  ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) NON_PUBLIC.addSubnet(net6, prefix, 'ipv6');

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
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)) throw new Error(`Bad CIDR in WEBHOOK_URL_ALLOWLIST: ${raw}`);
      allowedAddresses.addSubnet(addr, prefix, family === 4 ? 'ipv4' : 'ipv6');
    } else if (family) {
      allowedAddresses.addAddress(addr, family === 4 ? 'ipv4' : 'ipv6');
    } else {
      allowedHosts.add(entry);
    }
  }
  return { allowedAddresses, allowedHosts };
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`), else the input. */
function unmapIPv4(ip: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return m ? m[1] : ip;
}

/** True when delivering to `ip` is refused: a non-public address that the allowlist does not permit. */
export function isDisallowedAddress(rawIp: string, policy: UrlPolicy): boolean {
  const ip = unmapIPv4(rawIp);
  const family = net.isIP(ip);
  if (!family) return true;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (policy.allowedAddresses.check(ip, type)) return false;
  return NON_PUBLIC.check(ip, type);
}

/** Thrown by the guarded lookup; the delivery records it as a non-retryable failure. */
export class DisallowedAddressError extends Error {
  readonly code = 'EDISALLOWEDADDRESS';
  constructor(host: string, address: string) {
    super(`Receiver host ${host} resolves to ${address}, a private/loopback/link-local address that is not allowlisted.`);
  }
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

type LookupAll = (hostname: string) => Promise<Array<{ address: string; family: number }>>;
const lookupAll: LookupAll = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** The first refused address of the URL's host (IP literal or resolved name), or null when every address is allowed. */
export async function disallowedAddressOf(url: URL, policy: UrlPolicy, lookup: LookupAll = lookupAll): Promise<string | null> {
  const host = hostOf(url);
  if (policy.allowedHosts.has(host)) return null;
  const addresses = net.isIP(host) ? [{ address: host }] : await lookup(host);
  return addresses.find((a) => isDisallowedAddress(a.address, policy))?.address ?? null;
}

/**
 * Validates a receiver URL for saving: http(s), no credentials, at most 2048 characters, a host that
 * resolves, and no address refused by the policy. Throws a 422 naming `field`.
 */
export async function assertDeliverableUrl(raw: string, policy: UrlPolicy, field: string | string[] = 'url', lookup: LookupAll = lookupAll): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(field, 'must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(field, 'must use http or https');
  if (url.username || url.password) throw invalid(field, 'must not contain credentials; receivers authenticate deliveries by their signature');
  if (raw.length > 2048) throw invalid(field, 'must be at most 2048 characters');
  let refused: string | null;
  try {
    refused = await disallowedAddressOf(url, policy, lookup);
  } catch {
    throw invalid(field, `host ${hostOf(url)} does not resolve`);
  }
  if (refused) throw invalid(field, `host ${hostOf(url)} resolves to ${refused}, a private, loopback or link-local address; ask an operator to allowlist it`);
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
