/**
 * Settings shared by the producer (bench/queue.bench.ts) and the worker processes (bench/support/worker-process.ts).
 * Everything here is plain data so it can cross the process boundary as JSON.
 */

export type BackendKind = 'ours' | 'peer';
/** `redis`: our backend with Agenda's Redis channel; `pg`: the peer's LISTEN/NOTIFY; `off`: polling only. */
export type NotifyKind = 'redis' | 'pg' | 'off';

export interface AgendaSettings {
  processEvery: number;
  maxConcurrency: number;
  defaultConcurrency: number;
  /** 0 = no limit (Agenda's default). */
  lockLimit: number;
}

export interface Endpoints {
  mysqlUrl: string;
  pgUrl: string;
  redisUrl: string;
  /** Table on both databases, and the LISTEN/NOTIFY and Redis channel name, so the bench touches nothing else. */
  table: string;
  channel: string;
}

export interface WorkerConfig {
  index: number;
  backend: BackendKind;
  notify: NotifyKind;
  settings: AgendaSettings;
  endpoints: Endpoints;
  jobName: string;
}

export const JOB_NAME = 'bench-noop';

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

export function settingsFromEnv(): AgendaSettings {
  return {
    processEvery: intFromEnv('BENCH_PROCESS_EVERY', 1000),
    maxConcurrency: intFromEnv('BENCH_MAX_CONCURRENCY', 20),
    defaultConcurrency: intFromEnv('BENCH_CONCURRENCY', 20),
    lockLimit: intFromEnv('BENCH_LOCK_LIMIT', 0),
  };
}

export function endpointsFromEnv(): Endpoints {
  return {
    mysqlUrl: process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/qa_bench',
    pgUrl: process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/qa_bench',
    redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    table: 'bench_agenda_jobs',
    channel: 'bench_agenda_jobs',
  };
}

export { intFromEnv };
