/**
 * The demo shop and a Chromium launched as the service's workers launch it (same executable, same flags), for the
 * tests of one file that drive pages directly: started before its tests, closed after them.
 */
import { afterAll, beforeAll } from '@jest/globals';
import { chromium, type Browser } from 'playwright';
import { CHROMIUM_ARGS } from '../../src/browser/browser-pool.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../src/config.js';
import { startDemoApp, type DemoApp } from '../fixtures/demo-app/index.js';

/** What axe says about the demo shop's /a11y page (its README): two critical rules, one serious, critical first. */
export const A11Y_TITLES = [
  'Accessibility (critical): Images must have alternative text on /a11y',
  'Accessibility (critical): Form elements must have labels on /a11y',
  'Accessibility (serious): Elements must meet minimum color contrast ratio thresholds on /a11y',
];

export function useDemoBrowser(): { demo: () => DemoApp; browser: () => Browser } {
  let demo: DemoApp | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    demo = await startDemoApp();
    browser = await chromium.launch({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.close();
  });
  return { demo: () => demo!, browser: () => browser! };
}
