import { beforeEach, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { dialectOf } from '../../../src/store/data-source.js';
import { jobPageQuery } from '../../../src/jobs/list-jobs.js';
import type { Job } from '../../../src/store/entities/job.entity.js';
import { callApi } from '../../support/api-server.js';
import { insertRepository, seedAcmeShop, type AcmeShop } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';
import { insertJobRows, jobRow } from '../../support/job-rows.js';
import { useTestApi } from '../../support/use-test-api.js';

/** Newest first, ties broken by the larger id first: the list's order. */
const newestFirst = (a: Partial<Job>, b: Partial<Job>) => b.createdAt!.getTime() - a.createdAt!.getTime() || (a.id! < b.id! ? 1 : -1);

forEachDialect('jobs list', (dialect) => {
  const store = useTestStore(dialect);
  const api = useTestApi(store);
  let shop: AcmeShop;

  beforeEach(async () => {
    shop = await seedAcmeShop(store());
  });

  const call = (path: string, auth: string = shop.key) => callApi(api.base, 'GET', path, undefined, auth);

  it('pages through 3,000 jobs, many created in the same millisecond, each once and in order, under both naming sets', async () => {
    const base = Date.parse('2026-11-01T00:00:00.000Z');
    // Seven jobs a millisecond: most page boundaries fall inside a run of equal created_at.
    const mine = Array.from({ length: 3_000 }, (_, i) => jobRow(shop.organizationId, shop.repositoryId, { createdAt: new Date(base + Math.floor(i / 7)) }));
    const otherRepository = await insertRepository(store(), shop.otherOrganizationId);
    const theirs = Array.from({ length: 500 }, (_, i) => jobRow(shop.otherOrganizationId, otherRepository, { createdAt: new Date(base + i) }));
    await insertJobRows(store(), [...mine, ...theirs]);
    const expected = [...mine].sort(newestFirst).map((row) => row.id);

    for (const [collection, id] of [['jobs', 'jobId'], ['runs', 'runId']] as const) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await call(`/api/${collection}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(page.status).toBe(200);
        seen.push(...page.body[collection].map((job: Record<string, string>) => job[id]));
        cursor = page.body.nextCursor;
        pages++;
      } while (cursor !== null);
      expect(pages).toBe(30);
      expect(seen).toEqual(expected);
    }
  }, 60_000);

  it('answers summaries in each naming set, 50 by default, and the last page says there is no next one', async () => {
    const parent = jobRow(shop.organizationId, shop.repositoryId, { status: 'review_required', trigger: 'web', startedBy: 'user:u-1', createdAt: new Date(Date.now() - 1_000) });
    const child = jobRow(shop.organizationId, shop.repositoryId, {
      status: 'passed', trigger: 'web', checkId: shop.checkId, parentJobId: parent.id, startedBy: 'api_key:k-1',
      startedAt: new Date(Date.now() - 500), finishedAt: new Date(), task: 'Check the home page\n\nClarifications: …',
    });
    await insertJobRows(store(), [parent, child]);

    const asA = await call('/api/jobs');
    expect(asA.status).toBe(200);
    expect(asA.body).toEqual({
      jobs: [
        {
          jobId: child.id, status: 'passed', trigger: 'web', projectId: shop.repositoryId, testId: shop.checkId, parentJobId: parent.id,
          naturalLanguageTask: child.task, startedBy: { kind: 'machine', actor: 'api_key:k-1' },
          createdAt: child.createdAt!.toISOString(), startedAt: child.startedAt!.toISOString(), finishedAt: child.finishedAt!.toISOString(),
        },
        {
          jobId: parent.id, status: 'review_required', trigger: 'web', projectId: shop.repositoryId, testId: null, parentJobId: null,
          naturalLanguageTask: 'Check the home page', startedBy: { kind: 'person', actor: 'user:u-1' },
          createdAt: parent.createdAt!.toISOString(), startedAt: null, finishedAt: null,
        },
      ],
      nextCursor: null,
    });
    const asB = await call('/api/runs?limit=1');
    expect(Object.keys(asB.body).sort()).toEqual(['nextCursor', 'runs']);
    expect(asB.body.runs[0]).toMatchObject({ runId: child.id, repositoryId: shop.repositoryId, scenarioId: shop.checkId, parentRunId: parent.id });
    expect(asB.body.nextCursor).toEqual(expect.any(String));
    const second = await call(`/api/runs?limit=1&cursor=${asB.body.nextCursor}`);
    expect(second.body).toMatchObject({ runs: [{ runId: parent.id }], nextCursor: null });

    await insertJobRows(store(), Array.from({ length: 60 }, () => jobRow(shop.organizationId, shop.repositoryId)));
    expect((await call('/api/jobs')).body.jobs).toHaveLength(50);
  });

  it('filters by status (repeated or comma-separated), trigger, repository, check and task text with its wildcards taken literally', async () => {
    const otherRepository = await insertRepository(store(), shop.organizationId, { name: 'admin' });
    const theirRepository = await insertRepository(store(), shop.otherOrganizationId);
    const rows = {
      failed: jobRow(shop.organizationId, shop.repositoryId, { status: 'failed', trigger: 'schedule', checkId: shop.checkId, task: 'Apply the 50%_OFF coupon' }),
      errored: jobRow(shop.organizationId, shop.repositoryId, { status: 'errored', trigger: 'chat', task: 'Apply the 50 percent coupon' }),
      passed: jobRow(shop.organizationId, otherRepository, { status: 'passed', trigger: 'web', task: 'Apply the 50xxoff coupon' }),
      theirs: jobRow(shop.otherOrganizationId, theirRepository, { status: 'failed', trigger: 'schedule', task: 'Apply the 50%_OFF coupon' }),
    };
    await insertJobRows(store(), Object.values(rows));
    const ids = async (query: string, collection = 'jobs') => {
      const answer = await call(`/api/${collection}?${query}`);
      expect(answer.status).toBe(200);
      return answer.body[collection].map((job: Record<string, string>) => job.jobId ?? job.runId).sort();
    };
    const sorted = (...picked: Partial<Job>[]) => picked.map((row) => row.id).sort();

    expect(await ids('status=failed&status=errored')).toEqual(sorted(rows.failed, rows.errored));
    expect(await ids('status=failed,%20errored')).toEqual(sorted(rows.failed, rows.errored));
    expect(await ids('trigger=web,chat')).toEqual(sorted(rows.errored, rows.passed));
    expect(await ids(`projectId=${otherRepository}`)).toEqual(sorted(rows.passed));
    expect(await ids(`repositoryId=${shop.repositoryId}&status=failed`, 'runs')).toEqual(sorted(rows.failed));
    expect(await ids(`testId=${shop.checkId}`)).toEqual(sorted(rows.failed));
    expect(await ids(`scenarioId=${shop.checkId}`, 'runs')).toEqual(sorted(rows.failed));
    expect(await ids(`q=${encodeURIComponent('50%_off')}`)).toEqual(sorted(rows.failed));
    expect(await ids('q=COUPON&status=passed')).toEqual(sorted(rows.passed));
    expect(await ids('q=%20%20')).toEqual(sorted(rows.failed, rows.errored, rows.passed));
    // Another organization's repository is no different from an unknown one: nothing.
    expect(await ids(`projectId=${theirRepository}`)).toEqual([]);
    expect(await ids(`projectId=${randomUUID()}`)).toEqual([]);
  });

  it('refuses a bad limit, status, trigger, id, unknown parameter or a cursor it did not hand out, each with a 400 that says why', async () => {
    const listCursor = await (async () => {
      await insertJobRows(store(), [jobRow(shop.organizationId, shop.repositoryId), jobRow(shop.organizationId, shop.repositoryId)]);
      return (await call('/api/jobs?limit=1')).body.nextCursor as string;
    })();
    for (const query of ['limit=0', 'limit=101', 'limit=ten', 'status=done', 'status=failed,done', 'trigger=email', 'projectId=ACME', `testId=${randomUUID().toUpperCase()}`, 'repositoryId=x', 'page=2', `q=${'x'.repeat(201)}`]) {
      const answer = await call(`/api/jobs?${query}`);
      expect([query, answer.status, answer.body.error.code]).toEqual([query, 400, 'request.invalid']);
    }
    const updatesCursor = Buffer.from(`u1:${Date.now()}:`).toString('base64url');
    for (const cursor of ['not a cursor', 'bDE6MTIzOmFiYw', updatesCursor, `${listCursor}x`, '']) {
      const answer = await call(`/api/jobs?cursor=${encodeURIComponent(cursor)}`);
      expect([cursor, answer.status, answer.body.error.code]).toEqual([cursor, 400, 'request.invalid_cursor']);
    }
    // The same cursor in the other naming set is the same place in the same list.
    expect((await call(`/api/runs?cursor=${listCursor}`)).body.runs).toHaveLength(1);
  });

  it('reads a page\'s ids (first, deep, by status, by repository) from the index alone, a later page as one range, with no sort (EXPLAIN over 4,000 jobs)', async () => {
    if (dialectOf(store()) !== 'mysql') {
      // SQLite's planner: the same indexes, asked with EXPLAIN QUERY PLAN.
      const [sql, parameters] = jobPageQuery(store(), shop.organizationId, { limit: 50 }).getQueryAndParameters();
      const plan = (await store().query(`EXPLAIN QUERY PLAN ${sql}`, parameters)) as { detail: string }[];
      expect(plan.map((step) => step.detail).join('\n')).toMatch(/USING COVERING INDEX IDX_jobs_organization_created/);
      expect(plan.map((step) => step.detail).join('\n')).not.toMatch(/TEMP B-TREE/);
      return;
    }
    const base = Date.parse('2026-11-01T00:00:00.000Z');
    const statuses = ['passed', 'failed', 'running', 'queued'];
    const repositories = [shop.repositoryId, ...(await Promise.all([1, 2, 3].map((n) => insertRepository(store(), shop.organizationId, { name: `app-${n}` }))))];
    await insertJobRows(
      store(),
      Array.from({ length: 4_000 }, (_, i) => jobRow(shop.organizationId, repositories[Math.floor(i / 7) % 4]!, { createdAt: new Date(base + i), status: statuses[i % 4]! })),
    );
    await store().query('ANALYZE TABLE jobs');
    const after = { createdAt: new Date(base + 2_000), id: randomUUID() };
    const cases = [
      [{ limit: 50 }, 'IDX_jobs_organization_created'],
      [{ limit: 50, after }, 'IDX_jobs_organization_created'],
      [{ limit: 50, after, filter: { statuses: ['failed' as const] } }, 'IDX_jobs_organization_status_created'],
      [{ limit: 50, after, filter: { repositoryId: shop.repositoryId } }, 'IDX_jobs_organization_repository_created'],
    ] as const;
    for (const [request, index] of cases) {
      const [sql, parameters] = jobPageQuery(store(), shop.organizationId, request).getQueryAndParameters();
      const [plan] = (await store().query(`EXPLAIN ${sql}`, parameters)) as { key: string; type: string; Extra: string; rows: number | string }[];
      expect([plan!.key, plan!.Extra.includes('filesort')]).toEqual([index, false]);
      // The first page reads the organization's entries from the newest; a later one, one range from its position
      // (a `ref` there would read every entry newer than the page first), from the index alone.
      expect(plan!.type).toBe('after' in request ? 'range' : 'ref');
      expect(plan!.Extra).toContain('Using index');
    }
  }, 60_000);
});
