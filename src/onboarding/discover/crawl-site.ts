/**
 * The discovery crawl: breadth first from `baseUrl`, by opening links only. Nothing is typed, clicked or submitted,
 * and the browser context refuses every request that is not a GET (a page's own script posting on load included):
 * a crawl must leave the app as it found it. The context is the runs' own (browser-pool.ts): its egress proxy lets
 * through only `baseUrl`'s origin and the allowlisted hosts, and the crawl opens pages on `baseUrl`'s origin only.
 *
 * Bounded by pages, depth and time, each stop reported; a page that fails to load, answers an error or is no HTML
 * page is recorded in `failed` and the crawl goes on.
 */
import type { Page, Route } from 'playwright';
import { z } from 'zod';
import { ErrorCode } from '../../core/error-codes.js';
import { userError } from '../../core/errors.js';
import type { BrowserPool, BrowserSession } from '../../browser/browser-pool.js';
import { createHostAllowlist } from '../../browser/host-allowlist.js';
import type { Logger } from '../../logger.js';
import type { CrawledPage } from '../model.js';
import { judgeLink, type LinkTarget } from './crawl-links.js';
import { readPage } from './read-page.js';

export interface CrawlDeps {
  browsers: BrowserPool;
  logger: Logger;
  /** Milliseconds since some fixed point; the crawl's time budget is measured with it. */
  now: () => number;
}

export const crawlOptionsSchema = z.strictObject({
  baseUrl: z.url({ protocol: /^https?$/ }).max(2_048),
  networkAllowlist: z.array(z.string().max(300)).max(100),
  limits: z.strictObject({
    maxPages: z.number().int().min(1).max(1_000),
    maxDepth: z.number().int().min(0).max(20),
    /** The whole crawl's budget; each page also stops at the pool's navigation timeout. */
    timeoutMs: z.number().int().min(1_000).max(3_600_000),
    /** One page's load, then its reading; a page slower than that is recorded as failed (default 15 s). */
    pageTimeoutMs: z.number().int().min(500).max(120_000).optional(),
  }),
  /**
   * Paths to open besides what links reach (the index's static routes, `/inventory.html`): a page no link leads to
   * is still read, and a page behind sign-in shows itself as the sign-in form. Opened at depth 1, after `baseUrl`.
   */
  seeds: z.array(z.string().startsWith('/').max(2_048)).max(1_000).optional(),
});
export type CrawlOptions = z.infer<typeof crawlOptionsSchema>;

export interface CrawlResult {
  pages: CrawledPage[];
  failed: { path: string; reason: string }[];
  /** Why the crawl ended: every page it could reach was read, or a bound stopped it. */
  stoppedBy: 'done' | 'max_pages' | 'time_limit' | 'cancelled';
  /** Links not followed, by why. */
  skipped: { offSite: number; unsafe: number; variants: number; tooDeep: number };
  /** Requests other than GET, HEAD and OPTIONS that pages made and the crawl refused. */
  refusedRequests: number;
}

const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** After `load`, how long a page may go on fetching (a single-page app drawing itself) before it is read. */
const SETTLE_MS = 1_500;
const DEFAULT_PAGE_TIMEOUT_MS = 15_000;

function parseOptions(options: unknown): CrawlOptions {
  const parsed = crawlOptionsSchema.safeParse(options);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.join('.');
  throw userError(ErrorCode.OnboardingCrawlInvalid, `The discovery crawl's ${field} is not valid: ${issue.message}`, { details: { field } });
}

export async function crawlSite(deps: CrawlDeps, options: CrawlOptions, signal?: AbortSignal): Promise<CrawlResult> {
  const { baseUrl, networkAllowlist, limits, seeds = [] } = parseOptions(options);
  const base = new URL(baseUrl);
  const started = deps.now();
  const result: CrawlResult = { pages: [], failed: [], stoppedBy: 'done', skipped: { offSite: 0, unsafe: 0, variants: 0, tooDeep: 0 }, refusedRequests: 0 };
  const session = await deps.browsers.openSession(createHostAllowlist(baseUrl, networkAllowlist));
  try {
    await guard(session, () => (result.refusedRequests += 1));
    let page = session.page;
    const first = judgeLink(base.href, '', base);
    if (first.kind !== 'follow') throw userError(ErrorCode.OnboardingCrawlInvalid, "The discovery crawl's baseUrl is not a page it may open", { details: { field: 'baseUrl' } });
    const queue: Array<{ target: LinkTarget; depth: number }> = [{ target: first.target, depth: 0 }];
    const shapes = new Set([first.target.shape]);
    for (const seed of seeds) {
      const judged = judgeLink(new URL(seed, base).href, '', base);
      if (judged.kind !== 'follow' || shapes.has(judged.target.shape) || limits.maxDepth < 1) continue;
      shapes.add(judged.target.shape);
      queue.push({ target: judged.target, depth: 1 });
    }
    const recorded = new Set<string>();
    while (queue.length > 0) {
      if (signal?.aborted) {
        result.stoppedBy = 'cancelled';
        break;
      }
      const left = limits.timeoutMs - (deps.now() - started);
      if (left <= 0) {
        result.stoppedBy = 'time_limit';
        break;
      }
      if (result.pages.length >= limits.maxPages) {
        result.stoppedBy = 'max_pages';
        break;
      }
      const { target, depth } = queue.shift()!;
      page = page.isClosed() ? await openTab(session) : page;
      const visit = await visitPage(page, target, base, Math.min(left, limits.pageTimeoutMs ?? DEFAULT_PAGE_TIMEOUT_MS)).catch((error: unknown) => ({
        error: error instanceof Error ? error.message.split('\n')[0]! : String(error),
        answered: error instanceof PageRefused,
      }));
      if ('error' in visit) {
        result.failed.push({ path: target.path, reason: visit.error.slice(0, 300) });
        // A page that would not answer may hold the renderer: the next one gets a fresh tab.
        if (!visit.answered) await page.close().catch(() => undefined);
        continue;
      }
      for (const { path, shape } of visit.targets) {
        shapes.add(shape);
        if (recorded.has(path) || result.pages.length >= limits.maxPages) continue;
        recorded.add(path);
        result.pages.push({ ...visit.page, path });
      }
      for (const link of visit.links) {
        if (link.kind !== 'follow') {
          if (link.kind === 'off_site') result.skipped.offSite += 1;
          if (link.kind === 'unsafe') result.skipped.unsafe += 1;
          continue;
        }
        if (shapes.has(link.target.shape)) {
          if (!recorded.has(link.target.path) && !queue.some((each) => each.target.path === link.target.path)) result.skipped.variants += 1;
          continue;
        }
        if (depth + 1 > limits.maxDepth) {
          result.skipped.tooDeep += 1;
          continue;
        }
        shapes.add(link.target.shape);
        queue.push({ target: link.target, depth: depth + 1 });
      }
    }
    deps.logger.info({ pages: result.pages.length, failed: result.failed.length, stoppedBy: result.stoppedBy, ms: deps.now() - started }, 'discovery crawl finished');
    return result;
  } finally {
    await session.close().catch(() => undefined);
  }
}

/** Refuses writes, dismisses dialogs, closes pop-ups: the page may try all three on its own. */
async function guard(session: BrowserSession, refused: () => void): Promise<void> {
  const { context } = session;
  await context.route('**/*', (route: Route) => {
    if (READ_ONLY_METHODS.has(route.request().method())) return route.fallback();
    refused();
    return route.abort('blockedbyclient');
  });
  context.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
  closePopups(session.page);
}

function closePopups(page: Page): void {
  page.on('popup', (opened) => void opened.close().catch(() => undefined));
}

async function openTab(session: BrowserSession): Promise<Page> {
  const page = await session.context.newPage();
  closePopups(page);
  return page;
}

/** The page answered, with something that is not a page of the site: the tab is fine for the next one. */
class PageRefused extends Error {}

interface Visit {
  page: Omit<CrawledPage, 'path'>;
  /** The page asked for and, after a redirect inside the site, the page it ended on: both show this content. */
  targets: LinkTarget[];
  links: ReturnType<typeof judgeLink>[];
}

async function visitPage(page: Page, target: LinkTarget, base: URL, leftMs: number): Promise<Visit> {
  const response = await page.goto(target.url, { waitUntil: 'load', timeout: leftMs });
  const type = response?.headers()['content-type'] ?? 'text/html';
  if (response !== null && response.status() >= 400) throw new PageRefused(`HTTP ${response.status()}`);
  if (!/html/i.test(type)) throw new PageRefused(`not a page (${type.split(';')[0]})`);
  await page.waitForLoadState('networkidle', { timeout: Math.min(SETTLE_MS, leftMs) }).catch(() => undefined);
  const ended = judgeLink(page.url(), '', base);
  if (ended.kind !== 'follow') throw new PageRefused('the page sent the browser off the site');
  const read = await readPage(page, Math.max(leftMs, 1_000));
  const links = read.links.map((link) => judgeLink(link.href, link.text, base));
  const samePage = (href: string) => (URL.canParse(href) && new URL(href).origin === base.origin ? new URL(href).pathname : href);
  return {
    page: {
      title: read.title,
      links: [...new Set(links.flatMap((link) => (link.kind === 'follow' ? [link.target.path] : [])))],
      forms: read.forms.map((form) => ({ ...form, action: form.action === null ? null : samePage(form.action) })),
      controls: read.controls,
      testIds: read.testIds,
    },
    targets: ended.target.path === target.path ? [target] : [target, ended.target],
    links,
  };
}
