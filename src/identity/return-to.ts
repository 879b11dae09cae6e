/**
 * Where to send a person after sign-in: a path of this service only. A full URL, a scheme-relative `//host`, a
 * backslash (browsers read `/\host` as `//host`), or control characters could send them to another site (an open
 * redirect), so anything but a plain absolute path becomes `/`.
 */
export function safeReturnTo(candidate: unknown): string {
  if (typeof candidate !== 'string' || candidate.length === 0 || candidate.length > 2_000) return '/';
  if (!candidate.startsWith('/') || candidate.startsWith('//')) return '/';
  // eslint-disable-next-line no-control-regex -- control characters are what is refused here
  if (/[\\\u0000-\u001f\u007f]/.test(candidate)) return '/';
  try {
    // Percent-encoded slashes or backslashes at the start decode to the same tricks in some servers and browsers.
    const decoded = decodeURIComponent(candidate);
    if (decoded.startsWith('//') || decoded.includes('\\')) return '/';
  } catch {
    return '/';
  }
  return candidate;
}
