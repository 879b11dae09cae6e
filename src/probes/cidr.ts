import { formatIpAddress, parseIpAddress, unmappedIpv4, type IpAddress } from './ip-address.js';

/** An address range: the network's bytes (host bits zero) and the prefix length. */
export interface Cidr {
  readonly family: 4 | 6;
  readonly bytes: Uint8Array;
  readonly prefix: number;
}

export type CidrParse = { ok: true; cidr: Cidr } | { ok: false; problem: string };

/** The network part of `bytes`: every bit past `prefix` cleared. */
function masked(bytes: Uint8Array, prefix: number): Uint8Array {
  return bytes.map((byte, index) => {
    const bits = Math.min(8, Math.max(0, prefix - index * 8));
    return byte & ((0xff << (8 - bits)) & 0xff);
  });
}

/**
 * `10.0.0.0/8`, `fd00::/8`, or a bare address (a range of one). Host bits that are set are refused rather than
 * cleared: `10.0.0.1/8` is more likely a typo than a way to write `10.0.0.0/8`, and the problem says which was meant.
 */
export function parseCidr(text: string): CidrParse {
  const trimmed = text.trim();
  const slash = trimmed.indexOf('/');
  const addressText = slash >= 0 ? trimmed.slice(0, slash) : trimmed;
  const address = parseIpAddress(addressText);
  if (!address || addressText.includes('%') || addressText.startsWith('[')) {
    return { ok: false, problem: `${JSON.stringify(trimmed)} is not an IPv4 or IPv6 range like 127.0.0.1/32 or fd00::/8` };
  }
  const maxPrefix = address.family === 4 ? 32 : 128;
  const prefixText = slash >= 0 ? trimmed.slice(slash + 1) : String(maxPrefix);
  const prefix = Number(prefixText);
  if (!/^(0|[1-9]\d{0,2})$/.test(prefixText) || prefix > maxPrefix) {
    return { ok: false, problem: `${JSON.stringify(trimmed)} needs a prefix length from 0 to ${maxPrefix} after the "/"` };
  }
  const network = masked(address.bytes, prefix);
  if (!network.every((byte, index) => byte === address.bytes[index])) {
    const meant = `${formatIpAddress({ family: address.family, bytes: network })}/${prefix}`;
    return { ok: false, problem: `${JSON.stringify(trimmed)} has bits set past its /${prefix} prefix (did you mean ${meant}?)` };
  }
  return { ok: true, cidr: { family: address.family, bytes: network, prefix } };
}

/** The entries of a comma-separated list, trimmed, empty ones dropped (a trailing comma is harmless). */
export function splitCidrList(list: string): string[] {
  return list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * Whether `cidr` holds `address`. An IPv4 range also holds the IPv4-mapped IPv6 form of its addresses
 * (`::ffff:127.0.0.1`), since a socket connects to that form as the IPv4 address.
 */
export function cidrContains(cidr: Cidr, address: IpAddress): boolean {
  const candidate = cidr.family === 4 && address.family === 6 ? unmappedIpv4(address) : address;
  if (!candidate || candidate.family !== cidr.family) return false;
  const network = masked(candidate.bytes, cidr.prefix);
  return network.every((byte, index) => byte === cidr.bytes[index]);
}

export function formatCidr(cidr: Cidr): string {
  return `${formatIpAddress(cidr)}/${cidr.prefix}`;
}
