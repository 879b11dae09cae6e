import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { JobParameters } from 'agenda';
import { DEFAULT_TABLE_NAME, MySqlBackend, SqlJobRepository } from '../../../src/queue/mysql-backend/index.js';
import type { ClaimSpec } from '../../../src/queue/mysql-backend/claim.js';
import { claimStatements } from '../../../src/queue/mysql-backend/mysql-executor.js';
import { toSqlDate } from '../../../src/queue/mysql-backend/sql-dates.js';
import type { SqlExecutor } from '../../../src/queue/mysql-backend/sql-executor.js';
import { readQueueDepth } from '../../../src/queue/queue-depth.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

const minute = 60_000;
const ago = (ms: number) => new Date(Date.now() - ms);
const ahead = (ms: number) => new Date(Date.now() + ms);

function job(overrides: Partial<JobParameters> & { name: string }): JobParameters {
  return { priority: 0, nextRunAt: new Date(), type: 'normal', data: {}, ...overrides };
}

forEachDialect('MySqlBackend repository', (dialect) => {
  const store = useTestStore(dialect);
  let repo: SqlJobRepository;
  let backend: MySqlBackend;
  /** What the backend said of each job it locked (its `onClaim`). */
  let claims: { jobName: string; takeover: boolean }[];

  beforeEach(async () => {
    claims = [];
    backend = new MySqlBackend({ dataSource: store() }, { ensureSchema: false, onClaim: (claim) => claims.push(claim) });
    await backend.connect();
    repo = backend.repository;
  });

  afterEach(async () => {
    await backend.disconnect();
    expect(store().isInitialized).toBe(true);
  });

  describe('saving', () => {
    it('gives a new job a time-ordered UUID and reads it back field for field', async () => {
      const nextRunAt = new Date('2030-01-02T03:04:05.678Z');
      const saved = await repo.saveJob(
        job({ name: 'report', priority: 10, nextRunAt, data: { org: 'acme', nested: { list: [1, 'two', null] }, text: 'é 🚀 "quoted"' } }),
        { lastModifiedBy: 'tester' },
      );
      expect(saved._id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const read = await repo.getJobById(saved._id!);
      expect(read).toMatchObject({
        _id: saved._id,
        name: 'report',
        priority: 10,
        nextRunAt,
        type: 'normal',
        data: { org: 'acme', nested: { list: [1, 'two', null] }, text: 'é 🚀 "quoted"' },
        disabled: false,
        lastModifiedBy: 'tester',
      });
      expect(read!.lockedAt).toBeUndefined();
      const second = await repo.saveJob(job({ name: 'report' }), undefined);
      expect(second._id! > saved._id!).toBe(true);
    });

    it('stages a new job as the INSERT a save would run, committed by the caller, and refuses jobs a save would upsert', async () => {
      const nextRunAt = new Date('2030-01-02T03:04:05.678Z');
      const staged = backend.stageInsert(job({ name: 'staged', priority: 3, nextRunAt, data: { jobId: 'j-1' } }), 'stager');
      expect(await repo.getJobById(staged.id)).toBeNull();
      await store().transaction((manager) => manager.query(staged.statement.sql, staged.statement.params));
      const saved = await repo.saveJob(job({ name: 'staged', priority: 3, nextRunAt, data: { jobId: 'j-1' } }), { lastModifiedBy: 'stager' });
      const { _id: stagedId, ...stagedFields } = (await repo.getJobById(staged.id))!;
      const { _id: savedId, ...savedFields } = (await repo.getJobById(saved._id!))!;
      expect([stagedId, String(savedId) > String(stagedId)]).toEqual([staged.id, true]);
      expect(stagedFields).toEqual(savedFields);
      expect(() => backend.stageInsert(job({ name: 'tick', type: 'single' }))).toThrow(/saveJob/);
      expect(() => backend.stageInsert(job({ name: 'once', unique: { 'data.k': 1 } }))).toThrow(/saveJob/);
      expect(() => backend.stageInsert({ ...saved })).toThrow(/saveJob/);
    });

    it('keeps data that is not an object: strings, numbers, null', async () => {
      for (const data of ['plain text', 42, null, ['a', 1]]) {
        const saved = await repo.saveJob(job({ name: 'scalar', data }), undefined);
        expect((await repo.getJobById(saved._id!))!.data).toEqual(data);
      }
    });

    it('updates a job by id, and returns the caller’s job unchanged when it was removed meanwhile', async () => {
      const saved = await repo.saveJob(job({ name: 'update-me', data: { v: 1 } }), undefined);
      const updated = await repo.saveJob({ ...saved, data: { v: 2 }, priority: 5, disabled: true }, undefined);
      expect(updated).toMatchObject({ _id: saved._id, data: { v: 2 }, priority: 5, disabled: true });
      await repo.removeJobs({ id: saved._id! });
      const ghost = { ...saved, data: { v: 3 } };
      await expect(repo.saveJob(ghost, undefined)).resolves.toBe(ghost);
      expect(await repo.getJobById(saved._id!)).toBeNull();
    });

    it('upserts single jobs by name, keeping an already scheduled run when the new save asks for "now"', async () => {
      const scheduled = ahead(5 * minute);
      const first = await repo.saveJob(job({ name: 'tick', type: 'single', nextRunAt: scheduled, repeatInterval: '5 minutes', data: { a: 1 } }), undefined);
      const again = await repo.saveJob(job({ name: 'tick', type: 'single', nextRunAt: ago(10), repeatInterval: '1 minute', data: { a: 2 } }), undefined);
      expect(again._id).toBe(first._id);
      expect(again.nextRunAt).toEqual(scheduled);
      expect(again).toMatchObject({ repeatInterval: '1 minute', data: { a: 2 } });
      const later = ahead(30 * minute);
      const moved = await repo.saveJob(job({ name: 'tick', type: 'single', nextRunAt: later }), undefined);
      expect(moved.nextRunAt).toEqual(later);
      expect((await repo.queryJobs({ name: 'tick' })).total).toBe(1);
    });

    it('upserts unique jobs by their unique query, comparing values as text and ignoring key order', async () => {
      const a = await repo.saveJob(job({ name: 'sync', data: { user: 7, kind: 'full', v: 1 }, unique: { 'data.user': 7, 'data.kind': 'full' } }), undefined);
      const b = await repo.saveJob(job({ name: 'sync', data: { user: 7, kind: 'full', v: 2 }, unique: { 'data.kind': 'full', 'data.user': '7' } }), undefined);
      expect(b._id).toBe(a._id);
      expect((await repo.getJobById(a._id!))!.data).toEqual({ user: 7, kind: 'full', v: 2 });
      const other = await repo.saveJob(job({ name: 'sync', data: { user: 8 }, unique: { 'data.user': 8 } }), undefined);
      expect(other._id).not.toBe(a._id);
      const otherName = await repo.saveJob(job({ name: 'sync-2', data: { user: 7, kind: 'full' }, unique: { 'data.user': 7, 'data.kind': 'full' } }), undefined);
      expect(otherName._id).not.toBe(a._id);
    });

    it('leaves an existing unique job untouched with insertOnly', async () => {
      const unique = { 'data.key': 'k' };
      const first = await repo.saveJob(job({ name: 'once', data: { key: 'k', v: 'first' }, unique, uniqueOpts: { insertOnly: true } }), undefined);
      const second = await repo.saveJob(job({ name: 'once', data: { key: 'k', v: 'second' }, unique, uniqueOpts: { insertOnly: true } }), undefined);
      expect(second._id).toBe(first._id);
      expect(second.data).toEqual({ key: 'k', v: 'first' });
      expect((await repo.getJobById(first._id!))!.data).toEqual({ key: 'k', v: 'first' });
    });

    it('keeps one row when many saves of the same unique job race each other', async () => {
      const unique = { 'data.tenant': 'acme' };
      const saves = Array.from({ length: 25 }, (_, i) =>
        repo.saveJob(job({ name: 'race', data: { tenant: 'acme', i }, unique }), undefined),
      );
      const results = await Promise.all(saves);
      expect(new Set(results.map((r) => r._id)).size).toBe(1);
      expect((await repo.queryJobs({ name: 'race' })).total).toBe(1);
    });

    it('debounces trailing saves: each save pushes the run back by the delay', async () => {
      const unique = { 'data.doc': 'd1' };
      const debounce = { delay: 2_000 };
      const t0 = Date.now();
      const first = await repo.saveJob(job({ name: 'reindex', data: { doc: 'd1' }, unique, uniqueOpts: { debounce } }), undefined);
      expect(first.nextRunAt!.getTime()).toBeGreaterThanOrEqual(t0 + 2_000);
      expect(first.debounceStartedAt).toBeDefined();
      await new Promise((resolve) => setTimeout(resolve, 30));
      const second = await repo.saveJob(job({ name: 'reindex', data: { doc: 'd1', n: 2 }, unique, uniqueOpts: { debounce } }), undefined);
      expect(second._id).toBe(first._id);
      expect(second.nextRunAt!.getTime()).toBeGreaterThan(first.nextRunAt!.getTime());
      expect(second.debounceStartedAt).toEqual(first.debounceStartedAt);
    });

    it('debounces with maxWait: once maxWait has passed since the first save, the job runs now', async () => {
      const unique = { 'data.doc': 'd2' };
      const uniqueOpts = { debounce: { delay: 10_000, maxWait: 50 } };
      const first = await repo.saveJob(job({ name: 'reindex', data: { doc: 'd2' }, unique, uniqueOpts }), undefined);
      await new Promise((resolve) => setTimeout(resolve, 80));
      const before = Date.now();
      const forced = await repo.saveJob(job({ name: 'reindex', data: { doc: 'd2' }, unique, uniqueOpts }), undefined);
      expect(forced._id).toBe(first._id);
      expect(forced.nextRunAt!.getTime()).toBeLessThanOrEqual(Date.now());
      expect(forced.nextRunAt!.getTime()).toBeGreaterThanOrEqual(before - 5);
      expect(forced.debounceStartedAt).toBeUndefined();
    });

    it('debounces leading saves: the first run time stays, the data follows the latest save', async () => {
      const unique = { 'data.doc': 'd3' };
      const uniqueOpts = { debounce: { delay: 5_000, strategy: 'leading' as const } };
      const now = new Date();
      const first = await repo.saveJob(job({ name: 'notify', nextRunAt: now, data: { doc: 'd3', v: 1 }, unique, uniqueOpts }), undefined);
      expect(first.nextRunAt).toEqual(now);
      const second = await repo.saveJob(job({ name: 'notify', nextRunAt: ahead(minute), data: { doc: 'd3', v: 2 }, unique, uniqueOpts }), undefined);
      expect(second.nextRunAt).toEqual(now);
      expect(second.data).toEqual({ doc: 'd3', v: 2 });
    });
  });

  describe('querying', () => {
    beforeEach(async () => {
      await repo.saveJob(job({ name: 'alpha-report', priority: 10, nextRunAt: ahead(minute), data: { org: 'a', tags: ['x', 'y'] } }), undefined);
      await repo.saveJob(job({ name: 'alpha-report', priority: 0, nextRunAt: ago(minute), data: { org: 'b' } }), undefined);
      await repo.saveJob(job({ name: 'beta-sync', priority: 5, nextRunAt: ago(2 * minute), data: { org: 'a', deep: { k: 1 } }, disabled: true }), undefined);
      await repo.saveJob(job({ name: 'gamma', nextRunAt: null, data: {} }), undefined);
    });

    it('filters by name, names, search, ids and data containment', async () => {
      expect((await repo.queryJobs({ name: 'alpha-report' })).total).toBe(2);
      expect((await repo.queryJobs({ names: ['beta-sync', 'gamma'] })).total).toBe(2);
      expect((await repo.queryJobs({ search: 'ALPHA' })).total).toBe(2);
      expect((await repo.queryJobs({ data: { org: 'a' } })).total).toBe(2);
      expect((await repo.queryJobs({ data: { tags: ['y'] } })).total).toBe(1);
      expect((await repo.queryJobs({ data: { deep: { k: 1 } } })).jobs.map((j) => j.name)).toEqual(['beta-sync']);
      expect((await repo.queryJobs({ data: { org: 'zzz' } })).total).toBe(0);
      const all = await repo.queryJobs();
      const ids = all.jobs.slice(0, 2).map((j) => j._id);
      expect((await repo.queryJobs({ ids })).jobs.map((j) => j._id).sort()).toEqual([...ids].sort());
      expect((await repo.queryJobs({ id: ids[0] })).total).toBe(1);
    });

    it('hides disabled jobs on request and reports them as paused', async () => {
      expect((await repo.queryJobs({ includeDisabled: false })).total).toBe(3);
      const paused = await repo.queryJobs({ state: 'paused' });
      expect(paused.jobs.map((j) => j.name)).toEqual(['beta-sync']);
    });

    it('computes each job’s state and filters by it', async () => {
      const states = Object.fromEntries((await repo.queryJobs()).jobs.map((j) => [`${j.name}/${j.priority}`, j.state]));
      expect(states).toEqual({
        'alpha-report/10': 'scheduled',
        'alpha-report/0': 'queued',
        'beta-sync/5': 'queued',
        'gamma/0': 'completed',
      });
      expect((await repo.queryJobs({ state: 'scheduled' })).total).toBe(1);
      expect((await repo.queryJobs({ state: 'queued', limit: 1 })).jobs).toHaveLength(1);
      expect((await repo.queryJobs({ state: 'queued', limit: 1 })).total).toBe(2);
    });

    it('sorts with missing dates last and pages with a total before paging', async () => {
      const byNextRun = await repo.queryJobs({ sort: { nextRunAt: 'asc' } });
      expect(byNextRun.jobs.map((j) => j.name)).toEqual(['beta-sync', 'alpha-report', 'alpha-report', 'gamma']);
      const byPriority = await repo.queryJobs({ sort: { priority: 'desc' } });
      expect(byPriority.jobs.map((j) => j.priority)).toEqual([10, 5, 0, 0]);
      const page = await repo.queryJobs({ sort: { nextRunAt: 'asc' }, skip: 1, limit: 2 });
      expect(page.total).toBe(4);
      expect(page.jobs.map((j) => j.name)).toEqual(['alpha-report', 'alpha-report']);
      expect((await repo.queryJobs({ sort: { nextRunAt: 'asc' }, skip: 3 })).jobs.map((j) => j.name)).toEqual(['gamma']);
    });

    it('lists distinct names, counts due jobs and summarises every name', async () => {
      expect(await repo.getDistinctJobNames()).toEqual(['alpha-report', 'beta-sync', 'gamma']);
      expect(await repo.getQueueSize()).toBe(2);
      const overview = await repo.getJobsOverview();
      expect(overview).toEqual([
        { name: 'alpha-report', total: 2, running: 0, scheduled: 1, queued: 1, completed: 0, failed: 0, repeating: 0, paused: 0 },
        { name: 'beta-sync', total: 1, running: 0, scheduled: 0, queued: 1, completed: 0, failed: 0, repeating: 0, paused: 1 },
        { name: 'gamma', total: 1, running: 0, scheduled: 0, queued: 0, completed: 1, failed: 0, repeating: 0, paused: 0 },
      ]);
    });

    it('returns null for an unknown id, whatever its shape', async () => {
      for (const id of ['0190c0de-0000-7000-8000-000000000000', 'not-a-uuid', "' OR '1'='1", '']) {
        expect(await repo.getJobById(id)).toBeNull();
      }
    });
  });

  describe('removing, disabling, enabling', () => {
    let ids: string[];
    beforeEach(async () => {
      ids = [];
      for (const [name, data] of [['a', { t: 1 }], ['a', { t: 2 }], ['b', { t: 1 }], ['c', { t: 3 }]] as const) {
        ids.push((await repo.saveJob(job({ name, data }), undefined))._id!);
      }
    });

    it('removes by id, ids, name, names, notNames and data, and nothing without a selection', async () => {
      expect(await repo.removeJobs({})).toBe(0);
      expect(await repo.removeJobs({ ids: [] })).toBe(0);
      expect(await repo.removeJobs({ id: ids[0] })).toBe(1);
      expect(await repo.removeJobs({ data: { t: 1 } })).toBe(1);
      expect(await repo.removeJobs({ notNames: ['c'] })).toBe(1);
      expect(await repo.getDistinctJobNames()).toEqual(['c']);
      expect(await repo.removeJobs({ names: ['c', 'zzz'] })).toBe(1);
      expect(await repo.removeJobs({ name: 'a' })).toBe(0);
    });

    it('combines a name with data when both are given', async () => {
      expect(await repo.removeJobs({ name: 'a', data: { t: 1 } })).toBe(1);
      expect((await repo.queryJobs({ name: 'b' })).total).toBe(1);
    });

    it('disables and enables by the same selection and counts matched jobs', async () => {
      expect(await repo.disableJobs({})).toBe(0);
      expect(await repo.disableJobs({ name: 'a' })).toBe(2);
      expect(await repo.disableJobs({ name: 'a' })).toBe(2);
      expect((await repo.queryJobs({ state: 'paused' })).total).toBe(2);
      expect(await repo.enableJobs({ ids: [ids[0]!] })).toBe(1);
      expect((await repo.queryJobs({ state: 'paused' })).total).toBe(1);
    });

    it('purges everything and says how much', async () => {
      expect(await repo.purgeAllJobs()).toBe(4);
      expect(await repo.getDistinctJobNames()).toEqual([]);
    });
  });

  describe('locking and claiming', () => {
    const scan = () => ahead(1_000);
    const deadline = () => ago(10 * minute);

    it('locks a known job once, only at the run time the caller saw', async () => {
      const saved = await repo.saveJob(job({ name: 'lock', nextRunAt: ago(1_000) }), undefined);
      expect(await repo.lockJob({ ...saved, nextRunAt: ago(5_000) }, undefined)).toBeUndefined();
      const locked = await repo.lockJob(saved, { lastModifiedBy: 'w1' });
      expect(locked).toMatchObject({ _id: saved._id, lastModifiedBy: 'w1' });
      expect(locked!.lockedAt).toBeInstanceOf(Date);
      expect(await repo.lockJob(saved, { lastModifiedBy: 'w2' })).toBeUndefined();
    });

    it('does not lock a disabled job, or one without an id', async () => {
      const saved = await repo.saveJob(job({ name: 'lock', disabled: true }), undefined);
      expect(await repo.lockJob(saved, undefined)).toBeUndefined();
      expect(await repo.lockJob(job({ name: 'lock' }), undefined)).toBeUndefined();
    });

    it('claims the earliest due job first, then the higher priority among equals', async () => {
      const when = ago(minute);
      await repo.saveJob(job({ name: 'claim', nextRunAt: when, priority: 0, data: { n: 'low' } }), undefined);
      await repo.saveJob(job({ name: 'claim', nextRunAt: when, priority: 20, data: { n: 'high' } }), undefined);
      await repo.saveJob(job({ name: 'claim', nextRunAt: ago(2 * minute), priority: -10, data: { n: 'oldest' } }), undefined);
      await repo.saveJob(job({ name: 'claim', nextRunAt: ahead(minute), priority: 50, data: { n: 'future' } }), undefined);
      const order: unknown[] = [];
      for (let i = 0; i < 4; i++) {
        const claimed = await repo.getNextJobToRun('claim', scan(), deadline(), undefined, { lastModifiedBy: 'w' });
        order.push(claimed && (claimed.data as { n: string }).n);
      }
      expect(order).toEqual(['oldest', 'high', 'low', undefined]);
    });

    it('claims within the scan window, sets the lock time and owner, and skips disabled jobs', async () => {
      await repo.saveJob(job({ name: 'window', nextRunAt: ahead(500), disabled: true }), undefined);
      const soon = await repo.saveJob(job({ name: 'window', nextRunAt: ahead(500) }), undefined);
      const lockTime = new Date(Date.now() - 3);
      const claimed = await repo.getNextJobToRun('window', scan(), deadline(), lockTime, { lastModifiedBy: 'owner-1' });
      expect(claimed).toMatchObject({ _id: soon._id, lockedAt: lockTime, lastModifiedBy: 'owner-1' });
      expect((await repo.getJobById(soon._id!))!.lockedAt).toEqual(lockTime);
      expect(await repo.getNextJobToRun('window', scan(), deadline(), undefined, undefined)).toBeUndefined();
      expect(await repo.getNextJobToRun('window', new Date(), deadline(), undefined, undefined)).toBeUndefined();
    });

    it('takes over a job whose lock expired, even mid-run (no next run), but not a fresh lock', async () => {
      // The live worker's lock first: a dead worker's run, once there, is claimed before anything due.
      const fresh = await repo.saveJob(job({ name: 'stale', nextRunAt: ago(minute) }), undefined);
      await repo.getNextJobToRun('stale', scan(), deadline(), new Date(), { lastModifiedBy: 'live-worker' });
      const running = await repo.saveJob(job({ name: 'stale', nextRunAt: ago(minute) }), undefined);
      await repo.getNextJobToRun('stale', scan(), deadline(), ago(20 * minute), { lastModifiedBy: 'dead-worker' });
      await repo.saveJobState({ ...(await repo.getJobById(running._id!))!, nextRunAt: null, lastRunAt: ago(20 * minute) }, { lastModifiedBy: 'dead-worker' });
      const taken = await repo.getNextJobToRun('stale', scan(), deadline(), undefined, { lastModifiedBy: 'rescuer' });
      expect(taken).toMatchObject({ _id: running._id, lastModifiedBy: 'rescuer' });
      expect(await repo.getNextJobToRun('stale', scan(), deadline(), undefined, undefined)).toBeUndefined();
      expect((await repo.getJobById(fresh._id!))!.lastModifiedBy).toBe('live-worker');
    });

    it('takes over a run whose worker died before the due jobs of a backlog, which would otherwise starve it', async () => {
      const running = await repo.saveJob(job({ name: 'backlog', nextRunAt: ago(minute) }), undefined);
      await repo.getNextJobToRun('backlog', scan(), deadline(), ago(20 * minute), { lastModifiedBy: 'dead-worker' });
      await repo.saveJobState({ ...(await repo.getJobById(running._id!))!, nextRunAt: null, lastRunAt: ago(20 * minute) }, { lastModifiedBy: 'dead-worker' });
      // Waiting longer than the dead run has been due: in claim order alone it would come first.
      const waiting = await repo.saveJob(job({ name: 'backlog', nextRunAt: ago(30 * minute) }), undefined);
      expect(await repo.getNextJobToRun('backlog', scan(), deadline(), undefined, { lastModifiedBy: 'rescuer' })).toMatchObject({ _id: running._id, lastModifiedBy: 'rescuer' });
      expect(await repo.getNextJobToRun('backlog', scan(), deadline(), undefined, { lastModifiedBy: 'rescuer' })).toMatchObject({ _id: waiting._id });
      // The metrics' claims and takeovers: only the claim of the expired lock is a takeover.
      expect(claims).toEqual([false, true, false].map((takeover) => ({ jobName: 'backlog', takeover })));
    });

    it('claims a scan of several kinds after one read that finds the kinds with work, and only those', async () => {
      // Behind a repository on the same connection that counts what it sends.
      const executor = repo.detach()!;
      const sent = { probes: 0, claims: 0 };
      const counting: SqlExecutor = Object.assign(Object.create(executor) as SqlExecutor, {
        select: <R>(sql: string, params?: unknown[]) => ((sent.probes += sql.startsWith('SELECT (EXISTS') ? 1 : 0), executor.select<R>(sql, params)),
        claim: (spec: ClaimSpec) => ((sent.claims += 1), executor.claim(spec)),
      });
      const scanner = new SqlJobRepository(async () => counting, DEFAULT_TABLE_NAME);
      await scanner.connect();
      try {
        const due = await scanner.saveJob(job({ name: 'due', nextRunAt: ago(minute) }), undefined);
        const dead = await scanner.saveJob(job({ name: 'dead', nextRunAt: ago(minute) }), undefined);
        await scanner.lockJob(dead, { lastModifiedBy: 'dead-worker' });
        await scanner.saveJobState({ ...(await scanner.getJobById(dead._id!))!, lockedAt: ago(20 * minute), nextRunAt: null }, { lastModifiedBy: 'dead-worker' });
        const live = await scanner.saveJob(job({ name: 'live', nextRunAt: ago(minute) }), undefined);
        await scanner.lockJob(live, { lastModifiedBy: 'live-worker' });
        await scanner.saveJob(job({ name: 'later', nextRunAt: ahead(minute) }), undefined);
        await scanner.saveJob(job({ name: 'paused', nextRunAt: ago(minute), disabled: true }), undefined);
        const kinds = ['due', 'dead', 'live', 'later', 'paused', 'never-saved'];
        const scanOnce = () => Promise.all(kinds.map((name) => scanner.getNextJobToRun(name, scan(), deadline(), undefined, { lastModifiedBy: 'scanner' })));

        const claimed = await scanOnce();
        expect(claimed.map((one) => one?._id)).toEqual([due._id, dead._id, undefined, undefined, undefined, undefined]);
        expect(sent).toEqual({ probes: 1, claims: 2 });
        // Idle: one read, no claim at all.
        expect(await scanOnce()).toEqual(kinds.map(() => undefined));
        expect(sent).toEqual({ probes: 2, claims: 2 });
        // One kind alone (Agenda woken by a save) goes straight to its claim.
        const woken = await scanner.saveJob(job({ name: 'later', nextRunAt: ago(1_000) }), undefined);
        expect(await scanner.getNextJobToRun('later', scan(), deadline(), undefined, { lastModifiedBy: 'scanner' })).toMatchObject({ _id: woken._id });
        expect(sent).toEqual({ probes: 2, claims: 3 });
      } finally {
        await executor.close(); // detached from the backend, which would otherwise close it
      }
    });

    // MySQL only: SQLite has no row locks (a claim is one BEGIN IMMEDIATE transaction).
    if (dialect === 'mysql') it('does not hide the next kind’s job from a claim while claims of other kinds are still open', async () => {
      // In the claim index, 'cue' (no job) sorts before 'dead' (an expired lock) and 'dead' before 'due' (due).
      const dead = await repo.saveJob(job({ name: 'dead', nextRunAt: ago(minute) }), undefined);
      await repo.getNextJobToRun('dead', scan(), deadline(), ago(20 * minute), { lastModifiedBy: 'dead-worker' });
      await repo.saveJobState({ ...(await repo.getJobById(dead._id!))!, nextRunAt: null }, { lastModifiedBy: 'dead-worker' });
      const due = await repo.saveJob(job({ name: 'due', nextRunAt: ago(minute) }), undefined);
      // Two claims held open just before their commit: a locking read that ran past its range would still hold
      // the next kind's row ('cue' the dead job, 'dead' the due job) and the claims below would skip it.
      const open = await Promise.all(['cue', 'dead'].map(async (jobName) => {
        const runner = store().createQueryRunner();
        const statements = claimStatements({
          table: DEFAULT_TABLE_NAME, jobName, nextScanAt: toSqlDate(scan())!, lockDeadline: toSqlDate(deadline())!,
          lockedAt: toSqlDate(new Date())!, lastModifiedBy: `held-${jobName}`, order: {},
        });
        for (const statement of statements.slice(0, statements.findIndex(({ sql }) => sql === 'COMMIT'))) await runner.query(statement.sql, statement.params);
        return runner;
      }));
      try {
        const held = await Promise.all(open.map(async (runner) => ((await runner.query('SELECT @claimed AS id')) as { id: string | null }[])[0]!.id));
        expect(held).toEqual([null, dead._id]);
        expect(await repo.getNextJobToRun('due', scan(), deadline(), undefined, { lastModifiedBy: 'w' })).toMatchObject({ _id: due._id });
      } finally {
        for (const runner of open) {
          await runner.query('COMMIT');
          await runner.release();
        }
      }
      expect((await repo.getJobById(dead._id!))!.lastModifiedBy).toBe('held-dead');
    });

    it('unlocks a waiting job but not one mid-run, and unlocks lists of ids', async () => {
      const waiting = await repo.saveJob(job({ name: 'u', nextRunAt: ago(1) }), undefined);
      const midRun = await repo.saveJob(job({ name: 'u', nextRunAt: ago(2) }), undefined);
      await repo.getNextJobToRun('u', scan(), deadline(), undefined, undefined);
      await repo.getNextJobToRun('u', scan(), deadline(), undefined, undefined);
      await repo.saveJobState({ ...(await repo.getJobById(midRun._id!))!, nextRunAt: null }, undefined);
      await repo.unlockJob(waiting);
      await repo.unlockJob(midRun);
      expect((await repo.getJobById(waiting._id!))!.lockedAt).toBeUndefined();
      expect((await repo.getJobById(midRun._id!))!.lockedAt).toBeInstanceOf(Date);
      await repo.unlockJobs([midRun._id!]);
      await repo.unlockJobs([]);
      expect((await repo.getJobById(midRun._id!))!.lockedAt).toBeUndefined();
    });

    it('releases the locks one owner holds, making abandoned runs due again', async () => {
      const mine = await repo.saveJob(job({ name: 'r', nextRunAt: ago(2) }), undefined);
      const theirs = await repo.saveJob(job({ name: 'r', nextRunAt: ago(1) }), undefined);
      await repo.getNextJobToRun('r', scan(), deadline(), undefined, { lastModifiedBy: 'me' });
      await repo.getNextJobToRun('r', scan(), deadline(), undefined, { lastModifiedBy: 'them' });
      await repo.saveJobState({ ...(await repo.getJobById(mine._id!))!, nextRunAt: null }, { lastModifiedBy: 'me' });
      expect(await repo.releaseLocksHeldBy('me')).toBe(1);
      const released = (await repo.getJobById(mine._id!))!;
      expect(released.lockedAt).toBeUndefined();
      expect(released.nextRunAt!.getTime()).toBeLessThanOrEqual(Date.now());
      expect((await repo.getJobById(theirs._id!))!.lockedAt).toBeInstanceOf(Date);
    });
  });

  describe('saving run state', () => {
    it('writes the fields a run changes and nothing else', async () => {
      const saved = await repo.saveJob(job({ name: 'state', data: { keep: true } }), undefined);
      const finished = new Date('2031-05-06T07:08:09.010Z');
      await repo.saveJobState(
        { ...saved, data: { keep: false }, lockedAt: undefined, lastRunAt: finished, lastFinishedAt: finished, failCount: 2, failReason: 'boom', failedAt: finished, progress: 0.5, nextRunAt: null },
        { lastModifiedBy: 'w' },
      );
      expect(await repo.getJobById(saved._id!)).toMatchObject({
        data: { keep: true },
        lastRunAt: finished,
        lastFinishedAt: finished,
        failCount: 2,
        failReason: 'boom',
        failedAt: finished,
        progress: 0.5,
        nextRunAt: null,
        lastModifiedBy: 'w',
      });
    });

    it('fails loudly when the job no longer exists, or has no id', async () => {
      const saved = await repo.saveJob(job({ name: 'gone' }), undefined);
      await repo.removeJobs({ id: saved._id! });
      await expect(repo.saveJobState(saved, undefined)).rejects.toThrow(/cannot be updated in the database/);
      await expect(repo.saveJobState(job({ name: 'gone' }), undefined)).rejects.toThrow(/without job ID/);
    });

    it('never saves a run\'s state over a live lock that another owner took, and renews only its own lock', async () => {
      const saved = await repo.saveJob(job({ name: 'taken', nextRunAt: ago(minute) }), undefined);
      const first = (await repo.getNextJobToRun('taken', new Date(), ago(minute), undefined, { lastModifiedBy: 'first' }))!;
      expect(await repo.renewLock(String(saved._id), 'first')).toBe(true);
      // The first owner stalls; the second takes the job over (its lock looks expired to the second).
      const second = await repo.getNextJobToRun('taken', new Date(), ahead(minute), undefined, { lastModifiedBy: 'second' });
      expect(second?._id).toBe(saved._id);
      expect(await repo.renewLock(String(saved._id), 'first')).toBe(false);
      await expect(repo.saveJobState({ ...first, lockedAt: undefined, failCount: 1 }, { lastModifiedBy: 'first' })).rejects.toThrow(/another worker holds its lock/);
      const row = (await repo.getJobById(String(saved._id)))!;
      expect(row.lockedAt).toBeInstanceOf(Date);
      expect(row.lastModifiedBy).toBe('second');
      expect(row.failCount ?? 0).toBe(0);
      // The owner itself saves as before.
      await repo.saveJobState({ ...row, lockedAt: undefined }, { lastModifiedBy: 'second' });
      expect((await repo.getJobById(String(saved._id)))!.lockedAt).toBeUndefined();
    });

    it('keeps the lock owner of a running job that another worker saves (every() of a single job, or a save by id)', async () => {
      const single = { name: 'sweep', type: 'single' as const, repeatInterval: '60000', nextRunAt: ago(minute) };
      const saved = await repo.saveJob(job(single), { lastModifiedBy: 'runner' });
      const plain = await repo.saveJob(job({ name: 'plain', nextRunAt: ago(minute), data: { v: 1 } }), { lastModifiedBy: 'runner' });
      for (const [name, id] of [['sweep', saved._id], ['plain', plain._id]] as const) {
        const claimed = (await repo.getNextJobToRun(name, new Date(), ago(minute), undefined, { lastModifiedBy: 'runner' }))!;
        expect(claimed._id).toBe(id);
        // Agenda's run starts: it saves its state, the next run an interval on for the repeating job.
        await repo.saveJobState({ ...claimed, lastRunAt: new Date(), nextRunAt: name === 'sweep' ? ahead(minute) : null }, { lastModifiedBy: 'runner' });
      }
      // Another worker starts (every() saves the single job again, asking for now) and saves the plain one by id.
      const again = await repo.saveJob(job({ ...single, nextRunAt: new Date() }), { lastModifiedBy: 'starter' });
      await repo.saveJob({ ...(await repo.getJobById(plain._id!))!, data: { v: 2 } }, { lastModifiedBy: 'starter' });
      expect(again).toMatchObject({ _id: saved._id, lastModifiedBy: 'runner' });
      for (const id of [saved._id!, plain._id!]) {
        const running = (await repo.getJobById(id))!;
        expect(running.lastModifiedBy).toBe('runner');
        // The runner still renews its lock and records the end of its run.
        expect(await repo.renewLock(String(id), 'runner')).toBe(true);
        await repo.saveJobState({ ...running, lockedAt: undefined, lastFinishedAt: new Date() }, { lastModifiedBy: 'runner' });
        expect((await repo.getJobById(id))!.lockedAt).toBeUndefined();
      }
      expect((await repo.getJobById(plain._id!))!.data).toEqual({ v: 2 });
      // Unlocked, a save records its author as before.
      expect((await repo.saveJob(job({ ...single, nextRunAt: new Date() }), { lastModifiedBy: 'starter' })).lastModifiedBy).toBe('starter');
      expect((await repo.getJobById(saved._id!))!.lastModifiedBy).toBe('starter');
    });

    it('hands a run back due at once with its failure count untouched, and skips the run\'s own closing save', async () => {
      const saved = await repo.saveJob(job({ name: 'handed', nextRunAt: ago(3 * minute) }), undefined);
      const claimed = (await repo.getNextJobToRun('handed', new Date(), ago(minute), undefined, { lastModifiedBy: 'w1' }))!;
      // Agenda clears nextRunAt of a one-off job when its run starts.
      await repo.saveJobState({ ...claimed, nextRunAt: null, lastRunAt: ago(2 * minute) }, { lastModifiedBy: 'w1' });
      // Queued after the run started: the handed-back run goes first.
      await repo.saveJob(job({ name: 'handed', nextRunAt: ago(minute) }), undefined);
      expect(await repo.handBack(String(saved._id), 'w1')).toBe(true);
      await repo.saveJobState({ ...claimed, nextRunAt: null, lockedAt: undefined, failCount: 1, failReason: 'worker shutting down', failedAt: new Date() }, { lastModifiedBy: 'w1' });
      const row = (await repo.getJobById(String(saved._id)))!;
      expect(row.lockedAt).toBeUndefined();
      expect(row.failCount ?? 0).toBe(0);
      expect(row.failedAt).toBeUndefined();
      expect(row.nextRunAt!.getTime()).toBe(row.lastRunAt!.getTime()); // due as of when its run started
      expect((await repo.getNextJobToRun('handed', new Date(), ago(minute), undefined, { lastModifiedBy: 'w2' }))?._id).toBe(saved._id);
    });
  });

  // The metrics' backlog gauges read the table with a raw query over dates each dialect stores its own way.
  describe('the backlog read at scrape time (readQueueDepth)', () => {
    it('counts due, unlocked jobs by kind, with how long the oldest has waited; later and locked ones are not backlog', async () => {
      const now = new Date('2026-12-07T12:00:00.000Z');
      const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
      for (const [name, seconds] of [['probe-a', -90], ['probe-a', -30], ['probe-b', -5], ['probe-b', 60]] as const) {
        await repo.saveJob(job({ name, nextRunAt: at(seconds) }), undefined);
      }
      const locked = await repo.saveJob(job({ name: 'probe-c', nextRunAt: at(-600) }), undefined);
      await store().query(`UPDATE ${DEFAULT_TABLE_NAME} SET locked_at = ? WHERE id = ?`, [toSqlDate(at(-1)), String(locked._id)]);

      const depth = await readQueueDepth(store(), now);
      expect([...depth].sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
        { kind: 'probe-a', due: 2, oldestDueSeconds: 90 },
        { kind: 'probe-b', due: 1, oldestDueSeconds: 5 },
      ]);
    });
  });
});
