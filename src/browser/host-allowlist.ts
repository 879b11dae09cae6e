/**
 * The hosts a run may reach: the target's own host and the request's `networkAllowlist`, matched exactly and
 * case-insensitively (no wildcards: a listed `example.com` does not admit `evil.example.com`).
 */
export interface HostAllowlist {
  readonly hosts: readonly string[];
  allows(host: string): boolean;
}

/** `Example.COM.` → `example.com`; `[::1]` → `::1`. */
export function normalizeHost(host: string): string {
  const lower = host.trim().toLowerCase();
  const unbracketed = lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
  return unbracketed.endsWith('.') ? unbracketed.slice(0, -1) : unbracketed;
}

export function createHostAllowlist(baseUrl: string, extraHosts: readonly string[]): HostAllowlist {
  const hosts = [...new Set([new URL(baseUrl).hostname, ...extraHosts].map(normalizeHost))];
  const set = new Set(hosts);
  return { hosts, allows: (host) => set.has(normalizeHost(host)) };
}

/** The host of a URL the browser asked for, or null for URLs that do not leave the browser (data:, blob:, about:). */
export function networkHostOf(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  return ['http:', 'https:', 'ws:', 'wss:'].includes(parsed.protocol) ? normalizeHost(parsed.hostname) : null;
}
