/** An IP address as its bytes: 4 for IPv4, 16 for IPv6. */
export interface IpAddress {
  readonly family: 4 | 6;
  readonly bytes: Uint8Array;
}

// Dotted quad only, no leading zeros: `010.0.0.1` is octal to some parsers and decimal to others.
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);
const HEX_GROUP = /^[0-9a-f]{1,4}$/i;

export function parseIpv4(text: string): Uint8Array | null {
  return IPV4.test(text) ? Uint8Array.from(text.split('.'), Number) : null;
}

/** RFC 4291 text forms: `::` once at most, a dotted quad in the last 32 bits allowed. */
export function parseIpv6(text: string): Uint8Array | null {
  let hex = text;
  const lastColon = text.lastIndexOf(':');
  if (lastColon >= 0 && text.includes('.', lastColon)) {
    const quad = parseIpv4(text.slice(lastColon + 1));
    if (!quad) return null;
    hex = `${text.slice(0, lastColon + 1)}${((quad[0]! << 8) | quad[1]!).toString(16)}:${((quad[2]! << 8) | quad[3]!).toString(16)}`;
  }
  const halves = hex.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'));
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  const groups = halves.length === 2 ? [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail] : head;
  if (groups.length !== 8 || (halves.length === 2 && head.length + tail.length > 7) || !groups.every((g) => HEX_GROUP.test(g))) return null;
  const bytes = new Uint8Array(16);
  groups.forEach((group, index) => {
    const value = parseInt(group, 16);
    bytes[index * 2] = value >> 8;
    bytes[index * 2 + 1] = value & 0xff;
  });
  return bytes;
}

/**
 * An address as DNS answers or a URL's host give it: `1.2.3.4`, `::1`, `[::1]`, `fe80::1%eth0` (the zone is
 * dropped: it picks an interface, not an address). Null for anything else, host names included.
 */
export function parseIpAddress(text: string): IpAddress | null {
  const bracketed = text.startsWith('[') && text.endsWith(']');
  const unbracketed = bracketed ? text.slice(1, -1) : text;
  const v4 = bracketed ? null : parseIpv4(unbracketed);
  if (v4) return { family: 4, bytes: v4 };
  const zone = unbracketed.indexOf('%');
  const v6 = parseIpv6(zone >= 0 ? unbracketed.slice(0, zone) : unbracketed);
  return v6 ? { family: 6, bytes: v6 } : null;
}

/** The IPv4 address inside `::ffff:a.b.c.d`, which a socket connects to as that IPv4 address; else null. */
export function unmappedIpv4(address: IpAddress): IpAddress | null {
  if (address.family !== 6) return null;
  const { bytes } = address;
  const mapped = bytes.subarray(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return mapped ? { family: 4, bytes: bytes.slice(12) } : null;
}

/** Dotted quad, or RFC 5952 IPv6 (lowercase, the longest run of two or more zero groups as `::`). */
export function formatIpAddress(address: IpAddress): string {
  if (address.family === 4) return Array.from(address.bytes).join('.');
  const groups = Array.from({ length: 8 }, (_, index) => (address.bytes[index * 2]! << 8) | address.bytes[index * 2 + 1]!);
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; start += 1) {
    let length = 0;
    while (start + length < 8 && groups[start + length] === 0) length += 1;
    if (length > bestLength) [bestStart, bestLength] = [start, length];
  }
  const hex = (part: number[]) => part.map((group) => group.toString(16)).join(':');
  if (bestStart < 0) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLength))}`;
}
