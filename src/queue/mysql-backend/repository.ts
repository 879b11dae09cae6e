import {
  computeJobState,
  type JobId,
  type JobParameters,
  type JobRepository,
  type JobRepositoryOptions,
  type JobsOverview,
  type JobsQueryOptions,
  type JobsResult,
  type JobWithState,
  type RemoveJobsOptions,
} from 'agenda';
import type { ClaimOrder } from './claim.js';
import { ClaimProbe, claimableNames, probeStatement, type ProbeAsk } from './claim-probe.js';
import { dedupeKeyOf } from './dedupe-key.js';
import { queryFilter, queryOrder, selectionFilter } from './job-filters.js';
import { newJobId } from './job-id.js';
import { definitionValues, newRow, rowToJob, SELECT_COLUMNS, type JobRow } from './job-row.js';
import { toSqlDate } from './sql-dates.js';
import {
  DuplicateKeyError,
  insertStatement,
  placeholders,
  SqlExpression,
  updateStatement,
  type SqlExecutor,
  type Statement,
} from './sql-executor.js';
import { planSingle, planUnique, type UpsertPlan } from './upsert-plan.js';

/** A new job's INSERT, to be run by the caller's own transaction. */
export interface StagedInsert {
  /** The job's id, known before anything is written. */
  id: string;
  /** `?` placeholders, the same on MySQL and SQLite. */
  statement: Statement;
}

/** How many times an upsert re-reads after losing an insert race on the unique index (one loss is the norm). */
/**
 * Told of every job this repository locked for a worker: claimed as due (or by the notification path), or taken over
 * from a lock that had expired (`takeover`: its worker is presumed dead). For counting; it must not throw.
 */
export type ClaimListener = (claim: { jobName: string; takeover: boolean }) => void;

const UPSERT_ATTEMPTS = 5;

/**
 * Agenda's JobRepository on MySQL/MariaDB and SQLite. Behaviour follows Agenda's own backends (the Postgres one
 * field for field); where this one differs it says so on the method.
 */
export class SqlJobRepository implements JobRepository {
  constructor(
    private readonly connectExecutor: () => Promise<SqlExecutor>,
    private readonly table: string,
    private readonly order: ClaimOrder = {},
    private readonly onClaim?: ClaimListener,
  ) {}

  private executor: SqlExecutor | undefined;
  private connecting: Promise<void> | undefined;
  /** Agenda instances (by name) that may not claim any more, and the claims still in flight per instance. */
  private readonly stoppedOwners = new Set<string>();
  private readonly claimsInFlight = new Map<string, Set<Promise<unknown>>>();
  /** Runs this process gave up on (handed back, or lost): Agenda's closing save of their state is not written. */
  private readonly settledElsewhere = new Set<string>();
  /** Which of the kinds a scan claims at once have anything to claim: one read instead of a transaction per kind. */
  private readonly probe = new ClaimProbe(async (asks: readonly ProbeAsk[]) => {
    const statement = probeStatement(this.table, asks);
    const [row] = await this.sql.select<Record<string, unknown>>(statement.sql, statement.params);
    return claimableNames(asks, row);
  });

  /** Counts a claim of `owner` as in flight until it settles, so `stopClaiming` can wait for it. */
  private tracked<T>(owner: string | null, claim: () => Promise<T>): Promise<T> {
    if (owner === null) return claim();
    const running = claim();
    let claims = this.claimsInFlight.get(owner);
    if (!claims) this.claimsInFlight.set(owner, (claims = new Set()));
    claims.add(running);
    const settled = () => {
      claims.delete(running);
      if (claims.size === 0 && this.claimsInFlight.get(owner) === claims) this.claimsInFlight.delete(owner);
    };
    running.then(settled, settled);
    return running;
  }

  /**
   * Refuses every further claim by one Agenda instance and waits for its claims in flight. For a worker that
   * stops: Agenda's queue filling keeps claiming due jobs after `drain()` (it only checks between scans), so a
   * lock taken after `releaseLocksHeldBy` would otherwise stay until it expires. Not part of Agenda's interface.
   */
  async stopClaiming(owner: string): Promise<void> {
    this.stoppedOwners.add(owner);
    await Promise.allSettled([...(this.claimsInFlight.get(owner) ?? [])]);
  }

  private get sql(): SqlExecutor {
    if (!this.executor) throw new Error('MySqlBackend is not connected: call connect() (Agenda does) first');
    return this.executor;
  }

  /** Connects once, however many callers ask at the same time (Agenda's constructor is one of them). */
  async connect(): Promise<void> {
    this.connecting ??= this.connectExecutor().then(
      (executor) => {
        this.executor = executor;
      },
      (error: unknown) => {
        this.connecting = undefined;
        throw error;
      },
    );
    await this.connecting;
  }

  /** Forgets the executor and hands it back for closing; a later `connect` starts afresh. */
  detach(): SqlExecutor | undefined {
    const executor = this.executor;
    this.executor = undefined;
    this.connecting = undefined;
    return executor;
  }

  async getJobById(id: string): Promise<JobParameters | null> {
    const [row] = await this.sql.select<JobRow>(`SELECT ${SELECT_COLUMNS} FROM \`${this.table}\` WHERE id = ?`, [
      String(id),
    ]);
    return row ? rowToJob(row) : null;
  }

  /**
   * Filters in SQL, computes each job's state, then filters by state and paginates (state is not a column).
   * Without a state filter the page and the total come from SQL, so large tables are not read whole.
   */
  async queryJobs(options: JobsQueryOptions = {}): Promise<JobsResult> {
    const { state, skip = 0, limit = 0 } = options;
    const now = new Date();
    const where = queryFilter(options);
    const select = `SELECT ${SELECT_COLUMNS} FROM \`${this.table}\` WHERE ${where.sql} ORDER BY ${queryOrder(options.sort)}`;
    const withState = (row: JobRow): JobWithState => {
      const job = rowToJob(row);
      return { ...job, _id: job._id as JobId, state: computeJobState(job, now) };
    };
    if (!state && limit > 0) {
      const [{ total }] = await this.sql.select<{ total: number | string }>(
        `SELECT COUNT(*) AS total FROM \`${this.table}\` WHERE ${where.sql}`,
        where.params,
      );
      const rows = await this.sql.select<JobRow>(`${select} LIMIT ? OFFSET ?`, [...where.params, limit, skip]);
      return { jobs: rows.map(withState), total: Number(total) };
    }
    const jobs = (await this.sql.select<JobRow>(select, where.params))
      .map(withState)
      .filter((job) => !state || (state === 'paused' ? job.disabled === true : job.state === state));
    const page = limit > 0 ? jobs.slice(skip, skip + limit) : skip > 0 ? jobs.slice(skip) : jobs;
    return { jobs: page, total: jobs.length };
  }

  /** One read of the state-bearing columns for all jobs; a disabled job counts in `paused` and in its state. */
  async getJobsOverview(): Promise<JobsOverview[]> {
    const now = new Date();
    const rows = await this.sql.select<JobRow>(
      `SELECT ${SELECT_COLUMNS} FROM \`${this.table}\` ORDER BY name`,
    );
    const overviews = new Map<string, JobsOverview>();
    for (const row of rows) {
      let overview = overviews.get(row.name);
      if (!overview) {
        overview = { name: row.name, total: 0, running: 0, scheduled: 0, queued: 0, completed: 0, failed: 0, repeating: 0, paused: 0 };
        overviews.set(row.name, overview);
      }
      const job = rowToJob(row);
      overview.total++;
      overview[computeJobState(job, now)]++;
      if (job.disabled) overview.paused++;
    }
    return [...overviews.values()];
  }

  async getDistinctJobNames(): Promise<string[]> {
    const rows = await this.sql.select<{ name: string }>(`SELECT DISTINCT name FROM \`${this.table}\` ORDER BY name`);
    return rows.map((row) => row.name);
  }

  /** Jobs whose next run is already due. */
  async getQueueSize(): Promise<number> {
    const [{ count }] = await this.sql.select<{ count: number | string }>(
      `SELECT COUNT(*) AS count FROM \`${this.table}\` WHERE next_run_at < ?`,
      [toSqlDate(new Date())],
    );
    return Number(count);
  }

  async removeJobs(options: RemoveJobsOptions): Promise<number> {
    const filter = selectionFilter(options);
    if (!filter) return 0;
    return this.sql.execute(`DELETE FROM \`${this.table}\` WHERE ${filter.sql}`, filter.params);
  }

  async disableJobs(options: RemoveJobsOptions): Promise<number> {
    return this.setDisabled(options, true);
  }

  async enableJobs(options: RemoveJobsOptions): Promise<number> {
    return this.setDisabled(options, false);
  }

  private async setDisabled(options: RemoveJobsOptions, disabled: boolean): Promise<number> {
    const filter = selectionFilter(options);
    if (!filter) return 0;
    return this.sql.execute(`UPDATE \`${this.table}\` SET disabled = ? WHERE ${filter.sql}`, [
      disabled ? 1 : 0,
      ...filter.params,
    ]);
  }

  async purgeAllJobs(): Promise<number> {
    return this.sql.execute(`DELETE FROM \`${this.table}\``);
  }

  /** Unlocks a job unless it is mid-run (a one-off job being processed has no next run). */
  async unlockJob(job: JobParameters): Promise<void> {
    if (!job._id) return;
    await this.sql.execute(`UPDATE \`${this.table}\` SET locked_at = NULL WHERE id = ? AND next_run_at IS NOT NULL`, [
      String(job._id),
    ]);
  }

  async unlockJobs(jobIds: (JobId | string)[]): Promise<void> {
    if (jobIds.length === 0) return;
    await this.sql.execute(
      `UPDATE \`${this.table}\` SET locked_at = NULL WHERE id IN ${placeholders(jobIds.length)}`,
      jobIds.map(String),
    );
  }

  /**
   * Releases every lock still held by one Agenda instance (its `name`, which Agenda writes to
   * `last_modified_by` on each lock). For a worker that shuts down: jobs it had claimed but not started, and
   * runs it had to abandon, become due so another worker takes them at once instead of after the lock lifetime; a
   * run in progress (no next run) keeps its place in line, the time it started, ahead of jobs queued after it. Not
   * part of Agenda's interface. Returns the number of jobs released.
   */
  async releaseLocksHeldBy(owner: string, now: Date = new Date()): Promise<number> {
    return this.sql.execute(
      `UPDATE \`${this.table}\` SET locked_at = NULL, next_run_at = COALESCE(next_run_at, last_run_at, ?)
        WHERE last_modified_by = ? AND locked_at IS NOT NULL`,
      [toSqlDate(now), owner],
    );
  }

  /**
   * Locks one known job (the notification path): succeeds only if it is still unlocked, enabled and due at the
   * run time the caller saw. One conditional UPDATE, so two callers cannot both succeed.
   */
  async lockJob(job: JobParameters, options: JobRepositoryOptions | undefined): Promise<JobParameters | undefined> {
    if (!job._id) return undefined;
    const owner = options?.lastModifiedBy || null;
    if (owner !== null && this.stoppedOwners.has(owner)) return undefined;
    const locked = await this.tracked(owner, () => this.sql.execute(
      `UPDATE \`${this.table}\` SET locked_at = ?, last_modified_by = ?
        WHERE id = ? AND name = ? AND locked_at IS NULL AND next_run_at = ? AND disabled = 0`,
      [toSqlDate(new Date()), owner, String(job._id), job.name, toSqlDate(job.nextRunAt)],
    ));
    if (locked !== 1) return undefined;
    this.onClaim?.({ jobName: job.name, takeover: false });
    return (await this.getJobById(String(job._id))) ?? undefined;
  }

  /**
   * Claims the next job of a name: due and unlocked, or locked before `lockDeadline` (its worker is presumed
   * dead). One short transaction that reads both candidates, picks the earlier (jobs with no next run last, as in
   * Agenda's Postgres backend) and locks it. On MySQL the reads are `FOR UPDATE SKIP LOCKED`, so claimers in
   * other processes skip each other's candidates and no job is ever locked twice (see the executors). When a scan
   * claims several kinds at once, one read first finds the kinds with anything to claim (claim-probe.ts).
   */
  async getNextJobToRun(
    jobName: string,
    nextScanAt: Date,
    lockDeadline: Date,
    now: Date | undefined,
    options: JobRepositoryOptions | undefined,
  ): Promise<JobParameters | undefined> {
    const owner = options?.lastModifiedBy || null;
    if (owner !== null && this.stoppedOwners.has(owner)) return undefined;
    const ask: ProbeAsk = { jobName, nextScanAt: toSqlDate(nextScanAt)!, lockDeadline: toSqlDate(lockDeadline)! };
    const row = await this.tracked(owner, async () => {
      if (!(await this.probe.claimable(ask)) || (owner !== null && this.stoppedOwners.has(owner))) return undefined;
      return this.sql.claim({ table: this.table, ...ask, lockedAt: toSqlDate(now ?? new Date())!, lastModifiedBy: owner, order: this.order });
    });
    if (!row) return undefined;
    this.onClaim?.({ jobName, takeover: row.takeover });
    return rowToJob(row.row);
  }

  /**
   * Writes the fields a run changes; fails loudly if the job was removed meanwhile, as Agenda expects, and also
   * when another owner holds a live lock on it. Agenda saves a run's state with every `touch()` and once more when
   * the run ends (clearing `lockedAt`); a run whose lock expired and was claimed by another worker would otherwise
   * extend or release that worker's lock, and a third worker could claim the job while the second still runs it.
   * Agenda swallows the error of its final save and reports a refused `touch()` to the run.
   */
  async saveJobState(job: JobParameters, options: JobRepositoryOptions | undefined): Promise<void> {
    if (!job._id) throw new Error('Cannot save job state without job ID');
    if (this.settledElsewhere.delete(String(job._id))) return;
    const owner = options?.lastModifiedBy || null;
    const statement = updateStatement(
      this.table,
      {
        locked_at: toSqlDate(job.lockedAt),
        next_run_at: toSqlDate(job.nextRunAt),
        last_run_at: toSqlDate(job.lastRunAt),
        progress: job.progress ?? null,
        fail_reason: failReasonText(job.failReason),
        fail_count: job.failCount ?? null,
        failed_at: toSqlDate(job.failedAt),
        last_finished_at: toSqlDate(job.lastFinishedAt),
        last_modified_by: owner,
      },
      owner === null
        ? { sql: 'id = ? AND name = ?', params: [String(job._id), job.name] }
        : {
            sql: 'id = ? AND name = ? AND (locked_at IS NULL OR last_modified_by IS NULL OR last_modified_by = ?)',
            params: [String(job._id), job.name, owner],
          },
    );
    if ((await this.sql.execute(statement.sql, statement.params)) !== 1) {
      throw new Error(
        `job ${String(job._id)} (name: ${job.name}) cannot be updated in the database: it no longer exists, or another worker holds its lock`,
      );
    }
  }

  /**
   * Extends `owner`'s lock on a job it is running, and says whether it still holds it: false when the lock was
   * released or taken over by another worker (this run then stops; its writes are fenced anyway). Not part of
   * Agenda's interface: `touch()` would save the whole state, and cannot say that the lock is gone.
   */
  async renewLock(jobId: string, owner: string, now: Date = new Date()): Promise<boolean> {
    const renewed = await this.sql.execute(
      `UPDATE \`${this.table}\` SET locked_at = ? WHERE id = ? AND last_modified_by = ? AND locked_at IS NOT NULL`,
      [toSqlDate(now), jobId, owner],
    );
    return renewed === 1;
  }

  /**
   * Hands a run back as if its worker had died, but at once: the lock is released and the job is due (as of the
   * time its run started, so it is not queued behind jobs that came after it), its
   * failure count untouched, so another worker resumes it from its last checkpoint. The run's own closing save
   * (Agenda writes one when the handler settles, counting a failure) is then skipped. For a worker that shuts down
   * with a run still going. Not part of Agenda's interface. Returns whether `owner` still held the lock.
   */
  async handBack(jobId: string, owner: string, now: Date = new Date()): Promise<boolean> {
    this.settledElsewhere.add(jobId);
    const released = await this.sql.execute(
      `UPDATE \`${this.table}\` SET locked_at = NULL, next_run_at = COALESCE(next_run_at, last_run_at, ?)
        WHERE id = ? AND last_modified_by = ? AND locked_at IS NOT NULL`,
      [toSqlDate(now), jobId, owner],
    );
    return released === 1;
  }

  /**
   * Forgets a run whose lock another worker took over: nothing of its state is saved any more (Agenda's closing
   * save would count a failure on the other worker's run). Not part of Agenda's interface.
   */
  abandon(jobId: string): void {
    this.settledElsewhere.add(jobId);
  }

  /**
   * Inserts, updates (by id), or upserts `single` and `unique` jobs. Upserts are atomic through the unique
   * `dedupe_key` index (see dedupe-key.ts) rather than a look-up followed by a write.
   *
   * Unlike Agenda's Postgres backend, a save leaves `last_modified_by` alone while the row is locked: here it names
   * the lock's owner, whose state saves and renewals are fenced on it (see `saveJobState`). Another worker's
   * `every()` on a repeating job this worker is running would otherwise take the lock from the run: the run could
   * neither start, renew nor release it, and the job stayed locked until the lock expired.
   */
  async saveJob<DATA = unknown>(
    job: JobParameters<DATA>,
    options: JobRepositoryOptions | undefined,
  ): Promise<JobParameters<DATA>> {
    const params = job as JobParameters;
    const by = options?.lastModifiedBy;
    if (params._id) return (await this.update(params, by)) as JobParameters<DATA>;
    const key = dedupeKeyOf(params);
    if (key === null) return (await this.insert(definitionValues(params, by))) as JobParameters<DATA>;
    const plan = params.type === 'single' ? planSingle : planUnique;
    return (await this.upsert(key, (existing, now) => plan(params, existing, now, by))) as JobParameters<DATA>;
  }

  private async update(job: JobParameters, by: string | undefined): Promise<JobParameters> {
    const values = {
      ...definitionValues(job, by),
      fail_reason: failReasonText(job.failReason),
      fail_count: job.failCount ?? null,
      failed_at: toSqlDate(job.failedAt),
    };
    const statement = updateStatement(
      this.table,
      {
        ...values,
        last_modified_by: new SqlExpression('CASE WHEN locked_at IS NULL THEN ? ELSE last_modified_by END', [by || null]),
        // A job keeps the identity it was first saved with unless this save states one (`unique` is not stored).
        dedupe_key: new SqlExpression('COALESCE(?, dedupe_key)', [dedupeKeyOf(job)]),
      },
      { sql: 'id = ? AND name = ?', params: [String(job._id), job.name] },
    );
    if ((await this.sql.execute(statement.sql, statement.params)) === 0) return job;
    return (await this.getJobById(String(job._id))) ?? job;
  }

  /**
   * The INSERT `saveJob` runs for a new job, for a caller that commits it in a transaction of its own (a job that
   * must exist exactly when the caller's rows do). Only a plain new job: one with an id is updated, and a `single`
   * or `unique` one upserted, by `saveJob`, which a staged insert cannot do. Not part of Agenda's interface.
   */
  stageInsert(job: JobParameters, lastModifiedBy?: string): StagedInsert {
    if (job._id || dedupeKeyOf(job) !== null) {
      throw new Error(`stageInsert: job "${job.name}" has an id or a single/unique identity; save it with saveJob`);
    }
    const { row, statement } = this.insertOf(definitionValues(job, lastModifiedBy));
    return { id: row.id, statement };
  }

  private async insert(values: Record<string, unknown>): Promise<JobParameters> {
    const { row, statement } = this.insertOf(values);
    await this.sql.execute(statement.sql, statement.params);
    return rowToJob(row);
  }

  /** A new row and its INSERT: absent columns are left out, so they take their defaults. */
  private insertOf(values: Record<string, unknown>): { row: JobRow; statement: Statement } {
    const row = newRow(newJobId(), values);
    const { id, ...rest } = row;
    const present = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== null));
    return { row, statement: insertStatement(this.table, { id, ...present }) };
  }

  private async upsert(key: string, plan: (existing: JobRow | undefined, now: Date) => UpsertPlan): Promise<JobParameters> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.sql.atomically(
          [
            {
              sql: `SELECT ${SELECT_COLUMNS} FROM \`${this.table}\` WHERE dedupe_key = ?${this.sql.lockClause('wait')}`,
              params: [key],
            },
          ],
          ([rows]) => {
            const existing = (rows as JobRow[])[0];
            const decided = plan(existing, new Date());
            if (decided.kind === 'keep') return { writes: [], result: rowToJob(existing!) };
            if (decided.kind === 'update') {
              // The row was read under lock: a claim cannot come between this read and the write.
              const values = existing!.locked_at === null ? decided.values : { ...decided.values, last_modified_by: existing!.last_modified_by };
              return {
                writes: [updateStatement(this.table, values, { sql: 'id = ?', params: [existing!.id] })],
                result: rowToJob({ ...existing!, ...values } as JobRow),
              };
            }
            const row = newRow(newJobId(), { ...decided.values, dedupe_key: key });
            return { writes: [insertStatement(this.table, { ...row })], result: rowToJob(row) };
          },
        );
      } catch (error) {
        // Another process inserted the same identity between our read and our insert: read it and update it.
        if (error instanceof DuplicateKeyError && attempt < UPSERT_ATTEMPTS) continue;
        throw error;
      }
    }
  }
}

/**
 * Agenda types `failReason` as a string, but a forked worker reports its error as `JSON.parse(JSON.stringify(err))`,
 * an object (often `{}`). Stored as JSON text rather than rejected, so the run's end is still recorded.
 */
function failReasonText(reason: unknown): string | null {
  if (reason === undefined || reason === null) return null;
  return typeof reason === 'string' ? reason : JSON.stringify(reason);
}
