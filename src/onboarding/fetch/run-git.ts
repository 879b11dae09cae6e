import { spawn } from 'node:child_process';

export interface GitRun {
  args: readonly string[];
  env: Record<string, string>;
  cwd: string;
  /** Milliseconds left of the fetch's time bound. */
  timeoutMs: number;
  /** Aborting stops git at once (the size bound uses it). */
  signal?: AbortSignal;
  /** Sees each piece of stdout as it comes; answering true stops git (the file-count bound counts entries). */
  stopOn?: (chunk: Buffer) => boolean;
}

export interface GitResult {
  exitCode: number | null;
  stdout: Buffer;
  /** The last 16 KiB of what git wrote to stderr. */
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  /** Stopped by `stopOn`, or because stdout went over STDOUT_KEPT. */
  stopped: boolean;
}

const STDERR_KEPT = 16 * 1024;
/** More than any listing of a repository within the bounds; a hostile server's endless answer is cut here. */
export const STDOUT_KEPT = 256 * 1024 * 1024;

/**
 * Runs git with an argument array (no shell) in a process group of its own, so that stopping it stops its remote
 * helper and index-pack too: `git fetch` over https is three processes, and killing only the first would leave the
 * helper reading the network.
 */
export function runGit(binary: string, run: GitRun): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, [...run.args], { cwd: run.cwd, env: run.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    let timedOut = false;
    let aborted = false;
    let stopped = false;
    let outBytes = 0;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, Math.max(0, run.timeoutMs));
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    if (run.signal?.aborted) onAbort();
    run.signal?.addEventListener('abort', onAbort);
    child.stdout.on('data', (chunk: Buffer) => {
      if (stopped) return;
      outBytes += chunk.length;
      if (outBytes > STDOUT_KEPT || run.stopOn?.(chunk)) {
        stopped = true;
        killGroup();
        return;
      }
      out.push(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      err = (err + chunk).slice(-STDERR_KEPT);
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.once('close', (exitCode) => {
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      // git may have left helpers behind in its group when it failed; nothing of the group outlives the call.
      killGroup();
      resolve({ exitCode, stdout: Buffer.concat(out), stderr: err, timedOut, aborted, stopped });
    });
  });
}
