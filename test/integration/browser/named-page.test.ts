/**
 * A page named in a task ("you are back on the login page") is there when the URL has its guessed path or the page
 * shows its name: in its title, its text, or the label of an input button, which the page's text leaves out.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createBrowserPool, type BrowserPool, type BrowserSession } from '../../../src/browser/browser-pool.js';
import { createHostAllowlist } from '../../../src/browser/host-allowlist.js';
import { runStep, type StepResult } from '../../../src/browser/step-runner.js';
import { stepSchema } from '../../../src/core/plan.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../../src/config.js';
import { silentLogger } from '../../support/logger.js';

describe('being on a named page in Chromium', () => {
  let browsers: BrowserPool;
  let session: BrowserSession;

  beforeAll(() => {
    browsers = createBrowserPool({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000 }, silentLogger());
  });
  afterAll(async () => {
    await session?.close();
    await browsers.close();
  });
  beforeEach(async () => {
    await session?.close();
    session = await browsers.openSession(createHostAllowlist('http://127.0.0.1:9', []));
  });

  async function onLoginPage(html: string): Promise<StepResult> {
    await session.page.setContent(html);
    const step = stepSchema.parse({ action: 'expectUrl', description: 'Expect to be on the login page', contains: '/login', page: 'login' });
    return runStep(session.page, step, { baseUrl: 'http://127.0.0.1:9', timeoutMs: 500, testValue: () => undefined, allowlist: session.allowlist });
  }

  it('reads the label of a submit input as something the page shows', async () => {
    expect(await onLoginPage('<form><input placeholder="Username"><input type="password"><input type="submit" value="Login"></form>')).toMatchObject({ status: 'passed' });
  });

  it('still fails a page that shows the name nowhere, nor in a hidden input button', async () => {
    const result = await onLoginPage('<h1>Products</h1><input type="submit" value="Login" hidden><input type="hidden" value="login">');
    expect(result).toMatchObject({ status: 'failed', kind: 'assertion_failed' });
  });
});
