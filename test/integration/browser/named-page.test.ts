/**
 * A page named in a task ("you are back on the login page") is there when the URL has its guessed path or the page
 * shows its name: in its title, its text, or the label of an input button, which the page's text leaves out.
 */
import { describe, expect, it } from '@jest/globals';
import { runStep, type StepResult } from '../../../src/browser/step-runner.js';
import { stepSchema } from '../../../src/core/plan.js';
import { useBrowserSession } from '../../support/browser-session.js';

describe('being on a named page in Chromium', () => {

  const current = useBrowserSession(() => 'http://127.0.0.1:9');

  async function onLoginPage(html: string): Promise<StepResult> {
    await current().page.setContent(html);
    const step = stepSchema.parse({ action: 'expectUrl', description: 'Expect to be on the login page', contains: '/login', page: 'login' });
    return runStep(current().page, step, { baseUrl: 'http://127.0.0.1:9', timeoutMs: 500, testValue: () => undefined, allowlist: current().allowlist });
  }

  it('reads the label of a submit input as something the page shows', async () => {
    expect(await onLoginPage('<form><input placeholder="Username"><input type="password"><input type="submit" value="Login"></form>')).toMatchObject({ status: 'passed' });
  });

  it('still fails a page that shows the name nowhere, nor in a hidden input button', async () => {
    const result = await onLoginPage('<h1>Products</h1><input type="submit" value="Login" hidden><input type="hidden" value="login">');
    expect(result).toMatchObject({ status: 'failed', kind: 'assertion_failed' });
  });
});
