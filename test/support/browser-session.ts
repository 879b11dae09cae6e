/**
 * A browser pool as the worker opens it, and a fresh session (its own context and page) before every test of a
 * describe block, for tests that drive one page through the runner directly. `origin` is the one origin the
 * session's allowlist lets through (read when each session opens, so it may come from a site started in the block).
 */
import { afterAll, beforeAll, beforeEach } from '@jest/globals';
import { createBrowserPool, type BrowserPool, type BrowserSession } from '../../src/browser/browser-pool.js';
import { createHostAllowlist } from '../../src/browser/host-allowlist.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../src/config.js';
import { silentLogger } from './logger.js';

export function useBrowserSession(origin: () => string): () => BrowserSession {
  let browsers: BrowserPool | undefined;
  let session: BrowserSession | undefined;
  beforeAll(() => {
    browsers = createBrowserPool({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000 }, silentLogger());
  });
  afterAll(async () => {
    await session?.close();
    await browsers?.close();
  });
  beforeEach(async () => {
    await session?.close();
    session = await browsers!.openSession(createHostAllowlist(origin(), []));
  });
  return () => session!;
}
