/**
 * The discovery crawl in real Chromium, through the workers' browser pool and egress proxy, against a local site
 * that tries what a hostile or careless site does: links to other origins, javascript: links, sign-out and delete
 * links, a script that posts on load, endless link spaces, a huge page, a broken page and one that never answers.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createBrowserPool, type BrowserPool } from '../../../src/browser/browser-pool.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../../src/config.js';
import { crawlSite, type CrawlOptions, type CrawlResult } from '../../../src/onboarding/discover/crawl-site.js';
import { startDiscoverySite, type DiscoverySite } from '../../support/discovery-site.js';
import { silentLogger } from '../../support/logger.js';
import { startOriginSite, type OriginSite } from '../../support/origin-sites.js';

describe('crawlSite on a local site', () => {
  let browsers: BrowserPool;
  let other: OriginSite;
  let site: DiscoverySite;
  /** One whole crawl of the site, read by the first tests (the server's counters are for it alone). */
  let result: CrawlResult;
  const deps = () => ({ browsers, logger: silentLogger(), now: () => performance.now() });
  const options = (limits: Partial<CrawlOptions['limits']> = {}): CrawlOptions => ({
    baseUrl: `${site.url}/`,
    networkAllowlist: [],
    // A page's time is short so that /slow (it never answers) fails soon, and long enough for /big (1 MB, 5,000
    // links, through the egress proxy) on a loaded 2-core machine: at 3 s a CI run beside other work timed it out.
    limits: { maxPages: 40, maxDepth: 3, timeoutMs: 60_000, pageTimeoutMs: 8_000, ...limits },
  });

  beforeAll(async () => {
    browsers = createBrowserPool({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000 }, silentLogger());
    other = await startOriginSite();
    site = await startDiscoverySite(other.url);
    result = await crawlSite(deps(), options());
  });
  afterAll(async () => {
    await browsers?.close();
    await site?.close();
    await other?.close();
  });

  it('reads the reachable pages by links alone: nothing submitted, no acting link opened, no other origin reached', () => {
    const paths = result.pages.map((page) => page.path);
    expect(paths).toEqual(expect.arrayContaining(['/', '/about', '/login', '/account', '/contact', '/items?page=1', '/deep/1', '/deep/2', '/deep/3']));
    // One page per query shape; depth stops the endless /deep/N; never the acting links nor the files.
    expect(paths.filter((path) => path.startsWith('/items'))).toEqual(['/items?page=1', '/items?page=99&sort=name']);
    expect(paths).not.toContain('/deep/4');
    expect(paths.some((path) => /logout|delete|pdf|js-link/.test(path))).toBe(false);
    expect(site.writes).toEqual([]);
    expect(site.acted).toEqual([]);
    expect(other.hits).toEqual([]);
    expect(result.refusedRequests).toBeGreaterThanOrEqual(1);
    expect(result.skipped).toEqual(expect.objectContaining({ offSite: expect.any(Number), unsafe: 3, tooDeep: expect.any(Number) }));
    expect(result.skipped.offSite).toBeGreaterThanOrEqual(1);
    expect(result.skipped.tooDeep).toBeGreaterThanOrEqual(1);
  });

  it('records what each page holds: its title, form fields with their bounds, submit words, controls and links', () => {
    const login = result.pages.find((page) => page.path === '/login')!;
    expect(login.title).toBe('Sign in · Acme');
    expect(login.forms).toEqual([
      {
        fields: [
          { name: 'email', label: 'Email', type: 'email', required: true },
          { name: 'password', label: 'Password', type: 'password', required: true },
        ],
        submitLabel: 'Sign in',
        method: 'POST',
        action: '/session',
      },
    ]);
    expect(login.controls).toEqual(expect.arrayContaining([{ role: 'button', name: 'Sign in' }, { role: 'textbox', name: 'Email' }]));
    expect(result.pages.find((page) => page.path === '/contact')!.forms[0]!.fields[0]).toEqual({ name: 'from', label: 'Your email', type: 'email', required: true, maxLength: 60 });
    // A redirect shows the page it ended on, under the path that was asked for.
    expect(result.pages.find((page) => page.path === '/account')!.title).toBe('Sign in · Acme');
    expect(result.pages.find((page) => page.path === '/')!.links).toEqual(expect.arrayContaining(['/about', '/login', '/items?page=1']));
  });

  it('records a page that fails and goes on: an error answer, and one that never answers', () => {
    expect(result.failed).toEqual([{ path: '/broken', reason: 'HTTP 500' }, { path: '/slow', reason: expect.stringContaining('Timeout') }]);
    expect(result.stoppedBy).toBe('done');
    // A huge page is read within its bounds: its 5,000 links to itself are one query shape, cut to a thousand read.
    const big = result.pages.find((page) => page.path === '/big')!;
    expect(big.links.length).toBeLessThanOrEqual(1_000);
    expect(result.pages.filter((page) => page.path.startsWith('/big'))).toHaveLength(2);
  });

  it('stops at the page bound and says so', async () => {
    const result = await crawlSite(deps(), options({ maxPages: 3 }));
    expect(result.pages).toHaveLength(3);
    expect(result.stoppedBy).toBe('max_pages');
  });

  it('refuses options out of range with a coded error', async () => {
    await expect(crawlSite(deps(), { ...options(), baseUrl: 'file:///etc/passwd' })).rejects.toMatchObject({ code: 'onboarding.crawl_invalid', details: { field: 'baseUrl' } });
    await expect(crawlSite(deps(), options({ maxPages: 0 }))).rejects.toMatchObject({ code: 'onboarding.crawl_invalid', details: { field: 'limits.maxPages' } });
  });
});
