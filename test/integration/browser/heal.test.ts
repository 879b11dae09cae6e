import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createBrowserPool, type BrowserPool, type BrowserSession } from '../../../src/browser/browser-pool.js';
import { healTarget, recordTarget, runStepWithHealing } from '../../../src/browser/heal.js';
import { createHostAllowlist } from '../../../src/browser/host-allowlist.js';
import { resolveTarget } from '../../../src/browser/locate.js';
import type { ResolvedLocator } from '../../../src/core/check.js';
import type { HealingRecord } from '../../../src/core/healing.js';
import { createScrubber } from '../../../src/core/secrets.js';
import type { PlanStep, Target } from '../../../src/core/plan.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../../src/config.js';
import { DEFAULT_ACCOUNT, startDemoApp, type DemoApp, type MarkupVariant } from '../../fixtures/demo-app/index.js';
import { silentLogger } from '../../support/logger.js';

/** A button found by part of its name ("Desk Lamp" in "Add Desk Lamp to cart"), and "SAVE10 into Coupon". */
const LAMP: Target = { by: 'role', role: 'button', name: 'Desk Lamp', exact: false };
const COUPON: Target = { by: 'label', name: 'Coupon', exact: false };

/**
 * Issue 13, part 4, in real Chromium on the demo shop: a target recorded on the original markup, then the markup
 * switched (markup.ts) and the stored locator asked again. Each change a redeploy makes heals on agreeing evidence;
 * the changes where the evidence disagrees, points at another kind of element or is only the page structure do not.
 */
describe('healing a stored locator on changed demo-shop markup', () => {
  let demo: DemoApp;
  let browsers: BrowserPool;
  let session: BrowserSession;

  beforeAll(async () => {
    demo = await startDemoApp();
    browsers = createBrowserPool({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000 }, silentLogger());
    session = await browsers.openSession(createHostAllowlist(demo.url, []));
    const { page } = session;
    await page.goto(`${demo.url}/login`);
    await page.getByLabel('Email').fill(DEFAULT_ACCOUNT.email);
    await page.getByLabel('Password').fill(DEFAULT_ACCOUNT.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/products');
    // A line in the cart, so that /cart shows the coupon field.
    await page.getByRole('button', { name: 'Add Notebook to cart' }).click();
    await page.waitForURL('**/products?added=notebook');
  });
  afterAll(async () => {
    await session?.close();
    await browsers?.close();
    await demo?.close();
  });
  beforeEach(() => demo.setMarkup('original'));

  /** Resolves the target as a compiling run does, and records it. */
  async function compile(path: string, action: PlanStep['action'], target: Target): Promise<{ locator: ResolvedLocator; record: HealingRecord }> {
    await session.page.goto(`${demo.url}${path}`);
    const resolution = await resolveTarget(session.page, action, target, 3_000);
    if (!resolution.found) throw new Error(`the original markup has no ${target.name}`);
    return { locator: resolution.locator, record: await recordTarget(session.page, resolution.element) };
  }

  async function replay(path: string, variant: MarkupVariant, compiled: { locator: ResolvedLocator; record: HealingRecord }) {
    demo.setMarkup(variant);
    await session.page.goto(`${demo.url}${path}`);
    return healTarget(session.page, compiled.locator, compiled.record);
  }

  it('records the element and every independent way that found it alone', async () => {
    const lamp = await compile('/products', 'click', LAMP);
    expect(lamp.locator).toEqual({ strategy: 'role', role: 'button', name: 'Desk Lamp', exact: false });
    expect(lamp.record.element).toEqual({ tag: 'button', role: 'button', name: 'Add Desk Lamp to cart', text: 'Add Desk Lamp to cart' });
    expect(lamp.record.alternatives).toEqual([
      { strategy: 'role', role: 'button', value: 'Add Desk Lamp to cart' },
      { strategy: 'testId', value: 'add-desk-lamp' },
      { strategy: 'text', value: 'Add Desk Lamp to cart' },
      { strategy: 'css', value: 'main > ul > li.product:nth-of-type(3) > form > button.add-to-cart' },
    ]);
    const coupon = await compile('/cart', 'fill', COUPON);
    expect(coupon.record.element).toEqual({ tag: 'input', role: 'textbox', name: 'Coupon', text: '', type: 'text', placeholder: 'Enter a code' });
    expect(coupon.record.alternatives.map((alternative) => alternative.strategy)).toEqual(['role', 'label', 'placeholder', 'testId', 'css']);
  });

  it.each([
    ['reworded', ['testId "add-desk-lamp"', 'css']],
    ['restyled', ['testId "add-desk-lamp"']],
    ['moved', ['testId "add-desk-lamp"']],
  ] as const)('heals the Desk Lamp button on %s markup, on the agreeing evidence', async (variant, agreeing) => {
    const lamp = await compile('/products', 'click', LAMP);
    const healed = await replay('/products', variant, lamp);
    if (!healed.healed) throw new Error(`not healed: ${healed.reason}`);
    expect(healed.locator).toEqual({ strategy: 'role', role: 'button', name: 'Add the lamp to cart', exact: true });
    expect(healed.element).toMatchObject({ tag: 'button', role: 'button', name: 'Add the lamp to cart' });
    expect(healed.agreeing.map((alternative) => (alternative.strategy === 'css' ? 'css' : `${alternative.strategy} ${JSON.stringify(alternative.value)}`))).toEqual(agreeing);
    // The proposed locator finds exactly the Desk Lamp's button on the changed page.
    const button = session.page.getByRole('button', { name: 'Add the lamp to cart', exact: true });
    expect(await button.count()).toBe(1);
    expect(await button.evaluate((node) => (node as unknown as { closest(s: string): { textContent: string } }).closest('li').textContent)).toContain('Desk Lamp');
  });

  it('heals the Coupon field relabelled "Promo code" with a new test id, by its placeholder and id', async () => {
    const coupon = await compile('/cart', 'fill', COUPON);
    const healed = await replay('/cart', 'relabeled', coupon);
    if (!healed.healed) throw new Error(`not healed: ${healed.reason}`);
    expect(healed.locator).toEqual({ strategy: 'label', name: 'Promo code', exact: true });
    expect(healed.agreeing).toEqual([{ strategy: 'placeholder', value: 'Enter a code' }, { strategy: 'css', value: '#coupon' }]);
  });

  it('does not heal when the test id and the CSS path point at different buttons', async () => {
    const lamp = await compile('/products', 'click', LAMP);
    const refused = await replay('/products', 'swapped', lamp);
    expect(refused).toEqual({ healed: false, reason: expect.stringMatching(/^the other recorded ways to find it disagree \(testId "add-desk-lamp" finds element 1, css .* finds element 2\)$/) });
  });

  it('does not heal when the element the evidence points at is another kind of thing', async () => {
    const lamp = await compile('/products', 'click', LAMP);
    const refused = await replay('/products', 'replaced', lamp);
    expect(refused).toEqual({ healed: false, reason: 'the element they agree on no longer looks like the recorded one (was button "Add Desk Lamp to cart", now link "Desk Lamp details")' });
  });

  it('does not heal on the page structure alone (a reordered list puts another product in the old place)', async () => {
    const lamp = await compile('/products', 'click', LAMP);
    const refused = await replay('/products', 'reordered', lamp);
    expect(refused).toEqual({ healed: false, reason: 'only its CSS path still matches, and the page structure alone is no evidence' });
  });

  it('keeps no record of a target that shows a secret value (a check never stores one)', async () => {
    await session.page.goto(`${demo.url}/products`);
    const step: PlanStep = { action: 'waitFor', description: 'Wait for the signed-in line', target: { by: 'text', name: 'Signed in as', exact: false } };
    const context = { baseUrl: demo.url, timeoutMs: 3_000, testValue: () => undefined, allowlist: session.allowlist };
    const storableWith = (secrets: string[]) => {
      const scrubber = createScrubber(secrets);
      return (value: object) => JSON.stringify(scrubber.value(value)) === JSON.stringify(value);
    };
    const withSecret = await runStepWithHealing(session.page, { step }, context, { record: true, storable: storableWith([DEFAULT_ACCOUNT.email]) });
    expect([withSecret.status, withSecret.healing]).toEqual(['passed', undefined]);
    const without = await runStepWithHealing(session.page, { step }, context, { record: true, storable: storableWith([]) });
    expect(without.healing?.element.text).toBe(`Signed in as ${DEFAULT_ACCOUNT.email}`);
  });

  it('leaves a stored locator that still finds its target alone', async () => {
    const lamp = await compile('/products', 'click', LAMP);
    const untouched = await replay('/products', 'relabeled', lamp);
    expect(untouched).toEqual({ healed: false, reason: 'the stored locator matches 1 element, and only a target that is gone is healed' });
  });
});
