import type { BrowserPool, BrowserSession } from '../browser/browser-pool.js';
import type { HostAllowlist } from '../browser/host-allowlist.js';

/** Why a session's stop signal fired. */
export const STOP_CANCELLED = 'cancelled';
export const STOP_TIME_LIMIT = 'time_limit';
export const STOP_SHUTDOWN = 'shutdown';

export interface RunSessionOptions {
  browsers: BrowserPool;
  allowlist: HostAllowlist;
  /** The queue run's signal: aborted when the worker gives up on the run (shutdown past its grace period). */
  shutdown: AbortSignal;
  /** A run that takes longer is stopped with `STOP_TIME_LIMIT`; none when absent. */
  timeLimitMs?: number;
  /** Polled every `cancelPollMs` (default 1 s): true stops the run with `STOP_CANCELLED`. None when absent. */
  cancelled?: () => Promise<boolean>;
  cancelPollMs?: number;
}

/** A browser context of one run, and one signal that stops it. */
export interface RunSession {
  session: BrowserSession;
  /** Aborted by a cancel, the time limit or the worker's shutdown; its reason says which. The browser is closed then. */
  stop: AbortSignal;
  /** Stops the watches and closes the browser context; safe to call twice. */
  close(): Promise<void>;
}

/**
 * Opens a fresh browser context behind the allowlist for a run of a workflow (a QA run now; onboarding and catalog
 * builds later), and closes it the moment the run must stop, so a step waiting on the page ends at once.
 */
export async function openRunSession(options: RunSessionOptions): Promise<RunSession> {
  const session = await options.browsers.openSession(options.allowlist);
  const stop = new AbortController();
  const stopWith = (reason: string) => () => stop.abort(reason);
  const onShutdown = stopWith(STOP_SHUTDOWN);
  options.shutdown.addEventListener('abort', onShutdown, { once: true });
  const limit = options.timeLimitMs === undefined ? undefined : setTimeout(stopWith(STOP_TIME_LIMIT), options.timeLimitMs);
  const { cancelled } = options;
  const watch =
    cancelled === undefined
      ? undefined
      : setInterval(() => {
          void cancelled()
            .then((yes) => yes && stop.abort(STOP_CANCELLED))
            .catch(() => undefined);
        }, options.cancelPollMs ?? 1_000);
  stop.signal.addEventListener('abort', () => void session.close().catch(() => undefined), { once: true });
  return {
    session,
    stop: stop.signal,
    async close() {
      clearTimeout(limit);
      clearInterval(watch);
      options.shutdown.removeEventListener('abort', onShutdown);
      await session.close().catch(() => undefined);
    },
  };
}
