import { ErrorCode, operationalError, type AppError } from '../../core/errors.js';
import { runGit, STDOUT_KEPT, type GitResult } from './run-git.js';

export interface GitSessionOptions {
  binary: string;
  env: Record<string, string>;
  cwd: string;
  /** When the fetch's time bound ends, on `now`'s clock. */
  deadline: number;
  now: () => number;
  timeout: () => AppError;
  /** Removes the token from git's words before they go into an error. */
  scrub: (text: string) => string;
  /** The caller's cancellation: git is stopped and the call rejects with the signal's reason. */
  cancel?: AbortSignal;
}

export interface GitSession {
  /** Runs git within what is left of the time bound; a non-zero exit is the caller's to read. */
  run(args: string[], options?: { signal?: AbortSignal; stopOn?: (chunk: Buffer) => boolean }): Promise<GitResult>;
  /** Runs git and throws `repository.fetch_failed` with its last words when it fails. */
  runOk(args: string[], what: string): Promise<GitResult>;
}

/** The git commands of one fetch: one environment, one folder, one deadline shared by all of them. */
export function createGitSession(options: GitSessionOptions): GitSession {
  async function run(args: string[], extra: { signal?: AbortSignal; stopOn?: (chunk: Buffer) => boolean } = {}): Promise<GitResult> {
    options.cancel?.throwIfAborted();
    const left = options.deadline - options.now();
    if (left <= 0) throw options.timeout();
    const signals = [options.cancel, extra.signal].filter((signal): signal is AbortSignal => signal !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    let result: GitResult;
    try {
      result = await runGit(options.binary, { args, env: options.env, cwd: options.cwd, timeoutMs: left, stopOn: extra.stopOn, signal });
    } catch (error) {
      throw operationalError(ErrorCode.RepositoryFetchFailed, `git could not be started (${(error as NodeJS.ErrnoException).code ?? 'error'}): is git installed on the worker?`, {
        cause: error,
      });
    }
    options.cancel?.throwIfAborted();
    if (result.timedOut) throw options.timeout();
    if (result.stopped && extra.stopOn === undefined) {
      throw operationalError(ErrorCode.RepositoryFetchFailed, `git wrote more than ${STDOUT_KEPT} bytes of output and was stopped`);
    }
    return result;
  }
  return {
    run,
    async runOk(args, what) {
      const result = await run(args);
      if (result.exitCode !== 0) {
        const words = result.stderr.trim().split('\n').slice(-1)[0] ?? '';
        throw operationalError(ErrorCode.RepositoryFetchFailed, `git could not ${what}: ${options.scrub(words) || `exit code ${result.exitCode}`}`);
      }
      return result;
    },
  };
}
