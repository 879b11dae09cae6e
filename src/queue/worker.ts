import type { Agenda, Job } from 'agenda';
import type { Logger } from '../logger.js';
import type { Queue } from './create-queue.js';
import type { QueueJobDefinition } from './job-definition.js';
import { registerJob, STOP_SHUTDOWN, type RunningJobs } from './register-job.js';

export interface Worker {
  start(): Promise<void>;
  /** Why this worker takes no jobs now (not started yet, stopping), or undefined while it runs them. */
  unready(): string | undefined;
  /**
   * Stops taking jobs, waits up to the grace period for running ones (their browsers stay up: see browser-pool.ts),
   * then stops what is left and hands it back, and releases every lock this process still holds: another worker
   * resumes those runs at once, as after a crash, and no job is failed by a shutdown.
   */
  stop(): Promise<void>;
}

/** How long runs stopped at the end of the grace period get to wind down before the worker releases their locks anyway. */
const ABORT_SETTLE_MS = 2_000;
/** A run that passed Agenda's "still running?" check just before drain needs a moment to announce itself. */
const LATE_START_WINDOW_MS = 50;

export function createWorker(queue: Queue, definitions: QueueJobDefinition[], logger: Logger, graceMs: number): Worker {
  const { agenda } = queue;
  const running: RunningJobs = new Map();
  const log = logger.child({ component: 'worker', owner: queue.owner });
  const state = { stopping: false, started: false };
  let stopped: Promise<void> | undefined;

  // Runs in flight, from Agenda's 'start' (after its first write) to 'complete' (after its last write). Agenda's
  // drain can miss a run that was starting at that very moment; this count cannot. With a shared notification
  // channel (Redis) Agenda also re-emits other processes' runs, as (notification, remote = true): not ours.
  const inFlight = new Set<string>();
  agenda.on('start', (job: Job, remote?: boolean) => {
    if (remote !== true) inFlight.add(String(job.attrs._id));
  });
  agenda.on('complete', (job: Job, remote?: boolean) => {
    if (remote === true) return;
    inFlight.delete(String(job.attrs._id));
    // A slot is free: look for the next due job now. With locks limited to the free slots, Agenda drops the
    // notifications that came while every slot was busy and would otherwise find those jobs only at its next poll.
    // Deferred: Agenda frees the job's lock slot right after this event.
    if (!state.stopping) setImmediate(() => void fillFreeSlots(agenda, log));
  });
  // Agenda emits 'error' for failures outside a job (a lost connection while polling). An EventEmitter with no
  // 'error' listener throws, which would take the process down.
  agenda.on('error', (error: unknown) => log.error({ err: error }, 'queue error'));

  async function waitForRuns(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (inFlight.size > 0 && Date.now() < deadline) await sleep(10);
    return inFlight.size === 0;
  }

  return {
    async start() {
      for (const definition of definitions) registerJob(queue, definition, running, log, state);
      await agenda.start();
      for (const { name, repeatEveryMs } of definitions) {
        // Without skipImmediate: a new row is due now, and the single job's upsert keeps an existing row's next run.
        if (repeatEveryMs !== undefined) await agenda.every(repeatEveryMs, name, {});
      }
      state.started = true;
      log.info({ jobs: definitions.map((d) => d.name) }, 'worker started');
    },
    unready() {
      if (state.stopping) return 'the worker is stopping';
      return state.started ? undefined : 'the worker has not started';
    },
    stop() {
      stopped ??= (async () => {
        const began = Date.now();
        state.stopping = true;
        log.info({ running: inFlight.size, graceMs }, 'worker stopping');
        await agenda.drain({ timeout: graceMs });
        await sleep(LATE_START_WINDOW_MS);
        let finished = await waitForRuns(Math.max(0, graceMs - (Date.now() - began)));
        const abandoned = inFlight.size;
        if (!finished) {
          for (const { controller } of running.values()) controller.abort(STOP_SHUTDOWN);
          finished = await waitForRuns(ABORT_SETTLE_MS);
        }
        await queue.backend.repository.stopClaiming(queue.owner);
        const released = await queue.backend.repository.releaseLocksHeldBy(queue.owner);
        // The store's DataSource stays open (it is not the backend's); the backend's claim connections close.
        await queue.backend.disconnect();
        log.info({ abandoned, unsettled: inFlight.size, released }, 'worker stopped');
      })();
      return stopped;
    },
  };
}

/**
 * Agenda's own scan (what its poll timer runs): claims due jobs up to the free slots and starts them. Agenda has no
 * public call for it; `jobProcessor` exists from `start()` until `stop()`.
 */
async function fillFreeSlots(agenda: Agenda, log: Logger): Promise<void> {
  const processor = (agenda as unknown as { jobProcessor?: { process(): Promise<void> } }).jobProcessor;
  await processor?.process().catch((error: unknown) => log.warn({ err: error }, 'could not look for the next job'));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
