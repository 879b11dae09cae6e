import express, { Router } from 'express';
import { traceViewerFiles, type TraceViewerFiles } from '../browser/trace-viewer-files.js';

/**
 * The viewer's own policy: everything from this origin only. Its pages run module scripts from `/trace/` and one
 * inline script (allowed by its hash, not `unsafe-inline`); its service worker (`sw.bundle.js`, scope `/trace/`)
 * fetches the trace zip from this origin with the session cookie and serves the snapshots, which `snapshot.html`
 * shows in a sandboxed iframe; blob: and data: URLs carry screenshots and downloads; React and CodeMirror set inline
 * styles. No other origin in any directive.
 */
export function traceViewerPolicy(scriptHashes: readonly string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptHashes.join(' ')}`.trim(),
    "worker-src 'self' blob:",
    "connect-src 'self' blob: data:",
    "img-src 'self' blob: data:",
    "media-src 'self' blob: data:",
    "style-src 'self' 'unsafe-inline'",
    "font-src 'self' data:",
    "frame-src 'self' blob: data:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/**
 * `/trace/`: Playwright's trace viewer, the files playwright-core ships, served as they are. Open a job's trace with
 * `/trace/index.html?trace=<encodeURIComponent(absolute URL of the artifact's downloadPath)>`: the viewer's service
 * worker fetches it from this origin, so a signed-in person's session cookie authenticates the download. The files
 * are public (nothing of an organization's is in them).
 */
export function createTraceViewerRouter({ dir, inlineScriptHashes }: TraceViewerFiles = traceViewerFiles()): Router {
  const policy = traceViewerPolicy(inlineScriptHashes);
  const router = Router();
  router.use(
    express.static(dir, {
      index: 'index.html',
      redirect: true,
      fallthrough: true,
      // The hashed assets could be cached for long, but index.html, snapshot.html and sw.bundle.js are not hashed;
      // revalidating with the ETag costs a 304 per file after an upgrade of playwright-core.
      cacheControl: true,
      maxAge: 0,
      setHeaders(res) {
        res.setHeader('content-security-policy', policy);
        res.setHeader('x-content-type-options', 'nosniff');
        res.setHeader('referrer-policy', 'same-origin');
      },
    }),
  );
  return router;
}
