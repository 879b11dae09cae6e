import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createBrowserPool, type BrowserPool, type BrowserSession } from '../../../src/browser/browser-pool.js';
import { createHostAllowlist } from '../../../src/browser/host-allowlist.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../../src/config.js';
import { silentLogger } from '../../support/logger.js';
import { startOriginSite, type OriginSite } from '../../support/origin-sites.js';

/** Opens `url` and waits until its script has tried its fetch (the title says how it went). */
async function openLoads(session: BrowserSession, url: string): Promise<string> {
  await session.page.goto(url);
  // A string: the project compiles without the DOM library.
  await session.page.waitForFunction("document.title.startsWith('fetch')", undefined, { timeout: 10_000 });
  return session.page.title();
}

describe('egress by origin, in Chromium', () => {
  let target: OriginSite;
  let other: OriginSite;
  let service: OriginSite;
  let pool: BrowserPool;

  beforeAll(async () => {
    [target, other, service] = await Promise.all([startOriginSite(), startOriginSite(), startOriginSite()]);
    // `service` stands for the QA service's own address, as the composition root passes it.
    pool = createBrowserPool({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000, forbiddenOrigins: [`127.0.0.1:${service.port}`] }, silentLogger());
  });
  afterAll(async () => {
    await pool.close();
    await Promise.all([target.close(), other.close(), service.close()]);
  });
  beforeEach(() => {
    for (const site of [target, other, service]) site.hits.length = 0;
  });

  it("keeps a page on one port of a host from another port of it: an image and a fetch are blocked there", async () => {
    const session = await pool.openSession(createHostAllowlist(target.url, []));
    try {
      expect(await openLoads(session, `${target.url}/loads?from=${other.port}`)).toBe('fetch failed');
      expect(other.hits).toEqual([]);
      expect(target.hits).toContain(`/loads?from=${other.port}`);
      expect(session.observations.blockedRequests.map((block) => [block.host, block.target]).sort()).toEqual([
        [`127.0.0.1:${other.port}`, `${other.url}/data`],
        [`127.0.0.1:${other.port}`, `${other.url}/pixel.gif`],
      ]);
    } finally {
      await session.close();
    }
  });

  it('lets the page reach that port when the allowlist names host:port, and only then', async () => {
    const bare = await pool.openSession(createHostAllowlist(target.url, ['127.0.0.1']));
    try {
      // A bare host stands for ports 80 and 443 only.
      expect(await openLoads(bare, `${target.url}/loads?from=${other.port}`)).toBe('fetch failed');
      expect(other.hits).toEqual([]);
    } finally {
      await bare.close();
    }
    const listed = await pool.openSession(createHostAllowlist(target.url, [`127.0.0.1:${other.port}`]));
    try {
      expect(await openLoads(listed, `${target.url}/loads?from=${other.port}`)).toBe('fetched ok');
      expect([...other.hits].sort()).toEqual(['/data', '/pixel.gif']);
      expect(listed.observations.blockedRequests).toEqual([]);
    } finally {
      await listed.close();
    }
  });

  it("never lets a run reach the service's own address, though its allowlist names it in two spellings", async () => {
    const session = await pool.openSession(createHostAllowlist(target.url, [`127.0.0.1:${service.port}`, `localhost:${service.port}`]));
    try {
      expect(session.allowlist.allows('127.0.0.1', service.port)).toBe(false);
      expect(session.allowlist.allows('127.0.0.1', target.port)).toBe(true);
      expect(await openLoads(session, `${target.url}/loads?from=${service.port}`)).toBe('fetch failed');
      const direct = await session.page.goto(`http://localhost:${service.port}/api/jobs`);
      expect([direct?.status(), direct?.headers()['x-qa-egress']]).toEqual([403, 'blocked']);
      expect(service.hits).toEqual([]);
      expect(session.observations.blockedRequests.map((block) => block.host)).toEqual(expect.arrayContaining([`127.0.0.1:${service.port}`, `localhost:${service.port}`]));
    } finally {
      await session.close();
    }
  });
});
