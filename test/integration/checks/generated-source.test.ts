/**
 * The generated source of the demo shop's purchase, run with the real `playwright test` command and Chromium
 * against the demo shop over HTTPS, its evidence probe included (how the project is set up: ./playwright-project.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generatePlaywrightSource } from '../../../src/checks/generate-source.js';
import { DEFAULT_ACCOUNT, DEFAULT_PROBE_TOKEN, startDemoApp, type DemoApp } from '../../fixtures/demo-app/index.js';
import { createTestCertificates, type TestCertificates } from '../../fixtures/tls/test-certificates.js';
import { DEMO_SHOP_CHECK, DEMO_SHOP_REFS } from './demo-shop-check.js';
import { createPlaywrightProject, type PlaywrightProject } from './playwright-project.js';

const RUN_TIMEOUT_MS = 60_000;

describe('generated Playwright source of the demo shop purchase', () => {
  let certificates: TestCertificates;
  /** The app the check was compiled on. */
  let shop: DemoApp;
  /** The same shop where SAVE10 takes 20 % off: the total is $80, not $90. */
  let generousShop: DemoApp;
  let project: PlaywrightProject;

  /** The check's variables for a shop: the demo account, and the shop's own probe. */
  const variablesFor = (app: DemoApp): Record<string, string> => ({
    DEMO_EMAIL: DEFAULT_ACCOUNT.email,
    DEMO_PASSWORD: DEFAULT_ACCOUNT.password,
    PROBE_URL: `${app.url}/probe/orders?email=${encodeURIComponent(DEFAULT_ACCOUNT.email)}`,
    PROBE_TOKEN: DEFAULT_PROBE_TOKEN,
  });

  beforeAll(async () => {
    certificates = await createTestCertificates(['127.0.0.1']);
    const tls = { key: certificates.key, cert: certificates.cert };
    shop = await startDemoApp({ tls });
    generousShop = await startDemoApp({ tls, coupons: { SAVE10: 20 } });
    // 5 s per step rather than the default 10 s: the run that fails waits that long for the total it never sees.
    const source = generatePlaywrightSource({ name: 'Demo shop purchase', check: DEMO_SHOP_CHECK, baseUrl: shop.url, stepTimeoutMs: 5_000, ...DEMO_SHOP_REFS });
    project = await createPlaywrightProject({ 'demo-shop.spec.ts': source }, { serverCertificate: certificates.cert, ca: certificates.ca });
  });
  afterAll(async () => {
    await project?.remove();
    await Promise.all([shop?.close(), generousShop?.close()]);
    await certificates?.remove();
  });

  it(
    'passes against the app it was compiled on: signs in, uses the coupon, places the order the probe then finds',
    async () => {
      shop.reset();
      // No QA_BASE_URL: the file's default is the address it was compiled on.
      const outcome = await project.run(variablesFor(shop));

      expect(outcome).toMatchObject({ code: 0, stats: { expected: 1, unexpected: 0, skipped: 0 } });
      expect(outcome.output).toContain('1 passed');
      expect(shop.orders()).toEqual([expect.objectContaining({ email: DEFAULT_ACCOUNT.email, coupon: 'SAVE10', totalCents: 9_000 })]);
      // The secrets went in through the environment; Playwright's own output does not show them.
      expect(outcome.output).not.toContain(DEFAULT_ACCOUNT.password);
      expect(outcome.output).not.toContain(DEFAULT_PROBE_TOKEN);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'fails against a deployment (QA_BASE_URL) whose total differs, at the total expectation, before placing an order',
    async () => {
      generousShop.reset();
      const outcome = await project.run({ ...variablesFor(generousShop), QA_BASE_URL: generousShop.url });

      expect(outcome).toMatchObject({ code: 1, stats: { expected: 0, unexpected: 1 } });
      expect(outcome.output).toContain("Error: expect(locator).toContainText(expected) failed");
      expect(outcome.output).toMatch(/^\s*- Total: \$90$/m);
      expect(outcome.output).toMatch(/^\s*\+ Total: \$80$/m);
      // The code frame points at step 10 of the generated file, which waited its whole step timeout.
      expect(outcome.output).toContain('// 10. The total shows $90 (criterion total_shows_90)');
      expect(outcome.output).toContain('Timeout: 5000ms');
      expect(generousShop.orders()).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'fails when the probe finds no order, printing its evidence',
    async () => {
      shop.reset();
      // The run places its order on the shop, but the probe asks about someone else.
      const outcome = await project.run({ ...variablesFor(shop), PROBE_URL: `${shop.url}/probe/orders?email=nobody%40example.test` });

      expect(outcome).toMatchObject({ code: 1, stats: { expected: 0, unexpected: 1 } });
      expect(outcome.output).toContain('Evidence probe of order_created: No order for nobody@example.test');
      expect(shop.orders()).toHaveLength(1);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'refuses to start without its test values, naming the variables, before any step',
    async () => {
      shop.reset();
      const { DEMO_PASSWORD: _password, PROBE_TOKEN: _token, ...partial } = variablesFor(shop);
      const outcome = await project.run(partial);

      expect(outcome).toMatchObject({ code: 1, stats: { unexpected: 1 } });
      expect(outcome.output).toContain('Set the environment variable(s) DEMO_PASSWORD, PROBE_TOKEN');
      expect(shop.orders()).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );
});
