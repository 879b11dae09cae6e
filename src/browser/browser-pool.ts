import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';
import { operationalError } from '../core/errors.js';
import type { Logger } from '../logger.js';
import { startEgressProxy, type EgressProxy } from './egress-proxy.js';
import type { HostAllowlist } from './host-allowlist.js';
import { emptyObservations, observeContext, recordBlocked, type PageObservations } from './page-observer.js';

export interface BrowserConfig {
  /** The Chromium binary Playwright drives (Debian's chromium by default; no browser is downloaded). */
  readonly executablePath: string;
  /** Per navigation or action; a page that takes longer fails the run's step. */
  readonly navigationTimeoutMs: number;
}

/** Flags for Chromium as root in a container with a closed network (STACK.md): without the background ones it keeps dialling out. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  // Chromium's own calls home when a form is filled (autofill field types from content-autofill.googleapis.com):
  // they would go through the run's egress proxy and show up as blocked requests of the page.
  '--disable-features=AutofillServerCommunication',
];

/** One job's browser context: its own cookies and storage, its own network allowlist, its own observations. */
export interface BrowserSession {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly observations: PageObservations;
  close(): Promise<void>;
}

export interface BrowserPool {
  openSession(allowlist: HostAllowlist): Promise<BrowserSession>;
  close(): Promise<void>;
}

/**
 * One Chromium per worker process, launched on first use and relaunched if it dies; one context per job. All of a
 * context's traffic goes through the process's egress proxy with that context's allowlist.
 */
export function createBrowserPool(config: BrowserConfig, logger: Logger): BrowserPool {
  let browser: Promise<Browser> | undefined;
  let proxy: Promise<EgressProxy> | undefined;
  let closed = false;

  function launch(): Promise<Browser> {
    const launching = chromium.launch({ executablePath: config.executablePath, args: CHROMIUM_ARGS }).catch((error: unknown) => {
      logger.error({ err: error, executablePath: config.executablePath }, 'could not launch the browser');
      throw operationalError('browser.unavailable', 'The browser could not be started on the worker');
    });
    launching.then(
      (launched) =>
        launched.on('disconnected', () => {
          if (browser === launching) browser = undefined;
          if (!closed) logger.warn('browser disconnected; the next run launches a new one');
        }),
      () => {
        if (browser === launching) browser = undefined;
      },
    );
    return launching;
  }

  return {
    async openSession(allowlist) {
      if (closed) throw new Error('the browser pool is closed');
      proxy ??= startEgressProxy(logger);
      browser ??= launch();
      const observations = emptyObservations();
      const grant = (await proxy).grant(allowlist, (block) => recordBlocked(observations, block));
      let context: BrowserContext;
      try {
        context = await (await browser).newContext({ proxy: grant.proxy, serviceWorkers: 'block', acceptDownloads: false });
      } catch (error) {
        grant.revoke();
        throw error;
      }
      context.setDefaultTimeout(config.navigationTimeoutMs);
      context.setDefaultNavigationTimeout(config.navigationTimeoutMs);
      observeContext(context, observations, allowlist);
      const page = await context.newPage();
      return {
        context,
        page,
        observations,
        async close() {
          try {
            await context.close();
          } finally {
            grant.revoke();
          }
        },
      };
    },

    async close() {
      closed = true;
      const launched = await browser?.catch(() => undefined);
      await launched?.close();
      await (await proxy?.catch(() => undefined))?.close();
    },
  };
}
