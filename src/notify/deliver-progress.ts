import type { JobForNotification } from '../jobs/job-for-notification.js';
import type { NotificationOutbox, NotificationState } from '../jobs/notification-outbox.js';
import { NO_TELEMETRY, type Telemetry } from '../core/telemetry.js';
import type { Logger } from '../logger.js';
import { DeliveryFailed } from './errors.js';
import type { DeliveryTarget, ProgressSink, ProgressSinks } from './progress-sink.js';
import { buildProgressView, type ProgressView, type ViewSettings } from './progress-view.js';

export interface DeliverySettings extends ViewSettings {
  /** At most one message edit per job per this interval (NOTIFY_MIN_INTERVAL_MS): Slack allows about one a second. */
  minIntervalMs: number;
  /** First back-off after a failure with no Retry-After; doubled per failure. */
  baseBackoffMs?: number;
  /** Back-off cap (5 minutes). */
  maxBackoffMs?: number;
  /** Failures in a row after which the delivery gives up (last_error says so); the job itself is untouched. */
  maxAttempts?: number;
  /** The longest wait between looks at a job that has been quiet a while (a job queued behind others). */
  maxIdleMs?: number;
}

export interface ProgressDeliveryDeps {
  outbox: Pick<NotificationOutbox, 'state' | 'markPosting' | 'recordDelivery' | 'recordRecovered' | 'recordFailure'>;
  /** The job as its message shows it (`readJobForNotification`); null when the job is gone. */
  read(jobId: string): Promise<JobForNotification | null>;
  sinks: ProgressSinks;
  settings: DeliverySettings;
  logger: Logger;
  now?: () => Date;
  /** Counts deliveries and retries by channel (default: nothing). */
  telemetry?: Telemetry;
}

/** What the queue does next with a job's delivery: run it again at a time, or nothing (the final state is out). */
export type DeliveryOutcome = { runAgainAt: Date } | 'done';

export const DEFAULT_BASE_BACKOFF_MS = 2_000;
export const DEFAULT_MAX_BACKOFF_MS = 5 * 60_000;
/** About four hours of 5-minute retries: a channel down that long has lost the thread's attention anyway. */
export const DEFAULT_MAX_ATTEMPTS = 50;
export const DEFAULT_MAX_IDLE_MS = 5_000;

/**
 * When to look again at a job with nothing new: soon after its last event, less often the longer it has been quiet
 * (a quarter of the quiet time, from the edit interval up to `maxIdleMs`). A job waiting in a long queue costs a
 * read every few seconds, and a busy one is still shown within the interval.
 */
export function idleWaitMs(quietMs: number, minIntervalMs: number, maxIdleMs: number): number {
  return Math.max(minIntervalMs, Math.min(maxIdleMs, Math.floor(quietMs / 4)));
}

/** Exponential back-off for the `attempts`-th failure in a row, capped. */
export function backoffMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * The `notify-delivery` handler: brings a job's message in its channel up to date with the job, one delivery at a
 * time (the job's queue job is its only runner), and says when to run again.
 *
 * - Throttled: a delivery less than `minIntervalMs` after the last one waits; events that came meanwhile are shown
 *   together by the next edit. While the job is unfinished the delivery runs again after the interval.
 * - The final state is always delivered, and once: `final_delivered` is recorded with it and ends the delivery.
 * - A first post is preceded by `posting_since`: a worker that dies after the channel took the post but before the
 *   commit leaves it set, and the next delivery asks the channel for that message (`recover`) instead of posting a
 *   second one. A later edit after such a crash repeats an edit, which shows nothing new.
 * - A failure never reaches the job: retryable ones run again after Retry-After or back-off (capped); a permanent
 *   one records `last_error` and stops.
 */
export function createProgressDelivery({ outbox, read, sinks, settings, logger, now = () => new Date(), telemetry = NO_TELEMETRY }: ProgressDeliveryDeps) {
  const baseBackoff = settings.baseBackoffMs ?? DEFAULT_BASE_BACKOFF_MS;
  const maxBackoff = settings.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS;
  const maxAttempts = settings.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const later = (ms: number): DeliveryOutcome => ({ runAgainAt: new Date(now().getTime() + ms) });

  /** Posts or edits the message; the handle is recorded (or recovered) before anything is sent twice. */
  async function send(sink: ProgressSink, state: NotificationState, view: ProgressView): Promise<string> {
    const target: DeliveryTarget = { organizationId: state.organizationId, context: state.context };
    let handle = state.messageHandle;
    if (handle === null && state.postingSince !== null) {
      handle = await sink.recover(target, state.jobId);
      if (handle !== null) await outbox.recordRecovered(state.jobId, handle);
    }
    if (handle === null) await outbox.markPosting(state.jobId, now());
    return (await sink.deliver(target, view, handle)).handle;
  }

  async function failed(state: NotificationState, error: unknown, log: Logger): Promise<DeliveryOutcome> {
    const failure = error instanceof DeliveryFailed ? error : new DeliveryFailed(error instanceof Error ? error.message : String(error), { retryable: true, cause: error });
    const attempts = state.attempts + 1;
    const givingUp = failure.retryable && attempts >= maxAttempts;
    await outbox.recordFailure(state.jobId, `${failure.code}: ${failure.message}${givingUp ? ` (gave up after ${attempts} attempts)` : ''}`);
    if (!failure.retryable || givingUp) {
      telemetry.progressDelivery(state.channel, givingUp ? 'given_up' : 'refused');
      log.warn({ err: failure, attempts }, 'progress delivery stopped');
      return 'done';
    }
    telemetry.progressDelivery(state.channel, 'retry');
    const delay = Math.min(maxBackoff, failure.retryAfterMs ?? backoffMs(attempts, baseBackoff, maxBackoff));
    log.info({ code: failure.code, attempts, delayMs: delay }, 'progress delivery failed; retrying');
    return later(delay);
  }

  return {
    async deliver(jobId: string): Promise<DeliveryOutcome> {
      const log = logger.child({ notifyJobId: jobId });
      const state = await outbox.state(jobId);
      if (!state || state.finalDelivered) return 'done';
      const sink = sinks[state.channel];
      if (!sink) {
        await outbox.recordFailure(jobId, `no sink for the ${state.channel} channel in this worker`);
        return 'done';
      }
      if (state.lastDeliveredAt !== null) {
        const wait = state.lastDeliveredAt.getTime() + settings.minIntervalMs - now().getTime();
        if (wait > 0) return later(wait);
      }
      const job = await read(jobId);
      if (!job) return 'done';
      const view = buildProgressView(job, settings);
      if (state.messageHandle !== null && view.lastSeq <= state.deliveredSeq) {
        // Nothing new since the last edit. A finished job's last edit already showed its final events.
        if (!view.finished) {
          const lastEventAt = job.events.at(-1)?.at.getTime() ?? now().getTime();
          return later(idleWaitMs(now().getTime() - lastEventAt, settings.minIntervalMs, settings.maxIdleMs ?? DEFAULT_MAX_IDLE_MS));
        }
        await outbox.recordDelivery(jobId, { handle: state.messageHandle, deliveredSeq: state.deliveredSeq, final: true, at: now() });
        return 'done';
      }
      let handle: string;
      try {
        handle = await send(sink, state, view);
      } catch (error) {
        return failed(state, error, log);
      }
      telemetry.progressDelivery(state.channel, 'delivered');
      await outbox.recordDelivery(jobId, { handle, deliveredSeq: view.lastSeq, final: view.finished, at: now() });
      return view.finished ? 'done' : later(settings.minIntervalMs);
    },
  };
}

export type ProgressDelivery = ReturnType<typeof createProgressDelivery>;
