import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface ChildEvent {
  event: string;
  [key: string]: unknown;
}

export interface TestChild {
  process: ChildProcess;
  events: ChildEvent[];
  /** Resolves with the first event matching, or rejects when the child exits first or the time runs out. */
  waitFor(predicate: (event: ChildEvent) => boolean, timeoutMs?: number): Promise<ChildEvent>;
  /** The last few KiB the child wrote to stderr, for failure messages. */
  stderr(): string;
  /** Stops the child (SIGTERM, then SIGKILL after a grace period) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Runs a TypeScript file under test/support/processes as a child process that talks JSON lines on stdout. */
export function spawnTestChild(file: string, env: Record<string, string>): TestChild {
  const path = fileURLToPath(new URL(file, import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', path], {
    env: { ...process.env, NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const events: ChildEvent[] = [];
  const listeners = new Set<() => void>();
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      events.push(JSON.parse(line) as ChildEvent);
    } catch {
      return;
    }
    for (const listener of listeners) listener();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', () => {
    for (const listener of listeners) listener();
  });

  return {
    process: child,
    events,
    waitFor(predicate, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`child ${file}: no matching event in ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
        const check = () => {
          const found = events.find(predicate);
          if (found) return finish(undefined, found);
          if (child.exitCode !== null || child.signalCode !== null) {
            finish(new Error(`child ${file} exited (${child.exitCode ?? child.signalCode}) first; stderr: ${stderr}`));
          }
        };
        const finish = (error?: Error, event?: ChildEvent) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (error) reject(error);
          else resolve(event!);
        };
        listeners.add(check);
        check();
      });
    },
    stderr: () => stderr,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
