/**
 * Healing benchmark: what recording and healing cost per step, against bare Playwright finding the same element.
 *
 *   npx tsx bench/healing.bench.ts
 *
 * On the demo shop's products page, signed in, with a warm browser: BENCH_ROUNDS (50) times each of
 * - bare: `page.getByRole('button', { name: 'Desk Lamp' })` counted, as a bare Playwright step finds its target;
 * - resolve: the runner's resolution of "the Desk Lamp button" (src/browser/locate.ts);
 * - record: what a natural-language run adds per step with a target (src/browser/heal.ts `recordTarget`);
 * - heal: a replay's healing after the markup changed (`reworded`), paid only when a stored locator found nothing.
 * It prints p50 and p90 in ms and record ÷ bare; it asserts nothing (speed is not a test).
 */
import pino from 'pino';
import { createBrowserPool } from '../src/browser/browser-pool.js';
import { healTarget, recordTarget } from '../src/browser/heal.js';
import { createHostAllowlist } from '../src/browser/host-allowlist.js';
import { resolveTarget } from '../src/browser/locate.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../src/config.js';
import { DEFAULT_ACCOUNT, startDemoApp } from '../test/fixtures/demo-app/index.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 50);
const demo = await startDemoApp();
const browsers = createBrowserPool({ executablePath: process.env.BROWSER_EXECUTABLE_PATH ?? DEFAULT_BROWSER_EXECUTABLE_PATH, navigationTimeoutMs: 10_000 }, pino({ level: 'silent' }));
const session = await browsers.openSession(createHostAllowlist(demo.url, []));
const { page } = session;
try {
  await page.goto(`${demo.url}/login`);
  await page.getByLabel('Email').fill(DEFAULT_ACCOUNT.email);
  await page.getByLabel('Password').fill(DEFAULT_ACCOUNT.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/products');

  const timed = async (work: () => Promise<unknown>): Promise<number[]> => {
    const times: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const started = performance.now();
      await work();
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b);
  };
  const at = (times: number[], q: number) => times[Math.min(times.length - 1, Math.floor(times.length * q))]!;
  const target = { by: 'role' as const, role: 'button', name: 'Desk Lamp', exact: false };

  const bare = await timed(() => page.getByRole('button', { name: 'Desk Lamp' }).count());
  const resolve = await timed(() => resolveTarget(page, 'click', target, 3_000));
  const resolution = await resolveTarget(page, 'click', target, 3_000);
  if (!resolution.found) throw new Error('the demo shop has no Desk Lamp button');
  const record = await timed(() => recordTarget(page, resolution.element));
  const recorded = await recordTarget(page, resolution.element);
  demo.setMarkup('reworded');
  await page.reload();
  const heal = await timed(async () => {
    const attempt = await healTarget(page, resolution.locator, recorded);
    if (!attempt.healed) throw new Error(`not healed: ${attempt.reason}`);
  });
  const row = (name: string, times: number[]) => `${name.padEnd(8)} p50 ${at(times, 0.5).toFixed(1).padStart(6)} ms   p90 ${at(times, 0.9).toFixed(1).padStart(6)} ms`;
  console.log(`healing bench, ${ROUNDS} rounds each`);
  for (const [name, times] of [['bare', bare], ['resolve', resolve], ['record', record], ['heal', heal]] as const) console.log(row(name, times));
  console.log(`record ÷ bare (p50): ${(at(record, 0.5) / at(bare, 0.5)).toFixed(1)}x`);
} finally {
  await session.close();
  await browsers.close();
  await demo.close();
}
