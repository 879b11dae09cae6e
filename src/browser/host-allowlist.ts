/**
 * Where a run may connect, by origin: `baseUrl`'s host and port, and each `networkAllowlist` entry, where `host`
 * means that host on its default ports (80 and 443) and `host:port` (`[v6]:port` for an IPv6 literal) that port.
 * Hosts match exactly after normalization (case, trailing dot, IDN, IP literal spelling): no wildcards, so a listed
 * `example.com` admits neither `evil.example.com` nor `example.com:8080`.
 *
 * The scheme is not compared: the egress proxy cannot see it for a tunnel (`CONNECT host:port` serves https, wss and
 * ws alike), and one host and port is one server whatever the scheme. The port is what keeps other services of an
 * allowed host (and the QA API itself on loopback) out of reach.
 */
export interface HostAllowlist {
  /** The allowed hosts, normalized (what an event shows; ports in `origins`). */
  readonly hosts: readonly string[];
  /** The allowed `host:port` pairs, normalized, IPv6 literals in brackets: `shop.example:443`, `[::1]:8080`. */
  readonly origins: readonly string[];
  allows(host: string, port: number): boolean;
}

/** A host and port a request goes to; `host` normalized, without brackets. */
export interface NetworkEndpoint {
  host: string;
  port: number;
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'ws:': 80, 'https:': 443, 'wss:': 443 };
/** An entry without a port stands for the web's default ports. */
const ENTRY_DEFAULT_PORTS = [80, 443];
/** `host`, `host:port`, `[v6]`, `[v6]:port`. */
const ENTRY = /^(\[[^\]]*\]|[^:[\]]+)(?::(\d{1,5}))?$/;
/** What a host may hold before it is parsed: letters (any script, for IDNs), digits, dots, hyphens, IPv6's colons. */
const HOST_CHARACTERS = /^[\p{L}\p{N}._:[\]-]+$/u;

/**
 * `Example.COM.` → `example.com`; `[0:0::1]` → `::1`; `bücher.example` → `xn--bcher-kva.example`; `127.1` →
 * `127.0.0.1` (as a URL reads it, which is also how the proxy's resolver reads it). Anything that is not a host
 * (user info, a path, spaces) → '' which nothing allows.
 */
export function normalizeHost(host: string): string {
  const trimmed = host.trim().toLowerCase();
  if (!HOST_CHARACTERS.test(trimmed)) return '';
  const bracketed = trimmed.includes(':') && !trimmed.startsWith('[') ? `[${trimmed}]` : trimmed;
  if (!URL.canParse(`http://${bracketed}/`)) return '';
  const parsed = new URL(`http://${bracketed}/`);
  if (parsed.port !== '' || parsed.pathname !== '/') return '';
  const unbracketed = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
  return unbracketed.endsWith('.') ? unbracketed.slice(0, -1) : unbracketed;
}

/** `host:port`, with an IPv6 literal in brackets. */
export function endpointText({ host, port }: NetworkEndpoint): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The endpoints an allowlist entry stands for (`host` → its default ports), or [] for an entry that is no host. */
export function endpointsOfEntry(entry: string): NetworkEndpoint[] {
  const match = ENTRY.exec(entry.trim());
  if (!match) return [];
  const host = normalizeHost(match[1]!);
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (host === '' || (port !== undefined && (port < 1 || port > 65_535))) return [];
  return (port === undefined ? ENTRY_DEFAULT_PORTS : [port]).map((each) => ({ host, port: each }));
}

/** The host and port a URL the browser asked for goes to, or null for URLs that do not leave the browser (data:, blob:, about:). */
export function networkEndpointOf(url: string): NetworkEndpoint | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  const defaultPort = DEFAULT_PORTS[parsed.protocol];
  if (defaultPort === undefined) return null;
  return { host: normalizeHost(parsed.hostname), port: parsed.port === '' ? defaultPort : Number(parsed.port) };
}

export function createHostAllowlist(baseUrl: string, entries: readonly string[]): HostAllowlist {
  const base = networkEndpointOf(baseUrl);
  const endpoints = [...(base ? [base] : []), ...entries.flatMap(endpointsOfEntry)];
  const origins = [...new Set(endpoints.map(endpointText))];
  const set = new Set(origins);
  return {
    hosts: [...new Set(endpoints.map((endpoint) => endpoint.host))],
    origins,
    allows: (host, port) => set.has(endpointText({ host: normalizeHost(host), port })),
  };
}

/** An allowlist that lets nothing through (a context made before its run is known). */
export const NOTHING_ALLOWED: HostAllowlist = { hosts: [], origins: [], allows: () => false };
