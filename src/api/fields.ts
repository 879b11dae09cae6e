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

/** Credentials in a URL would be stored, shown and logged with it: they belong in testValueSecretRefs. */
const withoutUserInfo = (url: string) => !URL.canParse(url) || (new URL(url).username === '' && new URL(url).password === '');
const USER_INFO = 'may not carry a user name or password (user:pw@); give credentials as testValueSecretRefs';

/** An http(s) URL that fits a column of `maxLength` characters. */
export const httpUrl = (maxLength: number) =>
  z
    .url({ protocol: /^https?$/, hostname: z.regexes.hostname, error: 'must be an http(s) URL' })
    .max(maxLength)
    .refine(withoutUserInfo, USER_INFO);
export const httpsUrl = (maxLength: number) =>
  z
    .url({ protocol: /^https$/, hostname: z.regexes.hostname, error: 'must be an https URL' })
    .max(maxLength)
    .refine(withoutUserInfo, USER_INFO);
export const commitSha = z.string().regex(/^[0-9a-f]{7,64}$/i, 'must be 7 to 64 hexadecimal characters').max(64);

/** How deep and how large an opaque JSON object from a client may be: far inside the database's JSON limits (depth 32). */
export const JSON_MAX_DEPTH = 16;
export const JSON_MAX_BYTES = 16_384;

/** Whether `value` nests objects and arrays at most `maxDepth` deep; iterative, as a body may nest thousands deep. */
function nestsAtMost(value: unknown, maxDepth: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > maxDepth) return false;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return true;
}

/**
 * An opaque JSON object kept as the client sent it (`channelContext`), bounded in depth and size. It is checked,
 * not copied: a key such as `__proto__` stays a plain own key and never becomes a prototype.
 */
export const opaqueJsonObject = z.custom<Record<string, unknown>>(
  (value) => value !== null && typeof value === 'object' && !Array.isArray(value),
  'must be a JSON object',
).superRefine((value, context) => {
  // Depth first: JSON.stringify of a deep value is what the bound protects against.
  if (!nestsAtMost(value, JSON_MAX_DEPTH)) context.addIssue({ code: 'custom', message: `may be nested at most ${JSON_MAX_DEPTH} levels deep` });
  else if (Buffer.byteLength(JSON.stringify(value), 'utf8') > JSON_MAX_BYTES) {
    context.addIssue({ code: 'custom', message: `may be at most ${JSON_MAX_BYTES} bytes as JSON` });
  }
}).meta({ type: 'object', description: `A JSON object, kept as sent: at most ${JSON_MAX_DEPTH} levels deep and ${JSON_MAX_BYTES} bytes as JSON` });
