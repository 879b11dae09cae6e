/**
 * The only hrefs the job page builds from what the API answered: an artifact's `downloadPath` when it is one of the
 * service's own `/api/` paths, and Playwright's trace viewer (served by the service at `/trace/`) opening it. Any
 * other value (`javascript:…`, another host, `//host`) gives no link.
 */
import type { Artifact } from './job-view.js';

/** The artifact's download path, or undefined when it is not a same-origin `/api/` path. */
export function downloadHref(path: string): string | undefined {
  return /^\/api\/[^/\\]/.test(path) && !/[\\\s]/.test(path) ? path : undefined;
}

/** Playwright's trace viewer on the trace's absolute URL (the viewer fetches it with the session cookie). */
export function traceViewerHref(downloadPath: string, origin: string): string | undefined {
  const path = downloadHref(downloadPath);
  if (path === undefined) return undefined;
  return `/trace/index.html?trace=${encodeURIComponent(new URL(path, origin).href)}`;
}

export const isTrace = (artifact: Pick<Artifact, 'kind' | 'name' | 'contentType'>) =>
  artifact.kind === 'trace' || artifact.contentType === 'application/zip' || artifact.name.toLowerCase().endsWith('.zip');

export const isScreenshot = (artifact: Pick<Artifact, 'kind' | 'contentType'>) => artifact.kind === 'screenshot' || artifact.contentType.startsWith('image/');

/** `/jobs/<id>`: a link to another job of the page (a parent or a child), its id encoded. */
export const jobHref = (jobId: string) => `/jobs/${encodeURIComponent(jobId)}`;

/** `1.2 MB`, `340 KB`, `12 B`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
