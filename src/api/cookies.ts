import type { CookieOptions, Request, Response } from 'express';

/**
 * The cookies of people's sign-in. Over https they are `Secure` and `__Host-` prefixed (the browser then refuses
 * them unless Secure, Path=/ and without Domain: no subdomain can plant or read them); over plain http (a service
 * on loopback) neither is possible. Always HttpOnly (no script reads them) and SameSite=Lax (sent on a top-level
 * navigation from the provider back to the callback, never on a cross-site POST or fetch).
 */
export interface SignInCookies {
  session: string;
  signIn: string;
  secure: boolean;
}

export function signInCookies(publicBaseUrl: string): SignInCookies {
  const secure = new URL(publicBaseUrl).protocol === 'https:';
  const prefix = secure ? '__Host-' : '';
  return { session: `${prefix}qa_session`, signIn: `${prefix}qa_signin`, secure };
}

function options(cookies: SignInCookies, maxAgeMs: number | undefined): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure: cookies.secure, path: '/', ...(maxAgeMs === undefined ? {} : { maxAge: maxAgeMs }) };
}

export function setCookie(res: Response, cookies: SignInCookies, name: string, value: string, maxAgeMs: number): void {
  res.cookie(name, value, options(cookies, maxAgeMs));
}

export function clearCookie(res: Response, cookies: SignInCookies, name: string): void {
  res.clearCookie(name, options(cookies, undefined));
}

/**
 * One cookie's value from the request's `Cookie` header, or undefined. Duplicates (a cookie planted under another
 * path) make it ambiguous: then none is taken.
 */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.get('cookie');
  if (header === undefined) return undefined;
  const values = header
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair.startsWith(`${name}=`))
    .map((pair) => pair.slice(name.length + 1));
  return values.length === 1 ? values[0] : undefined;
}
