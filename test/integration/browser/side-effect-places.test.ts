/**
 * The run-time guard reads where a control is on the live page, not only its words (issue 28): "Remove" in a shop
 * with a cart takes an item out of the cart again and acts; the same "Remove" on an admin page without one acts
 * only behind the write fence, which stops the DELETE it sends; "Finish" is harmless anywhere but at a checkout,
 * where it places the order and is stopped. A control that submits a form that writes is decided by its words and
 * its form before it is clicked; a link navigates (its words raise the fence for what follows); a page with a
 * WebSocket open is decided by the words alone.
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
import { WebSocketServer } from 'ws';
import { silentLogger } from '../../support/logger.js';

/** Each page's first button writes "done" into #status when clicked (after its own handler), so a test sees whether it acted. */
const page = (body: string, onClick = '') =>
  `<!doctype html><html><body>${body}<p id="status">idle</p><script>document.querySelector('button').addEventListener('click', async () => { ${onClick} document.getElementById('status').textContent = 'done'; });</script></body></html>`;
/** A page whose script opens a WebSocket to the fixture before anything is clicked (`#socket` says "open" once it is). */
const withSocket = (body: string) =>
  `<!doctype html><html><body>${body}<p id="socket">closed</p><p id="status">idle</p><script>const socket = new WebSocket(location.origin.replace('http', 'ws') + '/live'); socket.onopen = () => { document.getElementById('socket').textContent = 'open'; }; document.querySelector('button').addEventListener('click', () => { document.getElementById('status').textContent = 'done'; });</script></body></html>`;
const PAGES: Record<string, string> = {
  '/inventory.html': page('<header><a class="shopping_cart_link" href="/cart.html">Cart</a></header><h1>Products</h1><div class="item">Backpack <button>Remove</button></div>'),
  // An admin page's "Remove" deletes the user on the server, as such a button does: with a request, not a form.
  '/admin/users': page('<h1>Users</h1><table><tr><td>bob@example.com</td><td><button>Remove</button></td></tr></table>', "await fetch('/admin/users/bob', { method: 'DELETE' }).catch(() => undefined);"),
  // The Internet's Dynamic Controls: "Remove" takes a checkbox off the page, in a form it never submits (type=button).
  '/dynamic_controls': page('<h4>Dynamic Controls</h4><form id="checkbox-example"><div id="checkbox"><input type="checkbox"> A checkbox</div><button type="button">Remove</button></form>', "document.getElementById('checkbox').remove();"),
  // The same word on a button that submits a form that writes: words and form decide before anything is clicked.
  '/saved-items': page('<h1>Saved items</h1><form method="post" action="/saved-items/7"><p>Blue mug</p><button>Remove</button></form>'),
  '/checkout-step-two.html': page('<h1>Checkout: Overview</h1><p>Total: $32.39</p><button>Finish</button>'),
  '/tour': page('<h1>Welcome tour</h1><button>Finish</button>'),
  '/disappearing_elements': page('<h3>Disappearing Elements</h3><ul><li><a href="/">Home</a></li><li><a href="/contact-us/">Contact Us</a></li></ul><button hidden>unused</button>'),
  '/contact-us/': page('<h1>Contact us</h1><form method="post" action="/messages"><textarea name="body"></textarea><button>Send</button></form>'),
  // A "Delete account" link to a confirmation page whose button says only "Yes" and posts to an action that names nothing.
  '/account': page('<h1>Account</h1><a href="/account/delete">Delete account</a><button hidden>unused</button>'),
  '/account/delete': page('<h1>Delete your account?</h1><form method="post" action="/account"><button>Yes</button></form>'),
  '/live/users': withSocket('<h1>Users</h1><table><tr><td>bob@example.com</td><td><button>Remove</button></td></tr></table>'),
};
/** The requests that could write (any method but GET) that reached the server. */
const writes: string[] = [];

const click = (name: string): PlanStep => ({ action: 'click', description: `Click ${name}`, target: { by: 'role', role: 'button', name, exact: true } });
const clickLink = (name: string): PlanStep => ({ action: 'click', description: `Click ${name}`, target: { by: 'role', role: 'link', name, exact: true } });
const expectHeading = (text: string): PlanStep => ({ action: 'expectText', description: `Heading ${text}`, text, role: 'heading' });
const guardAllowing = (allowed: string[]): SideEffectGuard => ({ kindsNamedBy: kindsNamedByLabel, allowed });
const guard = guardAllowing([]);

describe('side-effect guard: where the control is on the page', () => {
  let server: Server;
  let sockets: WebSocketServer;
  let base: string;
  let browsers: BrowserPool;
  let session: BrowserSession;

  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://host.invalid').pathname;
      if (request.method !== 'GET') {
        writes.push(`${request.method} ${path}`);
        response.writeHead(303, { location: '/tour' }).end();
        return;
      }
      const body = PAGES[path];
      response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html' }).end(body ?? 'not found');
    });
    // A page's live socket (a LiveView's, a Blazor circuit's): held open, nothing sent.
    sockets = new WebSocketServer({ server, path: '/live' });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browsers = createBrowserPool({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000 }, silentLogger());
  });
  afterAll(async () => {
    await session?.close();
    await browsers.close();
    for (const client of sockets.clients) client.terminate();
    await new Promise((resolve) => sockets.close(resolve));
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(async () => {
    await session?.close();
    session = await browsers.openSession(createHostAllowlist(base, []));
    writes.length = 0;
  });

  const context = (sideEffects = guard): StepContext => ({ baseUrl: base, timeoutMs: 3_000, testValue: () => undefined, allowlist: session.allowlist, sideEffects });
  const status = () => session.page.locator('#status').textContent();

  it('lets "Remove" act in a shop with a cart: the item goes back out of the cart', async () => {
    await session.page.goto(`${base}/inventory.html`);
    const result = await runStep(session.page, click('Remove'), context());

    expect(result.status).toBe('passed');
    expect(await status()).toBe('done');
  });

  it('lets the same "Remove" act on a page with no cart, and stops the DELETE it sends before it reaches the server', async () => {
    await session.page.goto(`${base}/admin/users`);
    const result = await runStep(session.page, click('Remove'), context());

    expect(result).toMatchObject({ status: 'failed', kind: 'side_effect_blocked', message: expect.stringContaining(`(delete)`) });
    expect(result.status === 'failed' && result.message).toContain(`The page then sent DELETE ${base}/admin/users/bob, stopped in the browser`);
    expect(writes).toEqual([]);
  });

  it('lets a "Remove" outside any form that writes act when it sends nothing: the checkbox goes off the page', async () => {
    await session.page.goto(`${base}/dynamic_controls`);
    const result = await runStep(session.page, click('Remove'), context());

    expect(result.status).toBe('passed');
    expect([await status(), await session.page.locator('#checkbox').count()]).toEqual(['done', 0]);
  });

  it('stops a "Remove" that submits a form that writes before it is clicked', async () => {
    await session.page.goto(`${base}/saved-items`);
    const result = await runStep(session.page, click('Remove'), context());

    expect(result).toMatchObject({ status: 'failed', kind: 'side_effect_blocked', message: expect.stringContaining('Nothing was clicked') });
    expect([await status(), writes]).toEqual(['idle', []]);
  });

  it('follows a "Contact Us" link (navigation, not a submission), and stops the form it leads to unless an answer allowed sending', async () => {
    await session.page.goto(`${base}/disappearing_elements`);
    expect((await runStep(session.page, clickLink('Contact Us'), context())).status).toBe('passed');
    expect(new URL(session.page.url()).pathname).toBe('/contact-us/');
    // "Send" names a message, and submits a form that writes: words and form decide.
    expect(await runStep(session.page, click('Send'), context())).toMatchObject({ status: 'failed', kind: 'side_effect_blocked', message: expect.stringContaining('Nothing was clicked') });

    await session.page.goto(`${base}/disappearing_elements`);
    const allowing = guardAllowing(['message']);
    expect((await runStep(session.page, clickLink('Contact Us'), context(allowing))).status).toBe('passed');
    // The fence the link raised comes down: the control the run was told to use names what an answer allowed.
    expect((await runStep(session.page, click('Send'), context(allowing))).status).toBe('passed');
    expect(writes).toEqual(['POST /messages']);
  });

  it('follows a "Delete account" link to its confirmation page, and stops a "Yes" there whose form writes', async () => {
    await session.page.goto(`${base}/account`);
    expect((await runStep(session.page, clickLink('Delete account'), context())).status).toBe('passed');
    expect((await runStep(session.page, expectHeading('Delete your account?'), context())).status).toBe('passed');
    // Neither "Yes" nor the action /account names a side effect: the fence the link raised stops the POST.
    const result = await runStep(session.page, click('Yes'), context());

    expect(result).toMatchObject({ status: 'failed', kind: 'side_effect_blocked', message: expect.stringContaining(`after "Delete account"`) });
    expect(result.status === 'failed' && result.message).toContain(`POST ${base}/account`);
    expect(writes).toEqual([]);
  });

  it('decides by the words alone on a page with a WebSocket open, where a click can write unseen', async () => {
    await session.page.goto(`${base}/live/users`);
    await session.page.getByText('open', { exact: true }).waitFor();
    const result = await runStep(session.page, click('Remove'), context());

    expect(result).toMatchObject({ status: 'failed', kind: 'side_effect_blocked', message: expect.stringContaining('Nothing was clicked') });
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
