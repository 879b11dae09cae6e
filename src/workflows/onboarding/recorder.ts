import type { DataSource, EntityManager } from 'typeorm';
import { IngestionCheckpoint } from '../../store/entities/ingestion-checkpoint.entity.js';
import { IngestionEvent } from '../../store/entities/ingestion-event.entity.js';
import { IngestionRun } from '../../store/entities/ingestion-run.entity.js';
import { isIngestionOver, type IngestionCounts, type IngestionEventType, type IngestionStatus } from '../../core/ingestion-status.js';

/** A newer attempt owns the ingestion (this one's lock expired and another worker took it), or the run has ended. */
export class IngestionAttemptOver extends Error {
  constructor(readonly ingestionRunId: string, readonly reason: string) {
    super(`ingestion ${ingestionRunId}: ${reason}; this attempt writes nothing more`);
    this.name = 'IngestionAttemptOver';
  }
}

/** The ingestion row as locked at the start of a commit (and as the commit's writes changed it). */
export interface LockedIngestion {
  status: string;
  step: string | null;
  /** The commit a fetch pinned; null before the first fetch. */
  commitSha: string | null;
  counts: IngestionCounts;
}

/** The writes of one fenced commit. */
export interface IngestionWrites {
  readonly run: Readonly<LockedIngestion>;
  /** The transaction, for the rows a step stores beside the run (index, flows, links, builds). */
  readonly manager: EntityManager;
  event(type: IngestionEventType, data: Record<string, unknown>): Promise<void>;
  /** Changes the run's own columns; `counts` is merged into the stored counts. */
  update(changes: { status?: IngestionStatus; step?: string; commitSha?: string; waitingFor?: string | null; errorCode?: string; errorMessage?: string; finishedAt?: Date; counts?: IngestionCounts }): Promise<void>;
  checkpoint(step: string, result: object): Promise<void>;
}

export interface IngestionRecorder {
  readonly ingestionRunId: string;
  readonly attempt: number;
  /** Runs `write` in one transaction holding the run's row, after checking this attempt still owns a run not yet over. */
  commit<T>(write: (writes: IngestionWrites) => Promise<T>): Promise<T>;
  completed(step: string): Promise<object | undefined>;
}

const forUpdate = (manager: EntityManager) => (manager.connection.options.type === 'better-sqlite3' ? '' : ' FOR UPDATE');

async function lockRun(manager: EntityManager, id: string): Promise<{ status: string; step: string | null; commit_sha: string | null; run_attempt: number | string; counts: unknown } | undefined> {
  const rows = (await manager.query(`SELECT status, step, commit_sha, run_attempt, counts FROM ingestion_runs WHERE id = ?${forUpdate(manager)}`, [id])) as {
    status: string;
    step: string | null;
    commit_sha: string | null;
    run_attempt: number | string;
    counts: unknown;
  }[];
  return rows[0];
}

/** MySQL hands a JSON column back parsed through TypeORM, raw through `query` (a string on MariaDB); SQLite: a string. */
function countsOf(value: unknown): IngestionCounts {
  if (value === null || value === undefined) return {};
  return (typeof value === 'string' ? JSON.parse(value) : value) as IngestionCounts;
}

/**
 * Starts an attempt: takes the next fencing token under the run's row lock (an older attempt still running is fenced
 * out from its next commit on) and marks a queued run running. Throws `IngestionAttemptOver` when the run has ended.
 */
export async function takeIngestionToken(dataSource: DataSource, id: string, now: () => Date): Promise<number> {
  return dataSource.transaction(async (manager) => {
    const locked = await lockRun(manager, id);
    if (!locked || isIngestionOver(locked.status)) throw new IngestionAttemptOver(id, `it is ${locked?.status ?? 'gone'}`);
    const attempt = Number(locked.run_attempt) + 1;
    const startedAt = locked.status === 'queued' ? { status: 'running', startedAt: now() } : {};
    await manager.update(IngestionRun, { id }, { runAttempt: attempt, updatedAt: now(), ...startedAt });
    return attempt;
  });
}

/** The one writer of an ingestion run's history and state, for the attempt that holds `attempt`. */
export function createIngestionRecorder(dataSource: DataSource, ingestionRunId: string, attempt: number, now: () => Date): IngestionRecorder {
  return {
    ingestionRunId,
    attempt,
    async completed(step) {
      return (await dataSource.getRepository(IngestionCheckpoint).findOneBy({ ingestionRunId, step }))?.result;
    },
    async commit(write) {
      return dataSource.transaction(async (manager) => {
        const locked = await lockRun(manager, ingestionRunId);
        if (!locked) throw new IngestionAttemptOver(ingestionRunId, 'it is gone');
        if (Number(locked.run_attempt) !== attempt) throw new IngestionAttemptOver(ingestionRunId, `attempt ${String(locked.run_attempt)} owns it, this is ${attempt}`);
        if (isIngestionOver(locked.status)) throw new IngestionAttemptOver(ingestionRunId, `it is ${locked.status}`);
        const run: LockedIngestion = { status: locked.status, step: locked.step, commitSha: locked.commit_sha, counts: countsOf(locked.counts) };
        let nextSeq: number | undefined;
        const events: Pick<IngestionEvent, 'ingestionRunId' | 'seq' | 'type' | 'at' | 'data'>[] = [];
        const writes: IngestionWrites = {
          run,
          manager,
          async event(type, data) {
            if (nextSeq === undefined) {
              const [{ next }] = (await manager.query('SELECT COALESCE(MAX(seq) + 1, 0) AS next FROM ingestion_events WHERE ingestion_run_id = ?', [ingestionRunId])) as { next: number | string }[];
              nextSeq = Number(next);
            }
            events.push({ ingestionRunId, seq: nextSeq++, type, at: now(), data });
          },
          async update({ counts, ...changes }) {
            if (counts) run.counts = { ...run.counts, ...counts };
            if (changes.status) run.status = changes.status;
            if (changes.step) run.step = changes.step;
            await manager.update(IngestionRun, { id: ingestionRunId }, { ...changes, ...(counts ? { counts: run.counts as Record<string, number> } : {}), updatedAt: now() });
          },
          async checkpoint(step, result) {
            await manager.insert(IngestionCheckpoint, { ingestionRunId, step, result, completedAt: now() });
          },
        };
        const result = await write(writes);
        if (events.length > 0) await manager.insert(IngestionEvent, events);
        return result;
      });
    },
  };
}
