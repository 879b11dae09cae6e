/**
 * A small, partly hostile site for the discovery crawl, on 127.0.0.1, counting what reaches it: every request, every
 * write (POST and the like) and every visit of its sign-out and delete links. `other` is another origin whose links
 * and image the pages carry.
 *
 * Pages: `/` (links everywhere: about, sign-in, a page behind sign-in, a broken page, a PDF, javascript:, the other
 * origin, sign-out, delete, twenty `/items?page=N`, an endless `/deep/N`); `/about`; `/login` (a sign-in form whose
 * page script posts on load); `/account` (302 to `/login` unless signed in: never here); `/contact` (a message form);
 * `/big` (5,000 links to itself with a query and a 1 MB text); `/broken` (500); `/slow` (never answers).
 */
import { createServer, type Server } from 'node:http';
import { listenOnLoopback, type Listening } from '../fixtures/loopback.js';

export interface DiscoverySite extends Listening {
  hits: string[];
  writes: string[];
  acted: string[];
}

const html = (title: string, body: string) => `<!doctype html><html lang="en"><head><title>${title}</title></head><body>${body}</body></html>`;

export async function startDiscoverySite(other: string): Promise<DiscoverySite> {
  const hits: string[] = [];
  const writes: string[] = [];
  const acted: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.push(path);
    if (req.method !== 'GET' && req.method !== 'HEAD') writes.push(`${req.method} ${path}`);
    const url = new URL(path, 'http://site.invalid');
    const page = (title: string, body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html(title, body));
    switch (url.pathname) {
      case '/':
        return page(
          'Acme',
          `<h1>Acme</h1><nav><a href="/about">About</a> <a href="/login">Sign in</a> <a href="/account">Account</a> <a href="/contact#form">Contact</a>
<a href="/broken">Broken</a> <a href="/report.pdf">Report</a> <a href="javascript:fetch('/js-link',{method:'POST'})">Run</a>
<a href="${other}/elsewhere">Partner</a> <a href="/logout">Sign out</a> <a href="/items/7/delete">Delete item 7</a> <a href="/slow">Slow</a> <a href="/big">Big</a>
${Array.from({ length: 20 }, (_, n) => `<a href="/items?page=${n + 1}">Page ${n + 1}</a>`).join(' ')}
<a href="/deep/1">Deeper</a></nav><img src="${other}/pixel.gif" alt="partner logo">`,
        );
      case '/about':
        return page('About Acme', '<h1>About</h1><a href="/">Home</a>');
      case '/login':
        return page(
          'Sign in · Acme',
          `<h1>Sign in</h1><form method="post" action="/session"><label>Email <input type="email" name="email" required></label>
<label>Password <input type="password" name="password" required></label><button>Sign in</button></form>
<script>fetch('/track', { method: 'POST', body: 'seen' }).catch(() => {}); document.forms[0].requestSubmit === undefined || 0;</script>`,
        );
      case '/account':
        res.writeHead(302, { location: '/login' }).end();
        return;
      case '/contact':
        return page('Contact', '<form method="post" action="/messages"><label>Your email <input type="email" name="from" required maxlength="60"></label><label>Message <textarea name="message" required></textarea></label><button>Send</button></form>');
      case '/items':
        return page(`Items ${url.searchParams.get('page') ?? ''}`, '<h1>Items</h1><a href="/items?page=99&sort=name">Sorted</a>');
      case '/logout':
      case '/items/7/delete':
        acted.push(path);
        return page('Done', '<p>Done</p>');
      case '/big':
        return page('Big', `${Array.from({ length: 5_000 }, (_, n) => `<a href="/big?n=${n}">${n}</a>`).join('')}<p>${'x'.repeat(1_000_000)}</p>`);
      case '/broken':
        res.writeHead(500, { 'content-type': 'text/html' }).end(html('Oops', 'Server error'));
        return;
      case '/slow':
        return; // never answers
      default: {
        const deep = /^\/deep\/(\d+)$/.exec(url.pathname);
        if (deep !== null) return page(`Deep ${deep[1]}`, `<a href="/deep/${Number(deep[1]) + 1}">Deeper</a>`);
        res.writeHead(404, { 'content-type': 'text/html' }).end(html('Not found', 'Not found'));
      }
    }
  });
  const listening = await listenOnLoopback(server);
  return { ...listening, hits, writes, acted };
}
