/**
 * Builds the dashboard, then starts the service of the dashboard's tests (serve.ts) in a child process once for the whole run, and publishes
 * what it printed in QA_WEB_SERVICE (Playwright passes the global setup's environment to its workers). The returned
 * function is the teardown: SIGTERM, then SIGKILL if it has not stopped in 20 s.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const ROOT = new URL('../../../', import.meta.url).pathname;

export default async function globalSetup(): Promise<() => Promise<void>> {
  // The pages under test are the current web/ (a few seconds); QA_WEB_SKIP_BUILD=1 tests dist/web as it is.
  if (!process.env.QA_WEB_SKIP_BUILD) execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/web/support/serve.ts'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const info = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the dashboard test service did not start in 120 s')), 120_000);
    child.once('exit', (code) => reject(new Error(`the dashboard test service exited with ${code} before it was ready`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('READY ')) {
        clearTimeout(timer);
        resolve(line.slice('READY '.length));
      } else process.stdout.write(`[service] ${line}\n`);
    });
  });
  process.env.QA_WEB_SERVICE = info;
  return async () => {
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(killer);
  };
}
