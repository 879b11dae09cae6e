/**
 * The baseline for bench:runs' throughput: the same six steps on the demo shop done by Playwright alone, with no
 * service around them (no queue, database, trace, screenshots, audits or egress proxy), a new context per job as the
 * service makes, in the browser the service launches (same executable, same flags). How much concurrency 2 adds
 * over concurrency 1 here is how much this machine's cores let a browser add; the service cannot scale better than
 * the browser it drives.
 */
import { chromium, type Browser } from 'playwright';
import { CHROMIUM_ARGS } from '../../src/browser/browser-pool.js';
import { cpuBetween, sampleCpu, type CpuUse } from './cpu.js';

export interface BareLevel {
  concurrency: number;
  jobs: number;
  perMinute: number;
  cpu: CpuUse;
}

export interface BareAccount {
  email: string;
  password: string;
}

/** Open the home page, open /login, fill both fields, sign in (lands on /products), check a text: bench:runs' task. */
export async function signInJob(browser: Browser, baseUrl: string, account: BareAccount): Promise<void> {
  const context = await browser.newContext({ serviceWorkers: 'block', acceptDownloads: false });
  try {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`, { waitUntil: 'load' });
    await page.goto(`${baseUrl}/login`, { waitUntil: 'load' });
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForLoadState('load');
    const text = await page.locator('body').innerText();
    if (!text.includes('Desk Lamp')) throw new Error(`bare Playwright: the products page does not show "Desk Lamp" (at ${page.url()})`);
  } finally {
    await context.close();
  }
}

/** `jobs` sign-in jobs with `concurrency` of them at a time, after `concurrency` warm-up jobs. */
async function level(browser: Browser, baseUrl: string, account: BareAccount, concurrency: number, jobs: number): Promise<BareLevel> {
  await Promise.all(Array.from({ length: concurrency }, () => signInJob(browser, baseUrl, account)));
  let left = jobs;
  const before = sampleCpu();
  const began = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left > 0) {
        left -= 1;
        await signInJob(browser, baseUrl, account);
      }
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  return { concurrency, jobs, perMinute: (jobs / seconds) * 60, cpu: cpuBetween(before, sampleCpu()) };
}

/** The browser bare Playwright drives: the service's executable, with the service's flags. */
export function launchBare(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}

/**
 * One round: each level in turn (bench:runs runs rounds of these between its own and takes the median). Each level
 * in a browser of its own, warmed with `concurrency` jobs, as bench:runs measures the service: a fresh worker (and
 * browser) per level. In one browser for all levels, the later levels ran in a browser dozens of jobs warmer than
 * the service's, and a fresh browser's first jobs cost it more CPU.
 */
export async function barePlaywrightThroughput(options: {
  executablePath: string;
  baseUrl: string;
  account: BareAccount;
  levels: readonly number[];
  jobs: number;
}): Promise<BareLevel[]> {
  const levels: BareLevel[] = [];
  for (const concurrency of options.levels) {
    const browser = await launchBare(options.executablePath);
    try {
      levels.push(await level(browser, options.baseUrl, options.account, concurrency, options.jobs));
    } finally {
      await browser.close();
    }
  }
  return levels;
}
