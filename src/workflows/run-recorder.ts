import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager, EntityTarget, FindOptionsWhere, ObjectLiteral } from 'typeorm';
import { boundedComparison, boundedText, FINDING_DETAIL_MAX, FINDING_TITLE_MAX, type FindingDraft } from '../core/findings.js';
import { NO_DISPUTES, settleDisputed, type DisputedFingerprints } from '../core/finding-disputes.js';
import { assertTransition, isRunnable, type JobEventType, type JobStatus } from '../core/job-lifecycle.js';
import type { Scrubber } from '../core/secrets.js';
import { nextEventIndex } from '../jobs/job-events.js';
import { isDuplicateKey } from '../store/duplicate-key.js';
import { JobEvent } from '../store/entities/job-event.entity.js';
import { Artifact } from '../store/entities/artifact.entity.js';
import { Finding } from '../store/entities/finding.entity.js';
import { JobCheckpoint } from '../store/entities/job-checkpoint.entity.js';
import { Job } from '../store/entities/job.entity.js';

/**
 * A newer attempt took the run over (this one's queue lock expired and another worker claimed the job): whatever
 * this attempt still holds is stale. Nothing of the commit that saw it was written; the attempt stops quietly.
 */
export class RunFencedOut extends Error {
  constructor(
    readonly jobId: string,
    readonly token: number,
    readonly current: number,
  ) {
    super(`a newer attempt owns this run: job ${jobId} is at attempt ${current}, this is attempt ${token}`);
    this.name = 'RunFencedOut';
  }
}

/** The job left `queued`/`running` under the run (it was cancelled, or ended): nothing of the commit was written. */
export class JobNoLongerRunnable extends Error {
  constructor(
    readonly jobId: string,
    readonly status: string,
  ) {
    super(`job ${jobId} is ${status}; the run writes nothing more`);
    this.name = 'JobNoLongerRunnable';
  }
}

/** Whether an error means "this attempt has nothing more to do here" (not a failure of the run). */
export function isRunOver(error: unknown): error is RunFencedOut | JobNoLongerRunnable {
  return error instanceof RunFencedOut || error instanceof JobNoLongerRunnable;
}

/** The writes of one commit of a run. Every string value is scrubbed before it reaches the database. */
export interface RunWrites {
  /** The job's status, as locked when this commit began (and as changed by `status` since). */
  readonly status: JobStatus;
  /** Appends an event to the job's history. */
  event(type: JobEventType, data: Record<string, unknown>): Promise<void>;
  /** Moves the job to `to`; the lifecycle must allow it from the current status (else `job.invalid_transition`). */
  setStatus(to: JobStatus, times?: { startedAt?: Date; finishedAt?: Date }): Promise<void>;
  /** Inserts stored artifacts' rows (bytes already in storage), each with an `artifact.created` event. */
  artifacts(rows: readonly Artifact[]): Promise<void>;
  /** Inserts findings after the job's existing ones, each with a `finding.recorded` event, each as `settle` has it. */
  findings(drafts: readonly FindingDraft[], artifactIds: readonly string[]): Promise<void>;
  /** Marks a workflow step done with its result (what a resumed run reads instead of doing the step again). */
  checkpoint(step: string, result: object): Promise<void>;
  /** A row the run adds beside its own history (a compiled check version). */
  insert<Entity extends ObjectLiteral>(entity: EntityTarget<Entity>, row: Partial<Entity>): Promise<void>;
  update<Entity extends ObjectLiteral>(entity: EntityTarget<Entity>, where: FindOptionsWhere<Entity>, changes: Partial<Entity>): Promise<void>;
  /** A read inside the commit's transaction (a next version number); never a write. */
  read<Row>(sql: string, parameters: unknown[]): Promise<Row[]>;
}

/**
 * The one writer of a run: everything the run records (events, findings, artifacts, status, step checkpoints, the
 * failure record) goes through `commit`, which locks the job's row, checks that this attempt still owns the run
 * (its fencing token) and that the job is still runnable, and only then writes — all in one transaction.
 */
export interface RunRecorder {
  readonly jobId: string;
  readonly organizationId: string;
  /** This attempt's fencing token: the job's `run_attempt` when the attempt started (1 for the first). */
  readonly attempt: number;
  readonly scrubber: Scrubber;
  /**
   * A finding as this run records it: scrubbed, then bounded, and an error whose fingerprint the check's disputes
   * hold recorded as a warning saying who disputed it and why (src/core/finding-disputes.ts). `findings` records
   * every finding so; a verdict is taken on what this returns, so it fails the run exactly when the record does.
   */
  settle(draft: FindingDraft): FindingDraft;
  /**
   * Runs `write` in one transaction after the fence check. Throws `RunFencedOut` when a newer attempt owns the run,
   * `JobNoLongerRunnable` when the job was cancelled or has ended; in both cases nothing is written.
   */
  commit(write: (writes: RunWrites) => Promise<void>): Promise<void>;
}

export interface RunRecorderOptions {
  jobId: string;
  organizationId: string;
  attempt: number;
  scrubber: Scrubber;
  /** Called after each commit with the types of the events it wrote (an event feed in this process wakes its followers). */
  afterCommit?: (written: readonly JobEventType[]) => void;
  /** The disputes of the check the job replays, read once when the attempt starts (none by default). */
  disputes?: DisputedFingerprints;
}

interface LockedRun {
  status: string;
  attempt: number;
}

/**
 * Locks the job's row for the rest of the transaction and reads what the fence needs. MySQL: `FOR UPDATE`, so a
 * cancel, another attempt's token or another writer's event index waits for this commit. SQLite runs one write
 * transaction at a time and has no `FOR UPDATE`.
 */
async function lockRun(manager: EntityManager, jobId: string): Promise<LockedRun | undefined> {
  const forUpdate = manager.connection.options.type === 'better-sqlite3' ? '' : ' FOR UPDATE';
  const rows = (await manager.query(`SELECT status, run_attempt FROM jobs WHERE id = ?${forUpdate}`, [jobId])) as { status: string; run_attempt: number | string }[];
  const row = rows[0];
  return row && { status: row.status, attempt: Number(row.run_attempt) };
}

/**
 * Starts an attempt of a job's run: takes the next fencing token (`run_attempt + 1`) under the job's row lock, so
 * any earlier attempt still running is fenced out from its next write on. Throws `JobNoLongerRunnable` when the job
 * is not queued or running (nothing is taken then).
 */
export async function takeRunToken(dataSource: DataSource, jobId: string): Promise<number> {
  return dataSource.transaction(async (manager) => {
    const locked = await lockRun(manager, jobId);
    if (!locked || !isRunnable(locked.status)) throw new JobNoLongerRunnable(jobId, locked?.status ?? 'gone');
    const attempt = locked.attempt + 1;
    await manager.update(Job, { id: jobId }, { runAttempt: attempt, updatedAt: new Date() });
    return attempt;
  });
}

/** The recorder of an attempt that took its token with `takeRunToken`. */
export function createRunRecorder(dataSource: DataSource, options: RunRecorderOptions): RunRecorder {
  const { jobId, organizationId, attempt, scrubber } = options;
  const scrub = <T>(value: T): T => scrubber.value(value);
  const disputes = options.disputes ?? NO_DISPUTES;
  /** The history's next index after this recorder's last commit that wrote events (see `flush` in writesIn). */
  let nextCounted: number | undefined;

  function settle(draft: FindingDraft): FindingDraft {
    // Scrubbed before bounded: a secret cut in two by the bound would no longer be recognised. The title is bounded
    // before the disputes are asked: the disputed fingerprint was taken from a stored (bounded) title.
    const scrubbed = scrub(draft);
    const settled = settleDisputed({ ...scrubbed, title: boundedText(scrubbed.title, FINDING_TITLE_MAX) }, disputes);
    const compared = settled.expected !== undefined && settled.actual !== undefined ? boundedComparison({ expected: settled.expected, actual: settled.actual }) : undefined;
    return { ...settled, detail: boundedText(scrub(settled.detail), FINDING_DETAIL_MAX), ...compared };
  }

  /**
   * A commit's writes, and `flush`, which writes its events: run it before the transaction commits. `counted`: the
   * history's next index after this recorder's last commit that wrote events (undefined before its first).
   */
  function writesIn(
    manager: EntityManager,
    locked: LockedRun & { status: JobStatus },
    counted: number | undefined,
  ): { writes: RunWrites; flush(): Promise<{ types: JobEventType[]; next: number | undefined }> } {
    // The commit holds the job's row (lockRun), as every writer of a job's history does before it appends: the
    // next index is read once and counted on, instead of locking and reading again for every event. The events are
    // written together at the end of the commit (one INSERT instead of one per event: a step's commit has two or three).
    // After its first commit the recorder counts on from its own last event without reading: a run's commits follow
    // one another with nothing between them but, rarely, another writer's event (a cancel's, say). That one holds the
    // index this commit counted on, the INSERT breaks the history's key and changes nothing, and the events are
    // numbered again from the history's end (MySQL and SQLite both undo the failed statement alone).
    let nextSeq: number | undefined;
    const pending: (Pick<JobEvent, 'jobId' | 'seq' | 'at' | 'data'> & { type: JobEventType })[] = [];
    const event = async (type: JobEventType, data: Record<string, unknown>) => {
      nextSeq ??= counted ?? (await nextEventIndex(manager, jobId));
      pending.push({ jobId, seq: nextSeq++, type, at: new Date(), data: scrub(data) });
    };
    const flush = async () => {
      if (pending.length === 0) return { types: [] as JobEventType[], next: counted };
      try {
        await manager.insert(JobEvent, pending);
      } catch (error) {
        if (counted === undefined || !isDuplicateKey(error)) throw error;
        const from = await nextEventIndex(manager, jobId);
        pending.forEach((row, index) => (row.seq = from + index));
        await manager.insert(JobEvent, pending);
      }
      return { types: pending.map((row) => row.type), next: pending.at(-1)!.seq + 1 };
    };
    const writes: RunWrites = {
      get status() {
        return locked.status;
      },
      event,
      async setStatus(to, times = {}) {
        assertTransition(locked.status, to);
        await manager.update(Job, { id: jobId, runAttempt: attempt }, { status: to, ...times, updatedAt: new Date() });
        locked.status = to;
      },
      async artifacts(rows) {
        for (const artifact of rows) {
          await manager.insert(Artifact, scrub({ ...artifact }));
          await event('artifact.created', { artifactId: artifact.id, kind: artifact.kind, name: artifact.name, sizeBytes: artifact.sizeBytes });
        }
      },
      async findings(drafts, artifactIds) {
        if (drafts.length === 0) return;
        const [{ next }] = (await manager.query(`SELECT COALESCE(MAX(position) + 1, 0) AS next FROM findings WHERE job_id = ?`, [jobId])) as { next: number | string }[];
        let position = Number(next);
        for (const draft of drafts) {
          const finding = settle(draft);
          const id = randomUUID();
          await manager.insert(Finding, { id, organizationId, jobId, position: position++, ...finding, artifactIds: [...artifactIds] });
          await event('finding.recorded', { findingId: id, kind: finding.kind, severity: finding.severity, title: finding.title });
        }
      },
      async checkpoint(step, result) {
        await manager.insert(JobCheckpoint, { jobId, step, result: scrub(result), completedAt: new Date() });
      },
      async insert(entity, row) {
        await manager.insert(entity, scrub(row) as never);
      },
      async update(entity, where, changes) {
        await manager.update(entity, where, scrub(changes) as never);
      },
      async read<Row>(sql: string, parameters: unknown[]) {
        return (await manager.query(sql, parameters)) as Row[];
      },
    };
    return { writes, flush };
  }

  return {
    jobId,
    organizationId,
    attempt,
    scrubber,
    settle,
    async commit(write) {
      const written = await dataSource.transaction(async (manager) => {
        const locked = await lockRun(manager, jobId);
        if (!locked) throw new JobNoLongerRunnable(jobId, 'gone');
        if (locked.attempt !== attempt) throw new RunFencedOut(jobId, attempt, locked.attempt);
        if (!isRunnable(locked.status)) throw new JobNoLongerRunnable(jobId, locked.status);
        const { writes, flush } = writesIn(manager, { attempt: locked.attempt, status: locked.status as JobStatus }, nextCounted);
        await write(writes);
        return flush();
      });
      // Only once the transaction committed: a commit that failed wrote no events.
      nextCounted = written.next;
      options.afterCommit?.(written.types);
    },
  };
}
