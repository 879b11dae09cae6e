/**
 * The run-time guard reads where a control is on the live page, not only its words (issue 28): "Remove" in a shop
 * with a cart takes an item out of the cart again and acts; the same "Remove" on an admin page without one deletes
 * and is stopped; "Finish" is harmless anywhere but at a checkout, where it places the order and is stopped.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createBrowserPool, type BrowserPool, type BrowserSession } from '../../../src/browser/browser-pool.js';
import { createHostAllowlist } from '../../../src/browser/host-allowlist.js';
import type { SideEffectGuard } from '../../../src/browser/side-effect-guard.js';
import { runStep, type StepContext } from '../../../src/browser/step-runner.js';
import type { PlanStep } from '../../../src/core/plan.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../../src/config.js';
import { kindsNamedByLabel } from '../../../src/planner/side-effect-floor.js';
import { silentLogger } from '../../support/logger.js';

/** Each page's one button writes "done" into #status when clicked, so a test sees whether the click happened. */
const page = (body: string) =>
  `<!doctype html><html><body>${body}<p id="status">idle</p><script>document.querySelector('button').addEventListener('click', () => { document.getElementById('status').textContent = 'done'; });</script></body></html>`;
const PAGES: Record<string, string> = {
  '/inventory.html': page('<header><a class="shopping_cart_link" href="/cart.html">Cart</a></header><h1>Products</h1><div class="item">Backpack <button>Remove</button></div>'),
  '/admin/users': page('<h1>Users</h1><table><tr><td>bob@example.com</td><td><button>Remove</button></td></tr></table>'),
  '/checkout-step-two.html': page('<h1>Checkout: Overview</h1><p>Total: $32.39</p><button>Finish</button>'),
  '/tour': page('<h1>Welcome tour</h1><button>Finish</button>'),
};

const click = (name: string): PlanStep => ({ action: 'click', description: `Click ${name}`, target: { by: 'role', role: 'button', name, exact: true } });
const guard: SideEffectGuard = { kindsNamedBy: kindsNamedByLabel, allowed: [] };

describe('side-effect guard: where the control is on the page', () => {
  let server: Server;
  let base: string;
  let browsers: BrowserPool;
  let session: BrowserSession;

  beforeAll(async () => {
    server = createServer((request, response) => {
      const body = PAGES[new URL(request.url ?? '/', 'http://host.invalid').pathname];
      response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html' }).end(body ?? 'not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browsers = createBrowserPool({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000 }, silentLogger());
  });
  afterAll(async () => {
    await session?.close();
    await browsers.close();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(async () => {
    await session?.close();
    session = await browsers.openSession(createHostAllowlist(base, []));
  });

  const context = (): StepContext => ({ baseUrl: base, timeoutMs: 3_000, testValue: () => undefined, allowlist: session.allowlist, sideEffects: guard });
  const status = () => session.page.locator('#status').textContent();

  it('lets "Remove" act in a shop with a cart: the item goes back out of the cart', async () => {
    await session.page.goto(`${base}/inventory.html`);
    const result = await runStep(session.page, click('Remove'), context());

    expect(result.status).toBe('passed');
    expect(await status()).toBe('done');
  });

  it('stops the same "Remove" on a page with no cart, where it deletes a user', async () => {
    await session.page.goto(`${base}/admin/users`);
    const result = await runStep(session.page, click('Remove'), context());

    expect(result).toMatchObject({ status: 'failed', kind: 'side_effect_blocked', message: expect.stringContaining('(delete)') });
    expect(await status()).toBe('idle');
  });

  it('stops "Finish" at a checkout, where it places the order, and lets it act anywhere else', async () => {
    await session.page.goto(`${base}/checkout-step-two.html`);
    expect(await runStep(session.page, click('Finish'), context())).toMatchObject({
      status: 'failed',
      kind: 'side_effect_blocked',
      message: expect.stringContaining('its name "Finish" at a checkout names a real side effect (purchase)'),
    });
    expect(await status()).toBe('idle');

    await session.page.goto(`${base}/tour`);
    expect((await runStep(session.page, click('Finish'), context())).status).toBe('passed');
    expect(await status()).toBe('done');
  });
});
