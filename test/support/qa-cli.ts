import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { CONFIG_VARIABLES as SCHEMA_VARIABLES } from '../../src/config.js';

/** Every variable src/config.ts reads: none leaks from the test's own environment into a spawned `qa`. */
export const CONFIG_VARIABLES: readonly string[] = SCHEMA_VARIABLES;

export interface QaRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface QaProcess {
  child: ChildProcess;
  /** What it has written so far (filled in as it runs). */
  run: QaRun;
  exited: Promise<QaRun>;
}

/** The compiled CLI, as `npm start` runs it; Jest's global setup (test/support/global-setup.ts) builds it first. */
export const QA_ENTRY = 'dist/src/cli/main.js';

/** The real `qa` process, compiled (stdout and stderr are pipes), with only `env` configured. */
export function spawnQa(args: string[], env: Record<string, string>): QaProcess {
  const inherited = { ...process.env };
  for (const name of [...CONFIG_VARIABLES, 'NODE_OPTIONS']) delete inherited[name];
  const child = spawn(process.execPath, [QA_ENTRY, ...args], {
    // METRICS_PORT 0: a worker's metrics port is any free one, so that workers spawned at once do not clash on 9464.
    env: { ...inherited, LOG_FORMAT: 'json', METRICS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run: QaRun = { code: null, stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk: Buffer) => (run.stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (run.stderr += chunk.toString()));
  const exited = new Promise<QaRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ ...run, code }));
  });
  return { child, run, exited };
}

export const qa = (args: string[], env: Record<string, string>): Promise<QaRun> => spawnQa(args, env).exited;

export async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A loopback port nothing listens on (at the time of asking). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
