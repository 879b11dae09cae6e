import { z } from 'zod';

/** zod field schemas shared by the routers, so a rule reads the same everywhere. */
const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/**
 * A `networkAllowlist` entry: `host` (its default ports, 80 and 443), `host:port`, `[v6]` or `[v6]:port`
 * (src/browser/host-allowlist.ts reads them). Kept as the string given, lowercased.
 */
const ALLOWLIST_ENTRY = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::([1-9][0-9]{0,4}))?$/i;

function isAllowlistEntry(entry: string): boolean {
  const match = ALLOWLIST_ENTRY.exec(entry);
  if (!match || Number(match[2] ?? 0) > 65_535) return false;
  const host = match[1]!;
  return host.startsWith('[') ? URL.canParse(`http://${host}/`) : HOSTNAME.test(host);
}

export const hostnameList = z
  .array(z.string().refine(isAllowlistEntry, 'must be a host, host:port or [IPv6]:port'))
  .max(100)
  .default([])
  .transform((hosts) => hosts.map((host) => host.toLowerCase()));

export const httpUrl = z.url({ protocol: /^https?$/, hostname: z.regexes.hostname, error: 'must be an http(s) URL' });
export const httpsUrl = z.url({ protocol: /^https$/, hostname: z.regexes.hostname, error: 'must be an https URL' });
export const commitSha = z.string().regex(/^[0-9a-f]{7,64}$/i, 'must be 7 to 64 hexadecimal characters');
