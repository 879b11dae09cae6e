/**
 * The demo shop (test/fixtures/demo-app) in a child process of its own, so that the page loads both sides of a
 * comparison cause land in neither side's CPU, and the site's own CPU can be read from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SERVE = fileURLToPath(new URL('../../test/fixtures/demo-app/serve.ts', import.meta.url));
/** Clock ticks per second of /proc's times (USER_HZ), as in ./cpu.ts. */
const TICKS_PER_SECOND = 100;

export interface DemoSiteProcess {
  url: string;
  /** CPU seconds (user + sys) the site's process has used so far; NaN where /proc cannot tell. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

export async function startDemoSiteProcess(): Promise<DemoSiteProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', SERVE, '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /Demo app at (http:\/\/[^\s]+)/.exec(out);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the demo site exited (${code}) before it listened:\n${out}`)));
  });
  return {
    url,
    cpuSeconds() {
      try {
        const text = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
        const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
        return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
      } catch {
        return Number.NaN;
      }
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
