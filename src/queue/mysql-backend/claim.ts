import type { JobRow } from './job-row.js';

/** What one claim asks for (see SqlJobRepository.getNextJobToRun). Dates are SQL text (sql-dates.ts). */
export interface ClaimSpec {
  table: string;
  jobName: string;
  /** Due jobs: next run at or before this. */
  nextScanAt: string;
  /** Expired locks: locked at or before this. */
  lockDeadline: string;
  lockedAt: string;
  lastModifiedBy: string | null;
  order: ClaimOrder;
}

export interface ClaimOrder {
  nextRunAt?: 'asc' | 'desc';
  priority?: 'asc' | 'desc';
}

export type ClaimCandidate = Pick<JobRow, 'id' | 'next_run_at' | 'priority'>;

export function orderBy(order: ClaimOrder): string {
  return `next_run_at ${order.nextRunAt === 'desc' ? 'DESC' : 'ASC'}, priority ${order.priority === 'asc' ? 'ASC' : 'DESC'}`;
}

/**
 * What a claim may take, as SQL on the claim index: a job of the kind (parameter: the name), not disabled, and
 * either due and unlocked (parameter: the scan's end) or locked before the lock deadline (parameter: the deadline).
 * The claim's candidate reads and the probe (claim-probe.ts) both ask exactly this.
 */
export const CLAIMABLE = {
  kind: 'name = ? AND disabled = 0',
  due: 'locked_at IS NULL AND next_run_at <= ?',
  expired: 'locked_at <= ?',
} as const;

/**
 * The candidate to claim: earlier in claim order; a job without a next run first. Only an expired lock can have
 * none: a run whose worker died mid-run. It was started before anything still waiting, so it is resumed first;
 * ordered last (as Agenda's Postgres backend does), it waited behind the whole backlog (bench:soak: 2 minutes).
 */
export function earlier(order: ClaimOrder, a: ClaimCandidate | undefined, b: ClaimCandidate | undefined): ClaimCandidate | undefined {
  if (!a || !b) return a ?? b;
  if (a.next_run_at === null || b.next_run_at === null) return a.next_run_at === null ? a : b;
  if (a.next_run_at !== b.next_run_at) return (a.next_run_at < b.next_run_at) === (order.nextRunAt !== 'desc') ? a : b;
  return (Number(a.priority) >= Number(b.priority)) === (order.priority !== 'asc') ? a : b;
}

/**
 * The two candidate reads: the first due unlocked job and the first job whose lock expired. Each reads only
 * columns of the claim index, so it is a range scan that stops at its first row; a wider read makes MariaDB
 * walk (and row-lock) every finished job of the name, since their NULL next run sorts first.
 */
export function candidateReads(spec: ClaimSpec, lock: string): { due: string; expired: string } {
  const from = `SELECT id, next_run_at, priority FROM \`${spec.table}\` WHERE ${CLAIMABLE.kind}`;
  return {
    due: `${from} AND ${CLAIMABLE.due} ORDER BY ${orderBy(spec.order)} LIMIT 1${lock}`,
    expired: `${from} AND ${CLAIMABLE.expired} ORDER BY (next_run_at IS NULL) ASC, ${orderBy(spec.order)} LIMIT 1${lock}`,
  };
}
