import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { endpointsOfEntry, endpointText, normalizeHost, type HostAllowlist, type NetworkEndpoint } from './host-allowlist.js';

/**
 * Endpoints no run may reach, whatever its allowlist says: the service's own listening address (a page must not
 * drive the QA API with the worker's network position) and the egress proxy's. An entry `host:port` whose host is
 * a wildcard (`0.0.0.0`, `[::]`) stands for every address of this machine on that port; a loopback entry
 * (`127.0.0.1`, `[::1]`, `localhost`) for every loopback spelling on that port (`127.0.0.2`, `0.0.0.0`,
 * `[::ffff:127.0.0.1]`, `localhost`): they all reach the same socket, or may.
 */
export interface ForbiddenOrigins {
  /** The entries as given, normalized (`host:port`). */
  readonly origins: readonly string[];
  /** `host` as an allowlist takes it: a name or an IP literal (the proxy also asks with the addresses a name resolves to). */
  forbids(host: string, port: number): boolean;
}

/** Loopback, and the unspecified addresses, which Linux connects to loopback. */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('0.0.0.0', 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addAddress('::', 'ipv6');

const WILDCARDS = new Set(['0.0.0.0', '::']);

/** Chromium and the resolver both send `localhost` and its subdomains to loopback. */
const isLocalhostName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/** Whether `host` (a name or an IP literal) is this machine's loopback: 127.0.0.0/8, `::1`, `localhost` and its subdomains. */
export function isLoopbackAddress(host: string): boolean {
  const family = isIP(host);
  if (family === 0) return isLocalhostName(host);
  // BlockList also matches IPv4-mapped IPv6 (`::ffff:7f00:1`) against its IPv4 rules.
  return LOOPBACK.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

/** Every address of this machine's interfaces, normalized (what a wildcard listener answers on). */
export function machineAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((each) => each.address.toLowerCase().replace(/%.*$/, '')));
}

export function createForbiddenOrigins(entries: readonly string[], localAddresses: readonly string[] = machineAddresses()): ForbiddenOrigins {
  const endpoints: NetworkEndpoint[] = entries.flatMap(endpointsOfEntry);
  const local = new Set(localAddresses);
  const matches = (entry: NetworkEndpoint, host: string) => {
    if (WILDCARDS.has(entry.host)) return isLoopbackAddress(host) || local.has(host);
    if (isLoopbackAddress(entry.host)) return isLoopbackAddress(host);
    return host === entry.host;
  };
  return {
    origins: [...new Set(endpoints.map(endpointText))],
    forbids(host, port) {
      const normalized = normalizeHost(host);
      return endpoints.some((entry) => entry.port === port && matches(entry, normalized));
    },
  };
}

export const NOTHING_FORBIDDEN: ForbiddenOrigins = { origins: [], forbids: () => false };

/** The service's own listening address as a forbidden origin: `HOST:PORT` from config.http. */
export function serviceOrigin(http: { readonly host: string; readonly port: number }): string {
  return endpointText({ host: http.host.replace(/^\[|\]$/g, ''), port: http.port });
}

/** `allowlist` without the forbidden endpoints: what a run's proxy grant, observers and navigation checks use. */
export function withoutForbidden(allowlist: HostAllowlist, forbidden: ForbiddenOrigins): HostAllowlist {
  if (forbidden.origins.length === 0) return allowlist;
  const open = (host: string, port: number) => !forbidden.forbids(host, port);
  return {
    hosts: allowlist.hosts,
    origins: allowlist.origins.filter((origin) => endpointsOfEntry(origin).every(({ host, port }) => open(host, port))),
    allows: (host, port) => open(host, port) && allowlist.allows(host, port),
  };
}
