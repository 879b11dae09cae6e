/**
 * A browser as far as sign-in needs one: real HTTP (fetch) with a cookie jar per host, redirects followed by hand
 * (so a test sees each hop and each Set-Cookie), and the session's CSRF token sent on state-changing calls.
 */
import { createServer } from 'node:net';

export interface SetCookie {
  name: string;
  value: string;
  attributes: string[];
}

export function parseSetCookie(header: string): SetCookie {
  const [pair, ...attributes] = header.split(';').map((part) => part.trim());
  const at = pair!.indexOf('=');
  return { name: pair!.slice(0, at), value: pair!.slice(at + 1), attributes };
}

export interface Hop {
  url: string;
  status: number;
  location: string | null;
  setCookies: SetCookie[];
  text: string;
}

export class TestBrowser {
  /** host → name → value */
  readonly jar = new Map<string, Map<string, string>>();
  csrfToken: string | undefined;

  cookiesOf(host: string): Map<string, string> {
    let cookies = this.jar.get(host);
    if (!cookies) this.jar.set(host, (cookies = new Map()));
    return cookies;
  }

  /** One request; cookies of the URL's host are sent and the answer's Set-Cookie stored. */
  async request(url: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Hop> {
    const host = new URL(url).host;
    const cookies = this.cookiesOf(host);
    const method = init.method ?? 'GET';
    const headers: Record<string, string> = { ...init.headers };
    if (cookies.size > 0) headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body), redirect: 'manual' });
    const setCookies = response.headers.getSetCookie().map(parseSetCookie);
    for (const cookie of setCookies) {
      const expired = cookie.attributes.some((attribute) => /^expires=Thu, 01 Jan 1970/i.test(attribute)) || cookie.value === '';
      if (expired) cookies.delete(cookie.name);
      else cookies.set(cookie.name, cookie.value);
    }
    const location = response.headers.get('location');
    return { url, status: response.status, location: location && new URL(location, url).href, setCookies, text: await response.text() };
  }

  /** GETs `url` and follows redirects (at most 10), answering every hop. */
  async navigate(url: string): Promise<Hop[]> {
    const hops: Hop[] = [];
    let next: string | null = url;
    while (next !== null && hops.length < 10) {
      const hop = await this.request(next);
      hops.push(hop);
      next = hop.status >= 300 && hop.status < 400 ? hop.location : null;
    }
    return hops;
  }

  /** A JSON call to the service, with the CSRF token unless `csrf` is false. */
  async call(base: string, method: string, path: string, body?: unknown, extra: Record<string, string> = {}, csrf = true) {
    const headers: Record<string, string> = { ...extra };
    if (csrf && this.csrfToken && headers['x-csrf-token'] === undefined) headers['x-csrf-token'] = this.csrfToken;
    const hop = await this.request(`${base}${path}`, { method, body, headers });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read field by field in tests
    return { status: hop.status, body: (hop.text ? JSON.parse(hop.text) : undefined) as Record<string, any>, hop };
  }
}

/** A TCP port free right now on 127.0.0.1 (sign-in needs the service's address before it starts). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
