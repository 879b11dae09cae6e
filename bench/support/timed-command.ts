/**
 * A command run under GNU time (`/usr/bin/time`), for a bench that compares whole CLI runs: its wall time from spawn
 * to exit, and its CPU (user + sys) with every descendant it waited for (Playwright's workers, their browsers, the
 * browsers' renderers), which /proc of a process that has exited can no longer tell.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const GNU_TIME = '/usr/bin/time';

export interface TimedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Spawn to exit, as this process saw it (ms). */
  wallMs: number;
  /** User and system CPU of the command and its waited-for descendants (seconds). */
  user: number;
  sys: number;
}

export function canTime(): boolean {
  return existsSync(GNU_TIME);
}

/** Runs `command args` in `cwd` with exactly `env`, under GNU time; its own output is captured, not printed. */
export async function runTimed(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<TimedRun> {
  const dir = await mkdtemp(join(tmpdir(), 'qa-bench-time-'));
  const out = join(dir, 'time.txt');
  try {
    const began = performance.now();
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(GNU_TIME, ['-o', out, '-f', '%U %S', command, ...args], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (exit) => resolve({ code: exit, stdout, stderr }));
    });
    const wallMs = performance.now() - began;
    // GNU time writes "Command exited with non-zero status N" before the format line when the command fails.
    const line = (await readFile(out, 'utf8')).trim().split('\n').at(-1) ?? '';
    const [user, sys] = line.split(' ').map(Number);
    if (!Number.isFinite(user) || !Number.isFinite(sys)) throw new Error(`GNU time wrote no CPU times for ${command}: "${line}"`);
    return { code, stdout, stderr, wallMs, user: user!, sys: sys! };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
