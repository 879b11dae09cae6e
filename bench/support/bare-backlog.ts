/**
 * The baseline for bench:soak: the soak's replay (sign in, a slow page, a text check; test/support/backlog.ts) done
 * by Playwright alone in the browser the service launches (same executable, same flags), a new context per job,
 * `concurrency` jobs at a time: what the machine gives when nothing but the browser works (no queue, database,
 * screenshots, audits, trace or egress proxy, no second process).
 */
import { chromium, type Browser } from 'playwright';
import { CHROMIUM_ARGS } from '../../src/browser/browser-pool.js';

export interface BareBacklog {
  jobs: number;
  concurrency: number;
  seconds: number;
  perMinute: number;
}

async function bareJob(browser: Browser, baseUrl: string, account: { email: string; password: string }, slowMs: number): Promise<void> {
  const context = await browser.newContext({ serviceWorkers: 'block', acceptDownloads: false });
  try {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/login`, { waitUntil: 'load' });
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/products/);
    await page.goto(`${baseUrl}/slow?ms=${slowMs}`, { waitUntil: 'load' });
    const text = await page.locator('body').innerText();
    if (!text.includes(`This page took ${slowMs} ms`)) throw new Error(`bare Playwright: the slow page says something else (at ${page.url()})`);
  } finally {
    await context.close();
  }
}

/** `jobs` jobs, `concurrency` at a time, after `concurrency` warm-up jobs. */
export async function bareBacklog(options: {
  executablePath: string;
  baseUrl: string;
  account: { email: string; password: string };
  slowMs: number;
  jobs: number;
  concurrency: number;
}): Promise<BareBacklog> {
  const browser = await chromium.launch({ executablePath: options.executablePath, args: CHROMIUM_ARGS });
  try {
    const job = () => bareJob(browser, options.baseUrl, options.account, options.slowMs);
    await Promise.all(Array.from({ length: options.concurrency }, job));
    let left = options.jobs;
    const began = performance.now();
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (left > 0) {
          left -= 1;
          await job();
        }
      }),
    );
    const seconds = (performance.now() - began) / 1000;
    return { jobs: options.jobs, concurrency: options.concurrency, seconds, perMinute: (options.jobs / seconds) * 60 };
  } finally {
    await browser.close();
  }
}
