import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A small site on 127.0.0.1 (a port of its own: another origin of the same host), counting what reaches it. */
export interface OriginSite {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Paths (with query) requested so far, oldest first. */
  hits: string[];
  close(): Promise<void>;
}

const PIXEL = Buffer.from('R0lGODlhAQABAAAAACw=', 'base64');

/**
 * Pages: `/` a plain page; `/loads?from=<port>` a page that loads an image and `fetch`es from that port of the same
 * host (its title says how the fetch went); `/redir?to=<url>` a 302 to `url`; `/link?to=<url>` a link "Elsewhere"
 * to `url`; `/pixel.gif` and `/data` what `/loads` asks for (readable from any origin).
 */
export async function startOriginSite(): Promise<OriginSite> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://site.invalid');
    const page = (body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><head><title>Site</title></head><body>${body}</body></html>`);
    switch (url.pathname) {
      case '/loads': {
        const other = `http://127.0.0.1:${Number(url.searchParams.get('from'))}`;
        page(`<h1>Loads from another port</h1><img src="${other}/pixel.gif" alt="pixel" width="1" height="1">
<script>fetch('${other}/data').then((r) => r.text()).then((t) => { document.title = 'fetched ' + t; }, () => { document.title = 'fetch failed'; });</script>`);
        return;
      }
      case '/redir':
        res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
        return;
      case '/link':
        page(`<h1>Links</h1><a href="${(url.searchParams.get('to') ?? '/').replace(/"/g, '&quot;')}">Elsewhere</a>`);
        return;
      case '/pixel.gif':
        res.writeHead(200, { 'content-type': 'image/gif', 'access-control-allow-origin': '*' }).end(PIXEL);
        return;
      case '/data':
        res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end('ok');
        return;
      default:
        page('<h1>Home</h1>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
