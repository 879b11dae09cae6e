import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chromium, type BrowserServer } from 'playwright';
import { CHROMIUM_ARGS, createBrowserPool, PLAYWRIGHT_DISABLED_FEATURES, SERVICE_DISABLED_FEATURES, type BrowserPool } from '../../../src/browser/browser-pool.js';
import { createHostAllowlist } from '../../../src/browser/host-allowlist.js';
import { isAppError } from '../../../src/core/errors.js';
import { DEFAULT_ACCOUNT, startDemoApp, type DemoApp } from '../../fixtures/demo-app/index.js';
import { createLogger } from '../../../src/logger.js';
import { silentLogger } from '../../support/logger.js';
import { freePort } from '../../support/qa-cli.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../../src/config.js';

/** Debian's full `chromium`, which BROWSER_EXECUTABLE_PATH may name instead of the default headless shell. */
const FULL_CHROMIUM = '/usr/bin/chromium';

/** A path no browser is at: a pool that tried to launch one would fail. */
const NO_LOCAL_BROWSER = '/nonexistent/chromium';

async function signIn(page: import('playwright').Page, base: string): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel('Email').fill(DEFAULT_ACCOUNT.email);
  await page.getByLabel('Password').fill(DEFAULT_ACCOUNT.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/products');
}

/** What opening a session fails with, as code and message. */
async function failure(pool: BrowserPool, base: string): Promise<{ code: string; message: string }> {
  try {
    const session = await pool.openSession(createHostAllowlist(base, []));
    await session.close();
  } catch (error) {
    if (isAppError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected openSession to fail');
}

describe('browser pool', () => {
  let demo: DemoApp;

  beforeAll(async () => {
    demo = await startDemoApp();
  });
  afterAll(async () => {
    await demo.close();
  });

  it('gives every session a context of its own with its own allowlist, also one made ahead of its run', async () => {
    const pool = createBrowserPool({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000 }, silentLogger());
    try {
      const first = await pool.openSession(createHostAllowlist(demo.url, []));
      await signIn(first.page, demo.url);
      // Made while the first ran; it must carry neither the first's cookies nor a grant that lets anything through.
      const second = await pool.openSession(createHostAllowlist(demo.url.replace('127.0.0.1', 'localhost'), []));
      expect(second.context).not.toBe(first.context);
      const blocked = await second.page.goto(`${demo.url}/cart`);
      expect(blocked?.status()).toBe(403);
      expect(second.observations.blockedRequests.map((block) => block.host)).toEqual([`127.0.0.1:${demo.port}`]);
      expect(first.observations.blockedRequests).toEqual([]);
      await second.page.goto(`${demo.url.replace('127.0.0.1', 'localhost')}/cart`);
      expect(second.page.url()).toContain('/login?next=');
      await first.page.goto(`${demo.url}/cart`);
      expect(first.page.url()).toBe(`${demo.url}/cart`);
      await Promise.all([first.close(), second.close()]);

      const third = await pool.openSession(createHostAllowlist(demo.url, []));
      await third.page.goto(`${demo.url}/cart`);
      expect(third.page.url()).toContain('/login?next=');
      await third.close();
    } finally {
      await pool.close();
    }
  });

  it('gives a context no pages but its own, also in the full browser: not the address bar popup it would keep per window', async () => {
    // The default headless shell has no windows; the full browser (still supported) builds one per context.
    const pool = createBrowserPool({ executablePath: FULL_CHROMIUM, navigationTimeoutMs: 10_000 }, silentLogger());
    try {
      const session = await pool.openSession(createHostAllowlist(demo.url, []));
      await session.page.goto(`${demo.url}/`);
      const cdp = await session.context.browser()!.newBrowserCDPSession();
      const { targetInfos } = await cdp.send('Target.getTargets');
      await cdp.detach();
      // Each context's window would have its omnibox popup (chrome://omnibox-popup.top-chrome) loaded in a
      // renderer process of its own; CHROMIUM_ARGS turns that off. The pool's spare context has its blank page.
      expect(targetInfos.filter((target) => target.type !== 'page')).toEqual([]);
      expect(targetInfos.map((target) => target.url).sort()).toEqual(['about:blank', `${demo.url}/`]);
      await session.close();
    } finally {
      await pool.close();
    }
  });

  it('keeps off every feature Playwright turns off: Chromium takes only the last --disable-features switch', async () => {
    const featuresOf = (args: readonly string[]) =>
      args.filter((arg) => arg.startsWith('--disable-features=')).map((arg) => arg.slice('--disable-features='.length).split(','));
    // What Playwright passes by itself, read off the command line of a browser it launched.
    const server = await chromium.launchServer({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, args: ['--headless', '--no-sandbox'] });
    let playwrights: string[][];
    try {
      playwrights = featuresOf(readFileSync(`/proc/${server.process().pid}/cmdline`, 'utf8').split('\0'));
    } finally {
      await server.close();
    }
    expect(playwrights).toHaveLength(1);
    expect(playwrights[0]).toContain('PaintHolding');
    const ours = featuresOf(CHROMIUM_ARGS);
    expect(ours).toHaveLength(1);
    expect(ours[0]).toEqual(expect.arrayContaining([...playwrights[0]!, ...SERVICE_DISABLED_FEATURES]));
    expect(ours[0]).toEqual([...PLAYWRIGHT_DISABLED_FEATURES, ...SERVICE_DISABLED_FEATURES]);
  });

  describe('with a remote browser (BROWSER_WS_ENDPOINT)', () => {
    let server: BrowserServer | undefined;
    let port: number;
    const wsPath = '/qa-browser-pool-test';

    const launchServer = async () => {
      server = await chromium.launchServer({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, args: CHROMIUM_ARGS, port, wsPath });
      return server;
    };

    beforeAll(async () => {
      port = await freePort();
    });
    afterAll(async () => {
      await server?.close();
    });

    it('connects instead of launching, and connects again after the browser went away', async () => {
      const wsEndpoint = (await launchServer()).wsEndpoint();
      expect(new URL(wsEndpoint)).toMatchObject({ port: String(port), pathname: wsPath });
      const pool = createBrowserPool({ executablePath: NO_LOCAL_BROWSER, navigationTimeoutMs: 10_000, wsEndpoint }, silentLogger());
      try {
        const session = await pool.openSession(createHostAllowlist(demo.url, []));
        await session.page.goto(`${demo.url}/pricing`);
        expect(await session.page.getByRole('heading', { level: 1 }).textContent()).toBe('Pricing');
        await session.close();

        await server!.close();
        const down = await failure(pool, demo.url);
        expect(down.code).toBe('browser.unavailable');
        expect(down.message).toBe(`The remote browser at ws://${new URL(wsEndpoint).host} (BROWSER_WS_ENDPOINT) could not be reached`);

        await launchServer();
        const again = await pool.openSession(createHostAllowlist(demo.url, []));
        await again.page.goto(`${demo.url}/`);
        expect(await again.page.title()).toContain('Demo Shop');
        await again.close();
      } finally {
        await pool.close();
      }
    });

    it('never launches a local browser when the endpoint cannot be reached, and names only its host', async () => {
      const nobody = await freePort();
      const lines: string[] = [];
      const pool = createBrowserPool(
        { executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000, wsEndpoint: `ws://user:hunter2@127.0.0.1:${nobody}/secret-token?key=abc` },
        createLogger({ level: 'info', format: 'json' }, { write: (line: string) => void lines.push(line) }),
      );
      try {
        expect(await failure(pool, demo.url)).toEqual({
          code: 'browser.unavailable',
          message: `The remote browser at ws://127.0.0.1:${nobody} (BROWSER_WS_ENDPOINT) could not be reached`,
        });
        // The log says what went wrong, with the host only: Playwright's own message quotes the whole endpoint.
        const logged = lines.join('');
        expect(logged).toContain('could not connect to the remote browser');
        expect(logged).toContain(`ws://127.0.0.1:${nobody}`);
        for (const credential of ['hunter2', 'secret-token', 'key=abc']) expect(logged).not.toContain(credential);
      } finally {
        await pool.close();
      }
    });
  });
});
