/** Messages between the bench (parent) and its worker processes, over Node's IPC channel. */

export type Phase = 'warmup' | 'throughput' | 'latency';

export interface JobData {
  phase: Phase;
  seq: number;
}

export type ParentMessage = { type: 'clock'; t0: number } | { type: 'stats'; token: number } | { type: 'stop' };

/** Cumulative counters of the storage calls Agenda made in a worker (wrapped repository methods). */
export interface StorageStats {
  claimsFound: number;
  claimsEmpty: number;
  claimFoundMs: number;
  claimEmptyMs: number;
  saveStates: number;
  saveStateMs: number;
  /** Most getNextJobToRun calls in flight at once in this worker (Agenda starts a fill loop per notification). */
  maxConcurrentClaims: number;
}

export type WorkerMessage =
  | { type: 'ready'; index: number }
  | { type: 'clock'; t0: number; worker: number }
  /** Batched: [phase, seq, wall ms] when the handler started, and when Agenda emitted `complete`. */
  | { type: 'events'; index: number; starts: [Phase, number, number][]; completes: [Phase, number, number][] }
  | { type: 'agenda-error'; index: number; message: string }
  | { type: 'stats'; token: number; index: number; stats: StorageStats }
  /** After `agenda.stop()`: how long it took, timers left pending, and handles other than timers and pipes. */
  | { type: 'stopped'; index: number; stopMs: number; leftTimers: number; open: string[] }
  | { type: 'bye' };
