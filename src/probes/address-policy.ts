import { cidrContains, parseCidr, type Cidr } from './cidr.js';
import { parseIpAddress, type IpAddress } from './ip-address.js';

/**
 * Where a probe call may connect. A probe URL comes from a customer, so without this check it could make the
 * worker read its own loopback services, the cloud metadata endpoint (169.254.169.254) or the private network.
 * Ranges: RFC 6890 special-purpose registries (IPv4 and IPv6); the more specific entry of two comes first.
 */
const IPV4_RANGES: ReadonlyArray<readonly [string, string]> = [
  ['0.0.0.0/32', 'unspecified'],
  ['0.0.0.0/8', 'this-network'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'shared (carrier-grade NAT)'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', '6to4 relay anycast'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'broadcast'],
  ['240.0.0.0/4', 'reserved'],
];

/** IPv6 ranges that carry an IPv4 address: the embedded address decides (`::ffff:127.0.0.1` is loopback). */
const IPV6_EMBEDDING: ReadonlyArray<readonly [string, number, string]> = [
  ['::ffff:0:0/96', 12, 'IPv4-mapped'],
  ['::ffff:0:0:0/96', 12, 'IPv4-translated'],
  ['64:ff9b::/96', 12, 'NAT64'],
  ['2002::/16', 2, '6to4'],
];

const IPV6_RANGES: ReadonlyArray<readonly [string, string]> = [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::/96', 'IPv4-compatible (deprecated)'],
  ['64:ff9b:1::/48', 'local-use NAT64'],
  ['100::/64', 'discard-only'],
  ['2001::/32', 'Teredo tunnel'],
  ['2001:db8::/32', 'documentation'],
  ['fc00::/7', 'unique-local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local (deprecated)'],
  ['ff00::/8', 'multicast'],
];

/** A CIDR of the tables above; a typo there is a bug, so it throws. */
function cidr(text: string): Cidr {
  const parsed = parseCidr(text);
  if (!parsed.ok) throw new Error(`address-policy table: ${parsed.problem}`);
  return parsed.cidr;
}

const V4 = IPV4_RANGES.map(([text, name]) => [cidr(text), name] as const);
const V6 = IPV6_RANGES.map(([text, name]) => [cidr(text), name] as const);
const V6_EMBEDDING = IPV6_EMBEDDING.map(([text, offset, name]) => [cidr(text), offset, name] as const);

/** The special-purpose range `address` is in ("loopback", "IPv4-mapped private", …), or null for a public one. */
export function specialRangeOf(address: IpAddress): string | null {
  if (address.family === 4) return V4.find(([range]) => cidrContains(range, address))?.[1] ?? null;
  for (const [range, offset, name] of V6_EMBEDDING) {
    if (cidrContains(range, address)) {
      const inner = specialRangeOf({ family: 4, bytes: address.bytes.slice(offset, offset + 4) });
      return inner === null ? null : `${name} ${inner}`;
    }
  }
  return V6.find(([range]) => cidrContains(range, address))?.[1] ?? null;
}

export type AddressVerdict = { allowed: true } | { allowed: false; why: string };

export interface AddressPolicy {
  /** Whether a probe may connect to `address` (an IP address as text; anything else is refused). */
  check(address: string): AddressVerdict;
}

/** Public addresses are allowed; special-purpose ones only inside an operator's `allowCidrs` (PROBE_ALLOW_CIDRS). */
export function createAddressPolicy(allowCidrs: readonly Cidr[]): AddressPolicy {
  return {
    check(text) {
      const address = parseIpAddress(text);
      if (!address) return { allowed: false, why: 'not an IP address' };
      if (allowCidrs.some((range) => cidrContains(range, address))) return { allowed: true };
      const range = specialRangeOf(address);
      return range === null ? { allowed: true } : { allowed: false, why: range };
    },
  };
}
