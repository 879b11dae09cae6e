/**
 * The dashboard's end-to-end tests (test/web/, issue 27): real Chromium (Debian's, as the service's workers use)
 * against the real service, its worker and the fake identity provider, all started once by the global setup. One
 * worker: the tests share one service, one browser and the fake provider's "who signs in next".
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'test/web',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/web/support/global-setup.ts',
  workers: 1,
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  forbidOnly: true,
  retries: 0,
  reporter: process.env.CI ? [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ?? 'test-results/web.json' }]] : [['list']],
  outputDir: 'test-results/web',
  use: {
    browserName: 'chromium',
    launchOptions: {
      // Debian's headless shell: what Playwright itself runs for headless Chromium, and what the service's workers
      // run. The full browser (QA_WEB_CHROMIUM=/usr/bin/chromium) renders the same pages at much more CPU: with it
      // the 20 tests took 118 s and 174 s of CPU on the 2-core machine, with the shell 84 s and 104 s.
      executablePath: process.env.QA_WEB_CHROMIUM ?? '/usr/bin/chromium-headless-shell',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
