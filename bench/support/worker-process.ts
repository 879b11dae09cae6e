/**
 * One worker of the queue bench: an Agenda with the configured backend and a no-op job, started with
 * `node --import tsx bench/support/worker-process.ts` by bench/queue.bench.ts (config in BENCH_WORKER_CONFIG).
 * Reports each handler start and each completion (wall clock, see clock.ts) to the parent in batches.
 */
import type { Job, JobRepository } from 'agenda';
import { createAgenda, createBackend } from './backends.js';
import { wallNow } from './clock.js';
import type { WorkerConfig } from './config.js';
import type { JobData, ParentMessage, Phase, StorageStats, WorkerMessage } from './protocol.js';

const config = JSON.parse(process.env.BENCH_WORKER_CONFIG ?? 'null') as WorkerConfig | null;
if (!config || !process.send) {
  console.error('worker-process.ts is started by bench/queue.bench.ts (needs BENCH_WORKER_CONFIG and an IPC channel)');
  process.exit(2);
}
const cfg: WorkerConfig = config;

const send = (message: WorkerMessage): void => {
  if (process.connected) process.send!(message);
};

let starts: [Phase, number, number][] = [];
let completes: [Phase, number, number][] = [];
const flush = (): void => {
  if (starts.length === 0 && completes.length === 0) return;
  send({ type: 'events', index: cfg.index, starts, completes });
  starts = [];
  completes = [];
};

const backend = createBackend(cfg.backend, cfg.notify, cfg.endpoints);
const stats: StorageStats = {
  claimsFound: 0,
  claimsEmpty: 0,
  claimFoundMs: 0,
  claimEmptyMs: 0,
  saveStates: 0,
  saveStateMs: 0,
  maxConcurrentClaims: 0,
};
instrument(backend.repository);
const agenda = createAgenda(backend, cfg.settings, `bench-w${cfg.index}`);
agenda.define(
  cfg.jobName,
  async (job: Job<JobData>) => {
    starts.push([job.attrs.data.phase, job.attrs.data.seq, wallNow()]);
  },
  { concurrency: cfg.settings.defaultConcurrency },
);
// `remote` events are other processes' jobs relayed by the notification channel: only count our own.
agenda.on('complete', (job: Job, remote?: boolean) => {
  if (remote || job.attrs.name !== cfg.jobName) return;
  const data = job.attrs.data as JobData;
  completes.push([data.phase, data.seq, wallNow()]);
});
agenda.on('error', (error: unknown) => {
  send({ type: 'agenda-error', index: cfg.index, message: error instanceof Error ? error.message : String(error) });
});

const flushTimer = setInterval(flush, 20);

let stopping = false;
// The parent going away (crash, Ctrl-C) must not leave a worker behind.
process.on('disconnect', () => {
  if (!stopping) process.exit(3);
});

process.on('message', (message: ParentMessage) => {
  if (message.type === 'clock') {
    send({ type: 'clock', t0: message.t0, worker: wallNow() });
  } else if (message.type === 'stats') {
    send({ type: 'stats', token: message.token, index: cfg.index, stats: { ...stats } });
  } else if (message.type === 'stop' && !stopping) {
    stopping = true;
    const began = wallNow();
    void agenda.stop().then(
      async () => {
        clearInterval(flushTimer);
        flush();
        const stopMs = wallNow() - began;
        // Every connection must be closed now. Timers may remain: Agenda 6.2 leaves each run's lock-lifetime
        // watchdog (`checkIfJobIsStillAlive`, lockLifetime / 2 = 5 min by default) pending after the job ends,
        // which keeps the process alive although nothing is open; those are counted and reported, then we exit.
        const open = await waitForSocketsClosed(3000);
        const leftTimers = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
        send({ type: 'stopped', index: cfg.index, stopMs, leftTimers, open });
        process.exitCode = open.length === 0 ? 0 : 4;
        // Let the IPC message go out before leaving.
        process.send!({ type: 'bye' } satisfies WorkerMessage, () => process.exit());
      },
      (error: unknown) => {
        console.error(`worker ${cfg.index}: agenda.stop() failed:`, error);
        process.exit(5);
      },
    );
  }
});

/** Waits until no socket or server handle is left; resolves with what is still open after `ms`. */
async function waitForSocketsClosed(ms: number): Promise<string[]> {
  const harmless = new Set(['Timeout', 'Immediate', 'PipeWrap', 'TTYWrap', 'ProcessWrap', 'FSReqCallback']);
  const deadline = Date.now() + ms;
  for (;;) {
    // The IPC channel itself is a PipeWrap; stdio may be pipes too.
    const open = process.getActiveResourcesInfo().filter((r) => !harmless.has(r));
    if (open.length === 0 || Date.now() > deadline) return open;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

await agenda.start();
send({ type: 'ready', index: cfg.index });

/**
 * Times the two storage calls Agenda makes per job in a worker (claim, save state) on the repository instance,
 * the same way for both backends; the overhead is two `performance.now()` calls per call.
 */
function instrument(repository: JobRepository): void {
  let inflight = 0;
  const claim = repository.getNextJobToRun.bind(repository);
  repository.getNextJobToRun = async (...args) => {
    inflight++;
    stats.maxConcurrentClaims = Math.max(stats.maxConcurrentClaims, inflight);
    const began = performance.now();
    try {
      const job = await claim(...args);
      const ms = performance.now() - began;
      if (job) {
        stats.claimsFound++;
        stats.claimFoundMs += ms;
      } else {
        stats.claimsEmpty++;
        stats.claimEmptyMs += ms;
      }
      return job;
    } finally {
      inflight--;
    }
  };
  const save = repository.saveJobState.bind(repository);
  repository.saveJobState = async (...args) => {
    const began = performance.now();
    try {
      return await save(...args);
    } finally {
      stats.saveStates++;
      stats.saveStateMs += performance.now() - began;
    }
  };
}
