/**
 * CPU affinity of this process (all its threads) on Linux, through util-linux's `taskset`. Processes started
 * afterwards (the browser, and the renderers its zygote forks) inherit it, so a level measured inside
 * `onCpus('0', …)` runs the worker and its browser on one core. Servers that were already running (the database)
 * keep theirs.
 */
import { execFileSync } from 'node:child_process';

function maskOf(pid: number): string {
  const out = execFileSync('taskset', ['-p', String(pid)], { encoding: 'utf8' });
  const mask = /affinity mask:\s*([0-9a-f,]+)/i.exec(out)?.[1];
  if (!mask) throw new Error(`taskset printed no affinity mask: ${out.trim()}`);
  return mask;
}

/** Whether `taskset` can be used here (Linux with util-linux). */
export function canPin(): boolean {
  try {
    maskOf(process.pid);
    return true;
  } catch {
    return false;
  }
}

/** Runs `work` with this process on the CPUs listed (taskset's list form, e.g. "0"), then restores the mask it had. */
export async function onCpus<T>(cpus: string, work: () => Promise<T>): Promise<T> {
  const before = maskOf(process.pid);
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(process.pid)], { stdio: 'ignore' });
  try {
    return await work();
  } finally {
    execFileSync('taskset', ['-a', '-p', before, String(process.pid)], { stdio: 'ignore' });
  }
}
