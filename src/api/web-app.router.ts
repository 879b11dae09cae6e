import { join } from 'node:path';
import express, { Router, type Response } from 'express';

/**
 * The dashboard's policy: scripts and styles from this origin only (no inline script anywhere: Vite's build has
 * none), data only from this origin's API, images also as data:/blob: (screenshots), no plugins, no framing.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Paths the single-page app never answers: the API, sign-in, the trace viewer and the probes keep their own 404s. */
const NOT_PAGES = /^\/(api|auth|trace|assets)(\/|$)|^\/(healthz|readyz|metrics)$/;

export interface WebAppOptions {
  /** The dashboard's build (`npm run build` writes dist/web). */
  dir: string;
}

export function sendDashboardHeaders(res: Response): void {
  res.setHeader('content-security-policy', DASHBOARD_CSP);
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'same-origin');
  res.setHeader('cross-origin-opener-policy', 'same-origin');
}

/**
 * The dashboard (web/, issue 27): hashed assets under /assets cached for a year (their names change with their
 * content), and every other GET page path answered with index.html (revalidated each time), where the app's router
 * takes over (for a request that asks for HTML, as a browser's navigation does). `sendPage` lets another router (the job links, job-pages.router.ts) answer with the page after its own
 * checks.
 */
export function createWebApp({ dir }: WebAppOptions): { router: Router; sendPage: (res: Response, status?: number) => Promise<void> } {
  const indexFile = join(dir, 'index.html');

  function sendPage(res: Response, status = 200): Promise<void> {
    sendDashboardHeaders(res);
    res.setHeader('cache-control', 'no-cache');
    res.status(status);
    return new Promise((resolve) => {
      res.sendFile(indexFile, { cacheControl: false, lastModified: false }, (error) => {
        if (error && !res.headersSent) {
          res.removeHeader('content-security-policy');
          res.status(503).type('text/plain').send('The dashboard is not built: run `npm run build` (it writes dist/web).');
        }
        resolve();
      });
    });
  }

  const router = Router();
  router.use('/assets', express.static(join(dir, 'assets'), { immutable: true, maxAge: '365d', index: false, fallthrough: false }));
  router.get(/.*/, async (req, res, next) => {
    // A browser asks for HTML; a machine (curl, fetch, an API client: no Accept or `*/*`) keeps the JSON 404.
    if (NOT_PAGES.test(req.path) || req.accepts(['json', 'html']) !== 'html') return next();
    await sendPage(res);
  });
  return { router, sendPage };
}
