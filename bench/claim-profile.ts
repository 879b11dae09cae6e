/**
 * Where a job's time goes in the storage layer, ours (MariaDB) against the peer (PostgreSQL), without Agenda's
 * scheduling around it:   npx tsx bench/claim-profile.ts [--jobs N]   (default 5000 queued jobs)
 *
 * 1. Enqueues N due jobs through each repository (saveJob).
 * 2. Serially runs the storage calls Agenda makes per job: getNextJobToRun, saveJobState (start),
 *    saveJobState (finish); and a claim on an empty queue (every notification's fill loop ends with one).
 *    Round trips and time per statement are counted by wrapping the driver pools.
 * 3. Concurrent claimers (2 and 8 loops, as several fill loops in several workers) over the same queue.
 * 4. EXPLAIN / ANALYZE of the claim statements with N jobs queued.
 * 5. Alternative claim statements on MariaDB, same table and index, sized against each other: A and B cut
 *    round trips inside a normal transaction, C is one autocommit UPDATE (deadlocks), D is one multi-statement
 *    batch, which is what the backend's MySqlExecutor.claim does since this profile measured it.
 */
import { PostgresBackend } from '@agendajs/postgres-backend';
import type { JobParameters, JobRepository } from 'agenda';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { MySqlBackend, SqlJobRepository } from '../src/queue/mysql-backend/index.js';
import { MySqlExecutor } from '../src/queue/mysql-backend/mysql-executor.js';
import { endpointsFromEnv, intFromEnv } from './support/config.js';
import { fmt, percentile, table } from './support/stats.js';

const argIndex = process.argv.indexOf('--jobs');
const N = argIndex >= 0 ? Number(process.argv[argIndex + 1]) : intFromEnv('BENCH_JOBS', 5000);
const SERIAL = Math.min(1000, N);
const TABLE = 'bench_profile_jobs';
const JOB = 'profile-noop';
const BY = { lastModifiedBy: 'claim-profile' };
const endpoints = endpointsFromEnv();

// ---------------------------------------------------------------------------------------------------------------
// Tracing: every statement through the wrapped pools is timed and counted under the current operation.

interface Sample {
  kind: string;
  ms: number;
}

class Tracer {
  current: Sample[] | null = null;
  statements = 0;
  errors = new Map<string, number>();

  async time<T>(kind: string, run: () => Promise<T>): Promise<T> {
    const began = performance.now();
    try {
      return await run();
    } catch (error) {
      const code = String((error as { code?: string }).code ?? (error as Error).message);
      this.errors.set(code, (this.errors.get(code) ?? 0) + 1);
      throw error;
    } finally {
      if (kind !== 'pool.getConnection') this.statements++;
      this.current?.push({ kind, ms: performance.now() - began });
    }
  }

  /** Runs one operation and returns its statements (kind and duration) and its total time. */
  async op<T>(run: () => Promise<T>): Promise<{ value: T; ms: number; samples: Sample[] }> {
    const samples: Sample[] = [];
    this.current = samples;
    const began = performance.now();
    try {
      const value = await run();
      return { value, ms: performance.now() - began, samples };
    } finally {
      this.current = null;
    }
  }
}

function kindOf(sql: string): string {
  const s = sql.replace(/\s+/g, ' ').trim();
  if (s.startsWith('SET TRANSACTION')) return 'SET TRANSACTION ISOLATION LEVEL READ COMMITTED';
  if (s.startsWith('START TRANSACTION')) return 'START TRANSACTION';
  if (s.startsWith('COMMIT')) return 'COMMIT';
  if (s.startsWith('ROLLBACK')) return 'ROLLBACK';
  if (s.startsWith('INSERT')) return 'INSERT job';
  if (s.startsWith('NOTIFY')) return 'NOTIFY';
  if (s.startsWith('SELECT') && s.includes('locked_at IS NULL AND next_run_at <=')) return 'SELECT due … FOR UPDATE SKIP LOCKED';
  if (s.startsWith('SELECT') && s.includes('AND locked_at <=')) return 'SELECT expired … FOR UPDATE SKIP LOCKED';
  if (s.startsWith('UPDATE') && s.includes('WHERE id = (')) return 'UPDATE … WHERE id = (SELECT … SKIP LOCKED) RETURNING *';
  if (s.startsWith('UPDATE') && /SET locked_at = \?, last_modified_by = \? WHERE id = \?$/.test(s)) return 'UPDATE lock by id';
  if (s.startsWith('UPDATE') && s.includes('next_run_at = ')) return 'UPDATE saveJobState';
  return s.slice(0, 60);
}

function sqlText(first: unknown): string {
  return typeof first === 'string' ? first : String((first as { sql?: string; text?: string }).sql ?? (first as { text?: string }).text ?? '');
}

/** A mysql2 promise pool that times every statement (the little MySqlExecutor uses: query, getConnection). */
function tracedMySqlPool(pool: mysql.Pool, tracer: Tracer): mysql.Pool {
  type Query = (...args: unknown[]) => Promise<unknown>;
  const wrapConnection = (connection: mysql.PoolConnection) => ({
    query: (...args: unknown[]) => tracer.time(kindOf(sqlText(args[0])), () => (connection.query as unknown as Query)(...args)),
    release: () => connection.release(),
  });
  return {
    query: (...args: unknown[]) => tracer.time(kindOf(sqlText(args[0])), () => (pool.query as unknown as Query).apply(pool, args)),
    getConnection: async () => wrapConnection(await tracer.time('pool.getConnection', () => pool.getConnection())),
  } as unknown as mysql.Pool;
}

function tracedPgPool(pool: pg.Pool, tracer: Tracer): pg.Pool {
  type Query = (...args: unknown[]) => Promise<unknown>;
  const original = pool.query.bind(pool) as unknown as Query;
  (pool as unknown as { query: Query }).query = (...args: unknown[]) => tracer.time(kindOf(sqlText(args[0])), () => original(...args));
  return pool;
}

// ---------------------------------------------------------------------------------------------------------------
// The two repositories, each on its own traced pool (10 connections, as both backends' defaults)

const tracerOurs = new Tracer();
const tracerPeer = new Tracer();

// Ours: create the table through the backend (ensureSchema), then drive a SqlJobRepository on a traced pool.
{
  const schemaOnly = new MySqlBackend({ url: endpoints.mysqlUrl }, { tableName: TABLE });
  await schemaOnly.connect();
  await schemaOnly.disconnect();
}
const myPool = mysql.createPool({ uri: endpoints.mysqlUrl, connectionLimit: 10, timezone: 'Z', charset: 'utf8mb4' });
// The backend's claims go through a pool of their own with multi-statements on (see MySqlExecutor).
const myClaimPool = mysql.createPool({ uri: endpoints.mysqlUrl, connectionLimit: 4, timezone: 'Z', charset: 'utf8mb4', multipleStatements: true });
const ours = new SqlJobRepository(
  async () => new MySqlExecutor(tracedMySqlPool(myPool, tracerOurs), () => tracedMySqlPool(myClaimPool, tracerOurs)),
  TABLE,
);
await ours.connect();

const pgPool = new pg.Pool({ connectionString: endpoints.pgUrl, max: 10 });
const peerBackend = new PostgresBackend({ pool: tracedPgPool(pgPool, tracerPeer), tableName: TABLE, disableNotifications: true });
await peerBackend.connect();
const peer: JobRepository = peerBackend.repository;

const repos: { name: string; repo: JobRepository; tracer: Tracer; clean: () => Promise<unknown> }[] = [
  { name: 'ours (MariaDB)', repo: ours, tracer: tracerOurs, clean: () => myPool.query(`TRUNCATE TABLE \`${TABLE}\``) },
  { name: 'peer (Postgres)', repo: peer, tracer: tracerPeer, clean: () => pgPool.query(`TRUNCATE TABLE "${TABLE}"`) },
];

// ---------------------------------------------------------------------------------------------------------------

function newJob(seq: number): JobParameters {
  return { name: JOB, priority: 0, nextRunAt: new Date(Date.now() - 1000), type: 'normal', data: { seq } } as JobParameters;
}

async function pool(count: number, inflight: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(inflight, count) }, async () => {
    while (next < count) await task(next++);
  }));
}

async function enqueue(repo: JobRepository, count: number, offset = 0): Promise<void> {
  await pool(count, 8, async (i) => void (await repo.saveJob(newJob(offset + i), BY)));
}

const claimArgs = () => [JOB, new Date(Date.now() + 1000), new Date(Date.now() - 10 * 60_000), undefined, BY] as const;

/** One job's storage work as Agenda does it: claim, save state at start, save state at the end. */
async function runOne(repo: JobRepository): Promise<boolean> {
  const job = await repo.getNextJobToRun(...claimArgs());
  if (!job) return false;
  job.lastRunAt = new Date();
  job.nextRunAt = null;
  await repo.saveJobState(job, BY);
  job.lockedAt = undefined;
  job.lastFinishedAt = new Date();
  await repo.saveJobState(job, BY);
  return true;
}

interface OpStats {
  n: number;
  p50: number;
  p99: number;
  mean: number;
  roundTrips: number;
  byKind: Map<string, number[]>;
}

function opStats(runs: { ms: number; samples: Sample[] }[]): OpStats {
  const byKind = new Map<string, number[]>();
  for (const run of runs) for (const s of run.samples) byKind.set(s.kind, [...(byKind.get(s.kind) ?? []), s.ms]);
  const statements = runs.reduce((sum, run) => sum + run.samples.filter((s) => s.kind !== 'pool.getConnection').length, 0);
  const times = runs.map((r) => r.ms);
  return {
    n: runs.length,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    mean: times.reduce((a, b) => a + b, 0) / times.length,
    roundTrips: statements / runs.length,
    byKind,
  };
}

const out: string[] = [];
const say = (line = '') => {
  out.push(line);
  console.log(line);
};

say(`Claim-path profile: ${N} queued jobs, ${SERIAL} serial jobs measured per backend (claim + 2 x saveJobState)`);
say('');

const serialRows: string[][] = [];
const breakdown: string[][] = [];
const concurrentRows: string[][] = [];

for (const { name, repo, tracer, clean } of repos) {
  await clean();
  // Enqueue (timed as a whole; the per-insert cost is the mean).
  const enq = await tracer.op(() => enqueue(repo, N));
  serialRows.push([name, 'saveJob (insert), 8 in flight', fmt(N / (enq.ms / 1000), 0) + ' jobs/s', '', '', fmt(enq.samples.length / N, 1)]);

  // Warm-up of the claim path, then the serial measurement.
  for (let i = 0; i < 50; i++) await runOne(repo);
  const claims: { ms: number; samples: Sample[] }[] = [];
  const starts: { ms: number; samples: Sample[] }[] = [];
  const finishes: { ms: number; samples: Sample[] }[] = [];
  for (let i = 0; i < SERIAL; i++) {
    const claim = await tracer.op(() => repo.getNextJobToRun(...claimArgs()));
    const job = claim.value!;
    claims.push(claim);
    job.lastRunAt = new Date();
    job.nextRunAt = null;
    starts.push(await tracer.op(() => repo.saveJobState(job, BY)));
    job.lockedAt = undefined;
    job.lastFinishedAt = new Date();
    finishes.push(await tracer.op(() => repo.saveJobState(job, BY)));
  }
  for (const [label, runs] of [['getNextJobToRun (found)', claims], ['saveJobState (start)', starts], ['saveJobState (finish)', finishes]] as const) {
    const s = opStats([...runs]);
    serialRows.push([name, label, fmt(s.mean, 3), fmt(s.p50, 3), fmt(s.p99, 3), fmt(s.roundTrips, 1)]);
    if (label.startsWith('getNextJobToRun')) {
      for (const [kind, times] of s.byKind) {
        breakdown.push([name, kind, String(times.length), fmt(times.reduce((a, b) => a + b, 0) / times.length, 3), fmt(percentile(times, 99), 3)]);
      }
    }
  }

  // Concurrent claimers: the rest of the queue, 2 then 8 loops each doing claim + 2 saves until the queue is empty.
  const remaining = N - SERIAL - 50;
  const half = Math.floor(remaining / 2);
  for (const [loops, jobs] of [[2, half], [8, remaining - half]] as const) {
    tracer.statements = 0;
    let done = 0;
    const began = performance.now();
    await Promise.all(Array.from({ length: loops }, async () => {
      while (done < jobs) {
        if (!(await runOne(repo))) break;
        done++;
      }
    }));
    const seconds = (performance.now() - began) / 1000;
    concurrentRows.push([name, String(loops), String(done), fmt(done / seconds, 0), fmt(tracer.statements / done, 1)]);
  }

  // A claim that finds nothing (queue empty, N finished jobs in the table).
  const empties: { ms: number; samples: Sample[] }[] = [];
  for (let i = 0; i < 200; i++) empties.push(await tracer.op(() => repo.getNextJobToRun(...claimArgs())));
  const e = opStats(empties);
  serialRows.push([name, 'getNextJobToRun (queue empty)', fmt(e.mean, 3), fmt(e.p50, 3), fmt(e.p99, 3), fmt(e.roundTrips, 1)]);
}

say('Serial, one caller (ms per call; round trips = statements sent per call):');
say(table(['backend', 'operation', 'mean', 'p50', 'p99', 'round trips'], serialRows, [false, false, true, true, true, true]));
say('');
say('Claim (getNextJobToRun, job found) broken down by statement:');
say(table(['backend', 'statement', 'count', 'mean ms', 'p99 ms'], breakdown, [false, false, true, true, true]));
say('');
say('Concurrent loops of claim + 2 x saveJobState on one pool (10 connections):');
say(table(['backend', 'loops', 'jobs', 'jobs/s', 'statements/job'], concurrentRows, [false, true, true, true, true]));
for (const { name, tracer } of repos) {
  if (tracer.errors.size) say(`  ${name} errors: ${[...tracer.errors].map(([code, n]) => `${code} x${n}`).join(', ')}`);
}

// ---------------------------------------------------------------------------------------------------------------
// EXPLAIN with N due jobs queued (and the N finished ones from above still in the table)

say('');
say(`EXPLAIN with ${N} due jobs queued and ${N} finished jobs in the table:`);
await enqueue(ours, N, N);
await enqueue(peer, N, N);
await myPool.query(`ANALYZE TABLE \`${TABLE}\``);
await pgPool.query(`ANALYZE "${TABLE}"`);

const cols = 'id, name, priority, next_run_at, type, locked_at, last_finished_at, failed_at, fail_count, fail_reason, repeat_timezone, last_run_at, repeat_interval, data, repeat_at, disabled, progress, fork, last_modified_by, debounce_started_at, start_date, end_date, skip_days, dedupe_key';
const sqlNow = () => new Date(Date.now() + 1000).toISOString().replace('T', ' ').replace('Z', '');
const sqlDeadline = () => new Date(Date.now() - 600_000).toISOString().replace('T', ' ').replace('Z', '');
const dueSql = `SELECT ${cols} FROM \`${TABLE}\` WHERE name = ? AND disabled = 0 AND locked_at IS NULL AND next_run_at <= ? ORDER BY next_run_at ASC, priority DESC LIMIT 1 FOR UPDATE SKIP LOCKED`;
const expiredSql = `SELECT ${cols} FROM \`${TABLE}\` WHERE name = ? AND disabled = 0 AND locked_at <= ? ORDER BY (next_run_at IS NULL) ASC, next_run_at ASC, priority DESC LIMIT 1 FOR UPDATE SKIP LOCKED`;
{
  const connection = await myPool.getConnection();
  try {
    await connection.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED');
    const coveringDueSql = dueSql.replace(`SELECT ${cols} FROM`, 'SELECT id, next_run_at, priority FROM');
    for (const [label, sql, param] of [
      ['due (as the backend sends it)', dueSql, sqlNow()],
      ['expired (as the backend sends it)', expiredSql, sqlDeadline()],
      ['due, covering columns only (id, next_run_at, priority)', coveringDueSql, sqlNow()],
    ] as const) {
      const [rows] = await connection.query(`EXPLAIN ${sql}`, [JOB, param]);
      say(`  MariaDB claim SELECT ${label}:`);
      for (const row of rows as Record<string, unknown>[]) {
        say(`    EXPLAIN: type=${row.type} key=${row.key} key_len=${row.key_len} ref=${row.ref} rows=${row.rows} Extra=${row.Extra}`);
      }
      await connection.query('FLUSH STATUS'); // commits implicitly: before the transaction
      await connection.query('START TRANSACTION');
      const began = performance.now();
      await connection.query(sql, [JOB, param]);
      const ms = performance.now() - began;
      const [status] = await connection.query("SHOW SESSION STATUS WHERE Variable_name IN ('Handler_icp_attempts', 'Handler_read_next')");
      // InnoDB refreshes its INFORMATION_SCHEMA transaction cache at most every 100 ms.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const [trx] = await connection.query(
        'SELECT trx_rows_locked, trx_lock_structs FROM information_schema.INNODB_TRX WHERE trx_mysql_thread_id = CONNECTION_ID()',
      );
      const counters = (status as { Variable_name: string; Value: string }[]).map((r) => `${r.Variable_name}=${r.Value}`).join(' ');
      const locks = (trx as { trx_rows_locked: number; trx_lock_structs: number }[])[0];
      say(`    run: ${fmt(ms, 3)} ms round trip, ${counters}, row locks held until commit=${locks?.trx_rows_locked ?? 0}`);
      await connection.query('ROLLBACK');
      await connection.query('START TRANSACTION');
      const [analyzed] = await connection.query(`ANALYZE FORMAT=JSON ${sql}`, [JOB, param]);
      const json = JSON.parse(String((analyzed as Record<string, unknown>[])[0]!['ANALYZE'])) as unknown;
      say(`    ANALYZE: ${summarizeMariaAnalyze(json)}`);
      await connection.query('ROLLBACK');
    }
  } finally {
    connection.release();
  }
}
{
  const client = await pgPool.connect();
  try {
    await client.query('BEGIN');
    const plan = await client.query(
      `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) UPDATE "${TABLE}" SET locked_at = $1, last_modified_by = $5 WHERE id = (
         SELECT id FROM "${TABLE}" WHERE name = $2 AND disabled = FALSE
           AND ((locked_at IS NULL AND next_run_at <= $3) OR locked_at <= $4)
         ORDER BY next_run_at ASC NULLS LAST, priority DESC LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING *`,
      [new Date(), JOB, new Date(Date.now() + 1000), new Date(Date.now() - 600_000), 'explain'],
    );
    await client.query('ROLLBACK');
    say('  PostgreSQL claim (UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED) RETURNING *):');
    for (const row of plan.rows as { 'QUERY PLAN': string }[]) say(`    ${row['QUERY PLAN']}`);
  } finally {
    client.release();
  }
}

function summarizeMariaAnalyze(json: unknown): string {
  const found: string[] = [];
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if (record.table && typeof record.table === 'object') {
      const t = record.table as Record<string, unknown>;
      found.push(
        `table=${t.table_name} access=${t.access_type} key=${t.key} used_key_parts=${JSON.stringify(t.used_key_parts)} ` +
          `r_loops=${t.r_loops} rows=${t.rows} r_rows=${t.r_rows} r_total_time_ms=${fmt(Number(t.r_total_time_ms), 3)} ` +
          `filtered=${t.filtered} r_filtered=${t.r_filtered}${t.attached_condition ? '' : ''}`,
      );
    }
    if (record.filesort) found.push('filesort');
    for (const value of Object.values(record)) walk(value);
  };
  walk(json);
  const root = (json as { query_block?: { r_total_time_ms?: number } }).query_block;
  return `${found.join(' | ')} | query r_total_time_ms=${fmt(Number(root?.r_total_time_ms), 3)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Alternative claim statements on MariaDB (D is the one the backend adopted; see the header)

say('');
say('Alternative claim statements on MariaDB, same table and index (serial, then 8 concurrent claimers):');
const altOptions = { uri: endpoints.mysqlUrl, connectionLimit: 10, timezone: 'Z', charset: 'utf8mb4', dateStrings: true } as const;
const altPool = mysql.createPool(altOptions);
// For D only: several statements in one round trip (every value is still a bound parameter).
const multiPool = mysql.createPool({ ...altOptions, multipleStatements: true });
for (const p of [altPool, multiPool]) {
  // Isolation set once per connection instead of once per claim. (mysql2 hands over the callback-style
  // connection here, whatever its typings say; commands on a connection run in order, so this one goes first.)
  p.on('connection', (connection) => {
    void connection.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED');
  });
}
const altTracer = new Tracer();
const alt = tracedMySqlPool(altPool, altTracer);
const multi = tracedMySqlPool(multiPool, altTracer);
const lockedAt = () => new Date().toISOString().replace('T', ' ').replace('Z', '');
const dueIdSql = `SELECT id, next_run_at INTO @due, @due_at FROM \`${TABLE}\` WHERE name = ? AND disabled = 0 AND locked_at IS NULL AND next_run_at <= ? ORDER BY next_run_at ASC, priority DESC LIMIT 1 FOR UPDATE SKIP LOCKED`;
const expiredIdSql = `SELECT id, next_run_at INTO @exp, @exp_at FROM \`${TABLE}\` WHERE name = ? AND disabled = 0 AND locked_at <= ? ORDER BY (next_run_at IS NULL) ASC, next_run_at ASC, priority DESC LIMIT 1 FOR UPDATE SKIP LOCKED`;

type Claim = () => Promise<string | undefined>;
const alternatives: [string, Claim][] = [
  [
    'A. today minus per-claim SET TRANSACTION (RC set per session)',
    async () => {
      const c = await alt.getConnection();
      try {
        await c.query('START TRANSACTION');
        const [due] = await c.query(dueSql, [JOB, sqlNow()]);
        await c.query(expiredSql, [JOB, sqlDeadline()]);
        const row = (due as { id: string }[])[0];
        if (row) await c.query(`UPDATE \`${TABLE}\` SET locked_at = ?, last_modified_by = ? WHERE id = ?`, [lockedAt(), 'alt', row.id]);
        await c.query('COMMIT');
        return row?.id;
      } finally {
        c.release();
      }
    },
  ],
  [
    'B. A + both reads in one (SELECT due…) UNION ALL (SELECT expired…)',
    async () => {
      const c = await alt.getConnection();
      try {
        await c.query('START TRANSACTION');
        const [rows] = await c.query(`(${dueSql}) UNION ALL (${expiredSql})`, [JOB, sqlNow(), JOB, sqlDeadline()]);
        const row = (rows as { id: string }[])[0];
        if (row) await c.query(`UPDATE \`${TABLE}\` SET locked_at = ?, last_modified_by = ? WHERE id = ?`, [lockedAt(), 'alt', row.id]);
        await c.query('COMMIT');
        return row?.id;
      } finally {
        c.release();
      }
    },
  ],
  [
    'C. autocommit UPDATE…ORDER BY…LIMIT 1 (id into @claimed) + SELECT row',
    async () => {
      const c = await alt.getConnection();
      try {
        await c.query('SET @claimed = NULL');
        const [result] = await c.query(
          `UPDATE \`${TABLE}\` SET locked_at = ?, last_modified_by = IF((@claimed := id) IS NULL, NULL, ?)
            WHERE name = ? AND disabled = 0 AND locked_at IS NULL AND next_run_at <= ?
            ORDER BY next_run_at ASC, priority DESC LIMIT 1`,
          [lockedAt(), 'alt', JOB, sqlNow()],
        );
        if ((result as { affectedRows: number }).affectedRows !== 1) return undefined;
        const [rows] = await c.query(`SELECT ${cols} FROM \`${TABLE}\` WHERE id = @claimed`);
        return (rows as { id: string }[])[0]?.id;
      } finally {
        c.release();
      }
    },
  ],
  [
    'D. the same transaction (both reads) sent as ONE multi-statement',
    async () => {
      const [results] = await multi.query(
        `SET @due = NULL, @due_at = NULL, @exp = NULL, @exp_at = NULL;
         START TRANSACTION;
         ${dueIdSql};
         ${expiredIdSql};
         SET @claimed = CASE WHEN @due IS NULL THEN @exp WHEN @exp IS NULL OR @exp_at IS NULL THEN @due
                             WHEN @exp_at < @due_at THEN @exp ELSE @due END;
         UPDATE \`${TABLE}\` SET locked_at = ?, last_modified_by = ? WHERE id = @claimed;
         COMMIT;
         SELECT ${cols} FROM \`${TABLE}\` WHERE id = @claimed`,
        [JOB, sqlNow(), JOB, sqlDeadline(), lockedAt(), 'alt'],
      );
      const sets = results as unknown[];
      return (sets[sets.length - 1] as { id: string }[])[0]?.id;
    },
  ],
];

/** Retries a claim that lost a deadlock (InnoDB rolled it back), counting how often. */
function retrying(claim: Claim, counter: { deadlocks: number }): Claim {
  return async () => {
    for (;;) {
      try {
        return await claim();
      } catch (error) {
        if ((error as { errno?: number }).errno !== 1213) throw error;
        counter.deadlocks++;
      }
    }
  };
}

const altRows: string[][] = [];
for (const [label, rawClaim] of alternatives) {
  const counter = { deadlocks: 0 };
  const claim = retrying(rawClaim, counter);
  await myPool.query(`TRUNCATE TABLE \`${TABLE}\``);
  await enqueue(ours, N);
  for (let i = 0; i < 50; i++) await claim();
  const runs: { ms: number; samples: Sample[] }[] = [];
  for (let i = 0; i < SERIAL; i++) runs.push(await altTracer.op(claim));
  const s = opStats(runs);
  // Concurrency: 8 claimers, every claimed id must be distinct.
  const seen = new Set<string>();
  let duplicates = 0;
  const target = N - SERIAL - 50;
  const began = performance.now();
  await Promise.all(Array.from({ length: 8 }, async () => {
    for (;;) {
      const id = await claim();
      if (!id) return;
      if (seen.has(id)) duplicates++;
      seen.add(id);
    }
  }));
  const seconds = (performance.now() - began) / 1000;
  const row = [label, fmt(s.mean, 3), fmt(s.p50, 3), fmt(s.p99, 3), fmt(s.roundTrips, 1), fmt(seen.size / seconds, 0), `${seen.size}/${target}`, String(duplicates), String(counter.deadlocks)];
  altRows.push(row);
  console.log(`  ${row.join(' | ')}`);
}
say(table(['variant', 'mean', 'p50', 'p99', 'round trips', 'claims/s (8)', 'claimed', 'dup', 'deadlocks'], altRows, [false, true, true, true, true, true, false, true, true]));

// ---------------------------------------------------------------------------------------------------------------

await myPool.query(`DROP TABLE IF EXISTS \`${TABLE}\``);
await pgPool.query(`DROP TABLE IF EXISTS "${TABLE}"`);
await altPool.end();
await multiPool.end();
await myPool.end();
await myClaimPool.end();
await peerBackend.disconnect();
await pgPool.end();
