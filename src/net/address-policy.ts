/**
 * Which IP addresses the service may open connections to on a tenant's behalf (outbound webhooks now,
 * integration pull targets later): one classifier, built on ipaddr.js's special-purpose range tables
 * (IANA IPv4/IPv6 Special-Purpose Address Registries, RFC 6890 and successors).
 *
 * An address is public only when it is global unicast and in no special-purpose range: loopback,
 * private (RFC 1918), unique-local, link-local, multicast, broadcast, unspecified, carrier-grade NAT
 * (100.64/10), benchmarking (198.18/15, 2001:2::/48), documentation (192.0.2/24, 198.51.100/24,
 * 203.0.113/24, 2001:db8::/32, 3fff::/20), reserved (240/4, 2001::/23 ...), discard, ORCHID, AS112, AMT,
 * deprecated site-local, and every IPv6 address outside 2000::/3 (not allocated for global unicast).
 *
 * IPv6 forms that carry an IPv4 address are unwrapped and the IPv4 address is classified again; the form
 * is public only when every embedded address is: IPv4-mapped (::ffff:0:0/96), IPv4-translated
 * (::ffff:0:0:0/96), IPv4-compatible (::/96, deprecated but still tunnelled by some hosts), NAT64
 * well-known prefix (64:ff9b::/96), 6to4 (2002::/16) and Teredo (2001::/32: server and client). The NAT64
 * local-use prefix (64:ff9b:1::/48) is refused outright: it only means something inside one network.
 *
 * Non-canonical IPv4 spellings (decimal `2130706433`, octal `0177.0.0.1`, hex `0x7f.1`, short `127.1`)
 * are classified by their value, so an encoding never changes the verdict.
 */
import ipaddr from 'ipaddr.js';

export interface AddressClassification {
  /** The address in canonical form (dotted quad; RFC 5952 for IPv6). */
  address: string;
  family: 4 | 6;
  /**
   * The range the address falls in: `unicast` for ordinary global unicast, otherwise the special-purpose
   * range (`loopback`, `private`, `linkLocal`, `documentation`, `ipv4Compatible`, `6to4`, ...).
   */
  range: string;
  /** True only when connecting to it reaches the public internet and nothing else. */
  public: boolean;
  /** For IPv6 forms that carry IPv4 addresses: those addresses, classified. */
  embedded?: AddressClassification[];
}

const v4 = (cidr: string) => ipaddr.IPv4.parseCIDR(cidr);
const v6 = (cidr: string) => ipaddr.IPv6.parseCIDR(cidr);

/** Finer names inside ipaddr.js's broad `reserved` ranges, for messages that say what to fix. */
const IPV4_RESERVED_DETAIL: Array<[string, [ipaddr.IPv4, number]]> = [
  ['documentation', v4('192.0.2.0/24')],
  ['documentation', v4('198.51.100.0/24')],
  ['documentation', v4('203.0.113.0/24')],
  ['benchmarking', v4('198.18.0.0/15')],
  ['ietfProtocolAssignments', v4('192.0.0.0/24')],
  ['deprecated6to4Relay', v4('192.88.99.0/24')],
];
const IPV6_RESERVED_DETAIL: Array<[string, [ipaddr.IPv6, number]]> = [
  ['documentation', v6('2001:db8::/32')],
  ['documentation', v6('3fff::/20')],
  ['ietfProtocolAssignments', v6('2001::/23')],
];
const GLOBAL_UNICAST_V6 = v6('2000::/3');
const IPV4_COMPATIBLE = v6('::/96');
const NAT64_LOCAL_USE = v6('64:ff9b:1::/48');

function ipv4FromParts(hi: number, lo: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

function classifyV4(a: ipaddr.IPv4): AddressClassification {
  let range: string = a.range();
  if (range === 'reserved') range = IPV4_RESERVED_DETAIL.find(([, r]) => a.match(r))?.[0] ?? 'reserved';
  return { address: a.toString(), family: 4, range, public: range === 'unicast' };
}

/** The IPv4 addresses an IPv6 form carries (empty when it carries none). */
function embeddedIPv4(a: ipaddr.IPv6, range: string): ipaddr.IPv4[] {
  const p = a.parts;
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
    case 'ipv4Compatible':
      return [ipv4FromParts(p[6], p[7])];
    case '6to4':
      return [ipv4FromParts(p[1], p[2])];
    case 'teredo':
      // Server in bits 32-63; client address stored inverted in the last 32 bits.
      return [ipv4FromParts(p[2], p[3]), ipv4FromParts(~p[6] & 0xffff, ~p[7] & 0xffff)];
    default:
      return [];
  }
}

function classifyV6(a: ipaddr.IPv6): AddressClassification {
  const address = a.toRFC5952String();
  let range: string = a.range();
  if (range === 'reserved') range = IPV6_RESERVED_DETAIL.find(([, r]) => a.match(r))?.[0] ?? 'reserved';
  if (range === 'rfc6052' && a.match(NAT64_LOCAL_USE))
    return { address, family: 6, range: 'nat64LocalUse', public: false };
  // ::/96 other than :: and ::1 (which ipaddr.js names unspecified and loopback).
  if (range === 'unicast' && a.match(IPV4_COMPATIBLE)) range = 'ipv4Compatible';
  const carried = embeddedIPv4(a, range);
  if (carried.length) {
    const embedded = carried.map(classifyV4);
    return { address, family: 6, range, public: embedded.every((e) => e.public), embedded };
  }
  return { address, family: 6, range, public: range === 'unicast' && a.match(GLOBAL_UNICAST_V6) };
}

/** `::a.b.c.d` is IPv4-compatible; ipaddr.js reads it as IPv4-mapped, so it is parsed here. */
const DEPRECATED_COMPATIBLE = /^::(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/**
 * Classifies an IP address (IPv4 in any spelling ipaddr.js accepts, IPv6 with or without brackets and
 * zone). Returns null when the input is not an IP address: callers refuse it.
 */
export function classifyAddress(input: string): AddressClassification | null {
  const raw = input.trim().replace(/^\[(.*)\]$/, '$1');
  try {
    const compat = DEPRECATED_COMPATIBLE.exec(raw);
    if (compat) {
      if (!ipaddr.IPv4.isValidFourPartDecimal(compat[1])) return null;
      const o = ipaddr.IPv4.parse(compat[1]).octets;
      return classifyV6(new ipaddr.IPv6([0, 0, 0, 0, 0, 0, (o[0] << 8) | o[1], (o[2] << 8) | o[3]]));
    }
    const a = ipaddr.parse(raw);
    return a.kind() === 'ipv4' ? classifyV4(a as ipaddr.IPv4) : classifyV6(a as ipaddr.IPv6);
  } catch {
    return null;
  }
}

/** True when `input` is an IP address that reaches only the public internet. */
export function isPublicAddress(input: string): boolean {
  return classifyAddress(input)?.public ?? false;
}

/** A short human description of why an address is not public, e.g. `loopback` or `ipv4Mapped 127.0.0.1 (loopback)`. */
export function describeRange(c: AddressClassification): string {
  if (!c.embedded) return c.range;
  return `${c.range} ${c.embedded.map((e) => `${e.address} (${e.range === 'unicast' ? 'public' : e.range})`).join(', ')}`;
}
