import { ErrorCode, userError } from '../core/errors.js';

/**
 * A host as the allowlist compares it: lowercase, IDNs in punycode, IP literals canonical (as a URL writes them,
 * so `0:0::1` and `::1` are the same host), no brackets, no trailing dot.
 */
export function canonicalHost(host: string): string {
  const trimmed = host.trim().toLowerCase();
  const bracketed = trimmed.includes(':') && !trimmed.startsWith('[') ? `[${trimmed}]` : trimmed;
  const parsed = URL.canParse(`https://${bracketed}/`) ? new URL(`https://${bracketed}/`).hostname : trimmed;
  const unbracketed = parsed.startsWith('[') && parsed.endsWith(']') ? parsed.slice(1, -1) : parsed;
  return unbracketed.endsWith('.') ? unbracketed.slice(0, -1) : unbracketed;
}

/**
 * The probe URL, checked before anything touches the network. The URL is itself a secret (it may carry a key in
 * its query), so messages name its host at most, never the whole URL.
 */
export function checkProbeUrl(raw: string, allowedHosts: readonly string[]): URL {
  if (!URL.canParse(raw)) throw userError(ErrorCode.ProbeInvalidUrl, 'the probe URL is not a valid absolute URL');
  const url = new URL(raw);
  if (url.protocol !== 'https:') {
    throw userError(ErrorCode.ProbeNotHttps, `the probe URL must use https (it uses ${url.protocol.replace(/:$/, '')})`);
  }
  if (url.username !== '' || url.password !== '') {
    throw userError(ErrorCode.ProbeCredentialsInUrl, 'the probe URL must not carry a user name or password; the probe token is sent as a bearer token');
  }
  const host = canonicalHost(url.hostname);
  if (!allowedHosts.some((allowed) => canonicalHost(allowed) === host)) {
    const listed = allowedHosts.length === 0 ? 'it is empty' : `it has ${allowedHosts.map(canonicalHost).join(', ')}`;
    throw userError(ErrorCode.ProbeHostNotAllowed, `the probe host ${host} is not in the job's host allowlist (${listed}); add it to networkAllowlist`);
  }
  return url;
}

// RFC 9110 field value without spaces: visible ASCII. CR, LF or NUL in a header would split the request.
const TOKEN = /^[\x21-\x7e]+$/;

export function checkProbeToken(token: string): void {
  if (!TOKEN.test(token)) {
    throw userError(ErrorCode.ProbeInvalidToken, 'the probe token is empty or has characters a header cannot carry (only visible ASCII, no spaces)');
  }
}
