/**
 * Discovery end to end on faithful copies of two public demo apps: the crawl in real Chromium, joined with an index
 * as the indexer gives it, named into flows whose every task the rule planner plans as written (and asks first only
 * where the flow has a real side effect).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createBrowserPool, type BrowserPool } from '../../../src/browser/browser-pool.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../../src/config.js';
import { crawlSite, type CrawlResult } from '../../../src/onboarding/discover/crawl-site.js';
import { discoverFlows } from '../../../src/onboarding/discover/discover-flows.js';
import type { DiscoveredFlow } from '../../../src/onboarding/model.js';
import { startSauceDemo, type SauceDemoApp } from '../../fixtures/sauce-demo/index.js';
import { startTheInternet, type TheInternetApp } from '../../fixtures/the-internet/index.js';
import { silentLogger } from '../../support/logger.js';
import { byKey, field, index, plannerVerdicts, route } from '../../unit/onboarding/discover-support.js';

const LIMITS = { maxPages: 60, maxDepth: 2, timeoutMs: 120_000, pageTimeoutMs: 5_000 };

describe('discovery on demo apps', () => {
  let browsers: BrowserPool;
  let sauce: SauceDemoApp;
  let internet: TheInternetApp;
  const deps = () => ({ browsers, logger: silentLogger(), now: () => performance.now() });

  beforeAll(async () => {
    browsers = createBrowserPool({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000 }, silentLogger());
    sauce = await startSauceDemo();
    internet = await startTheInternet();
  });
  afterAll(async () => {
    await browsers?.close();
    await sauce?.close();
    await internet?.close();
  });

  describe('Swag Labs, crawled signed out and joined with its routes', () => {
    // The routes of the app as an indexer reads its pages (test/fixtures/sauce-demo/pages.ts).
    const shopIndex = index([
      route('/', ['pages.ts#login'], { framework: 'html' }),
      route('/inventory.html', ['pages.ts#inventory', 'client/cart.ts'], { framework: 'html', testIds: ['add-to-cart-sauce-labs-backpack', 'add-to-cart-sauce-labs-bike-light', 'shopping-cart-link'] }),
      route('/cart.html', ['pages.ts#cart', 'client/cart.ts'], { framework: 'html', testIds: ['checkout', 'continue-shopping'] }),
      route('/checkout-step-one.html', ['pages.ts#checkoutStepOne'], {
        framework: 'html',
        forms: [{ file: 'pages.ts', action: null, method: 'GET', fields: [field('First Name'), field('Last Name'), field('Zip/Postal Code')], submitLabel: 'Continue' }],
      }),
    ]);
    let crawl: CrawlResult;
    let flows: DiscoveredFlow[];
    beforeAll(async () => {
      crawl = await crawlSite(deps(), { baseUrl: sauce.url, networkAllowlist: [], limits: LIMITS, seeds: shopIndex.routes.map((each) => each.path) });
      flows = discoverFlows({ index: shopIndex, pages: crawl.pages });
    });

    it('sees the sign-in page, and every other page answering with it', () => {
      expect(crawl.pages.map((page) => [page.path, page.title])).toEqual(expect.arrayContaining([['/', 'Swag Labs'], ['/inventory.html', 'Swag Labs'], ['/cart.html', 'Swag Labs']]));
      expect(crawl.pages.find((page) => page.path === '/')!.forms[0]).toEqual({
        fields: [
          { name: 'user-name', label: 'Username', type: 'text', required: false },
          { name: 'password', label: 'Password', type: 'password', required: false },
        ],
        submitLabel: 'Login',
        method: 'GET',
        action: null,
      });
    });

    it('names sign in, adding a product and checkout, signing in first where the page needs it', () => {
      expect(flows.slice(0, 3).map((flow) => flow.name)).toEqual(['Sign in', 'Checkout', 'Add a product to the cart']);
      expect(byKey(flows, 'sign-in-home').origin).toBe('both');
      expect(byKey(flows, 'add-to-cart-inventory-html').steps.slice(0, 3)).toEqual(['Open /.', 'Sign in.', 'Open /inventory.html.']);
      expect(byKey(flows, 'add-to-cart-inventory-html').edgeCases.map((edge) => edge.kind)).toEqual(['signed_out_access']);
      expect(byKey(flows, 'sign-in-home').edgeCases.map((edge) => edge.kind)).toEqual(['required_empty', 'required_empty', 'wrong_credentials']);
    });

    it('writes tasks the rule planner plans, none asking first: the checkout flow stops at the overview, short of the order (issue 28)', () => {
      const verdicts = plannerVerdicts(flows);
      expect(verdicts.filter((each) => each.got !== each.expected)).toEqual([]);
      expect(flows.filter((flow) => flow.sideEffect !== null).map((flow) => flow.name)).toEqual([]);
      expect(flows.map((flow) => flow.name)).toContain('Checkout');
    });
  });

  describe('The Internet, crawled from its home page', () => {
    let crawl: CrawlResult;
    let flows: DiscoveredFlow[];
    beforeAll(async () => {
      crawl = await crawlSite(deps(), { baseUrl: internet.url, networkAllowlist: [], limits: LIMITS });
      flows = discoverFlows({ index: null, pages: crawl.pages });
    });

    it('reads the example pages and names the sign-in and the visits, all from the crawl', () => {
      expect(crawl.stoppedBy).toBe('done');
      expect(crawl.pages.map((page) => page.path)).toEqual(expect.arrayContaining(['/', '/login', '/checkboxes', '/dropdown']));
      expect(flows[0]).toMatchObject({ key: 'sign-in-login', name: 'Sign in', entryPath: '/login', origin: 'crawl', sideEffect: null });
      // Every page of the app is titled "The Internet": its visits go by their paths.
      expect(flows.map((flow) => flow.name)).toEqual(expect.arrayContaining(['Open the home page', 'Open /context_menu', 'Fill in the form on /checkboxes']));
      expect(byKey(flows, 'open-context-menu').task).toBe('Open /context_menu. Check that the URL contains "/context_menu".');
    });

    it('writes tasks the rule planner plans as written', () => {
      expect(plannerVerdicts(flows).filter((each) => each.got !== each.expected)).toEqual([]);
    });
  });
});
