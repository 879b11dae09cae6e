import type { Browser, BrowserContext, BrowserType, Page } from 'playwright';
import { ErrorCode, operationalError } from '../core/errors.js';
import { NO_TELEMETRY, type Telemetry } from '../core/telemetry.js';
import type { Logger } from '../logger.js';
import { startEgressProxy, type EgressGrant, type EgressProxy } from './egress-proxy.js';
import { createForbiddenOrigins, withoutForbidden } from './forbidden-origins.js';
import { NOTHING_ALLOWED, type HostAllowlist } from './host-allowlist.js';
import { emptyObservations, observeContext, recordBlocked, type PageObservations } from './page-observer.js';

export interface BrowserConfig {
  /** The Chromium binary Playwright drives (Debian's chromium by default; no browser is downloaded). */
  readonly executablePath: string;
  /** Per navigation or action; a page that takes longer fails the run's step. */
  readonly navigationTimeoutMs: number;
  /**
   * A running Playwright browser server to use instead of launching one (`ws://` or `wss://`, as
   * `chromium.launchServer()` or a browser grid gives it). Then no local browser is ever launched, and
   * `executablePath` is not used.
   */
  readonly wsEndpoint?: string;
  /**
   * The address the egress proxy listens on, which is also the address the browser is told to reach it at
   * (default 127.0.0.1: only a browser on this machine can use it).
   */
  readonly egressProxyHost?: string;
  /**
   * `host:port` endpoints no run may reach whatever its allowlist says: the service's own listening address
   * (`serviceOrigin(config.http)`). A wildcard host (`0.0.0.0`, `[::]`) stands for every address of this machine,
   * a loopback one for every loopback spelling (forbidden-origins.ts).
   */
  readonly forbiddenOrigins?: readonly string[];
}

/**
 * Features Playwright 1.65 turns off in the browsers it launches (its chromiumSwitches.ts). Chromium reads only the
 * last `--disable-features` switch on its command line, so CHROMIUM_ARGS, which comes after Playwright's, must name
 * them again or they would be on (a test compares this list with what Playwright passes).
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/** Features the service turns off as well. */
export const SERVICE_DISABLED_FEATURES = [
  // Chromium's own calls home when a form is filled (autofill field types from content-autofill.googleapis.com)
  // would go through the run's egress proxy and show up as blocked requests.
  'AutofillServerCommunication',
  // Chromium starts a spare renderer process for each context's next cross-site navigation; every run has a context
  // of its own and stays on its site, so the spare was started and thrown away with every run (about 0.1 s of CPU).
  'SpareRendererForSitePerProcess',
  // Headless Chromium still builds a window per context, and that window's address-bar popup is a web page
  // (chrome://omnibox-popup.top-chrome) in a renderer process of its own that follows every navigation. Nobody sees
  // it; without it a run costs the machine about 40 % less CPU.
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
];

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
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...SERVICE_DISABLED_FEATURES].join(',')}`,
];

/**
 * Playwright's `chromium`, loaded when the pool first launches or connects: the package costs a process about 0.7 s
 * of CPU to load, and a process that never runs a browser (`qa serve`, the CLI's admin commands, the API's tests)
 * should not pay it. Node caches the module; every later call resolves at once.
 */
async function playwrightChromium(): Promise<BrowserType> {
  return (await import('playwright')).chromium;
}

/** How long `chromium.connect` may take to reach a remote browser before the run fails as `browser.unavailable`. */
export const CONNECT_TIMEOUT_MS = 30_000;
/** A context kept ready for the next run is closed after this long unused (it holds a renderer process). */
export const SPARE_IDLE_MS = 60_000;

/** One job's browser context: its own cookies and storage, its own network allowlist, its own observations. */
export interface BrowserSession {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly observations: PageObservations;
  /** What the session may reach: the allowlist it was opened with, less the pool's forbidden origins. */
  readonly allowlist: HostAllowlist;
  close(): Promise<void>;
}

export interface BrowserPool {
  openSession(allowlist: HostAllowlist): Promise<BrowserSession>;
  /**
   * Why this pool cannot give a run a browser now (its last launch or connection failed, or it is closed); undefined
   * when it can, including before its first launch (it launches on first use).
   */
  unready(): string | undefined;
  close(): Promise<void>;
}

/** A context with its page and its proxy grant, made before the run that will use it is known. */
interface Prepared {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  grant: EgressGrant;
}

/** `ws://host:port` of an endpoint, without what may be a credential (user info, path tokens, query). */
export function endpointForLogs(wsEndpoint: string): string {
  if (!URL.canParse(wsEndpoint)) return '(not a URL)';
  const { protocol, host } = new URL(wsEndpoint);
  return `${protocol}//${host}`;
}

/**
 * One browser per worker process, launched on first use (or, with `wsEndpoint`, connected to) and launched or
 * connected again if it goes away; one context per job. All of a context's traffic goes through the process's
 * egress proxy with that context's allowlist.
 *
 * While runs keep coming, the pool keeps one context ready for the next run: a new context's first page starts a
 * renderer process (0.2–0.3 s), which then happens while the current run is still going. A context only ever
 * serves one run; an unused one is closed after SPARE_IDLE_MS.
 */
export function createBrowserPool(config: BrowserConfig, logger: Logger, telemetry: Telemetry = NO_TELEMETRY): BrowserPool {
  let browser: Promise<Browser> | undefined;
  let proxy: Promise<EgressProxy> | undefined;
  let spare: Promise<Prepared | undefined> | undefined;
  let spareTimer: NodeJS.Timeout | undefined;
  let closed = false;
  /** Why the last launch (or connection) failed, until one succeeds. */
  let failure: string | undefined;
  const remote = config.wsEndpoint !== undefined;
  const forbidden = createForbiddenOrigins(config.forbiddenOrigins ?? []);

  function start(): Promise<Browser> {
    const starting = remote ? connect(config.wsEndpoint!) : launch();
    starting.then(
      (started) => {
        failure = undefined;
        telemetry.browserLaunch('ok');
        started.on('disconnected', () => {
          if (browser === starting) browser = undefined;
          if (!closed) logger.warn(remote ? 'remote browser disconnected; the next run connects again' : 'browser disconnected; the next run launches a new one');
        });
      },
      (error: unknown) => {
        failure = error instanceof Error ? error.message : String(error);
        telemetry.browserLaunch('failed');
        if (browser === starting) browser = undefined;
      },
    );
    return starting;
  }

  function launch(): Promise<Browser> {
    // Playwright closes a browser it launched when the process gets SIGTERM, SIGINT or SIGHUP; the worker's own
    // shutdown lets running jobs finish first (SHUTDOWN_GRACE_MS), and they need the browser until then.
    const signals = { handleSIGTERM: false, handleSIGINT: false, handleSIGHUP: false };
    return playwrightChromium()
      .then((chromium) => chromium.launch({ executablePath: config.executablePath, args: CHROMIUM_ARGS, ...signals }))
      .catch((error: unknown) => {
        logger.error({ err: error, executablePath: config.executablePath }, 'could not launch the browser');
        throw operationalError(ErrorCode.BrowserUnavailable, 'The browser could not be started on the worker');
      });
  }

  function connect(wsEndpoint: string): Promise<Browser> {
    const shown = endpointForLogs(wsEndpoint);
    return playwrightChromium()
      .then((chromium) => chromium.connect(wsEndpoint, { timeout: CONNECT_TIMEOUT_MS }))
      .catch((error: unknown) => {
        // Playwright's message quotes the endpoint in its call log, credentials and all: every ws URL is cut to its host.
        const reason = (error instanceof Error ? error.message : String(error)).replace(/(wss?:\/\/)(?:[^\s/?#@]*@)?([^\s/?#]+)\S*/gi, '$1$2');
        logger.error({ reason, endpoint: shown }, 'could not connect to the remote browser');
        throw operationalError(ErrorCode.BrowserUnavailable, `The remote browser at ${shown} (BROWSER_WS_ENDPOINT) could not be reached`);
      });
  }

  async function prepare(): Promise<Prepared> {
    proxy ??= startEgressProxy(logger, config.egressProxyHost, forbidden);
    browser ??= start();
    const starting = browser;
    let current = await starting;
    if (!current.isConnected()) {
      // Gone, and its 'disconnected' event not seen yet.
      if (browser === starting) browser = undefined;
      browser ??= start();
      current = await browser;
    }
    // Until a run takes a prepared context, its grant lets nothing through.
    const grant = await (await proxy).grant(NOTHING_ALLOWED, () => undefined);
    try {
      const context = await current.newContext({ proxy: grant.proxy, serviceWorkers: 'block', acceptDownloads: false });
      telemetry.browserContexts(1);
      context.once('close', () => telemetry.browserContexts(-1));
      try {
        return { browser: current, context, page: await context.newPage(), grant };
      } catch (error) {
        await context.close().catch(() => undefined);
        throw error;
      }
    } catch (error) {
      grant.revoke();
      throw error;
    }
  }

  async function discard(prepared: Prepared | undefined): Promise<void> {
    if (!prepared) return;
    prepared.grant.revoke();
    await prepared.context.close().catch(() => undefined);
  }

  /** The context kept ready, if it is still usable (its browser may have gone since). */
  async function takeSpare(): Promise<Prepared | undefined> {
    const taken = spare;
    spare = undefined;
    clearTimeout(spareTimer);
    const prepared = await taken;
    if (prepared && prepared.browser.isConnected() && !prepared.page.isClosed()) return prepared;
    await discard(prepared);
    return undefined;
  }

  function prepareSpare(): void {
    if (closed) return;
    const preparing = prepare().catch((error: unknown) => {
      logger.debug({ err: error }, 'could not prepare a context for the next run');
      return undefined;
    });
    spare = preparing;
    clearTimeout(spareTimer);
    spareTimer = setTimeout(() => {
      if (spare !== preparing) return;
      spare = undefined;
      void preparing.then(discard);
    }, SPARE_IDLE_MS);
    spareTimer.unref();
  }

  return {
    async openSession(requested) {
      const allowlist = withoutForbidden(requested, forbidden);
      if (closed) throw operationalError(ErrorCode.BrowserUnavailable, "This worker's browser pool is closed: the worker is stopping, and the run is tried again by another worker.");
      const prepared = (await takeSpare()) ?? (await prepare());
      // The next run's context starts now, while this one runs.
      prepareSpare();
      const { context, page, grant } = prepared;
      const observations = emptyObservations();
      grant.assign(allowlist, (block) => recordBlocked(observations, block));
      context.setDefaultTimeout(config.navigationTimeoutMs);
      context.setDefaultNavigationTimeout(config.navigationTimeoutMs);
      observeContext(context, observations, allowlist);
      return {
        context,
        page,
        observations,
        allowlist,
        async close() {
          try {
            await context.close();
          } finally {
            grant.revoke();
          }
        },
      };
    },

    unready() {
      if (closed) return 'the browser pool is closed';
      return failure;
    },

    async close() {
      closed = true;
      clearTimeout(spareTimer);
      await discard(await spare);
      spare = undefined;
      const started = await browser?.catch(() => undefined);
      await started?.close();
      await (await proxy?.catch(() => undefined))?.close();
    },
  };
}
