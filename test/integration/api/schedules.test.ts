import { beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { JobParameters } from 'agenda';
import { Schedule } from '../../../src/store/entities/schedule.entity.js';
import { setCapabilityPaused } from '../../../src/store/execution-flags.js';
import { SCHEDULE_FIRE_JOB } from '../../../src/workflows/schedule-fire.js';
import { callApi } from '../../support/api-server.js';
import { useTestApi } from '../../support/use-test-api.js';
import { insertCheck, insertRepository, seedAcmeShop } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

const BASE_URL = 'https://shop.example';
const MINUTE = 60_000;

/** The wall-clock time of `date` in `timeZone`, as `HH:MM` and the weekday (`Mon`…). */
function localTime(date: Date, timeZone: string): { time: string; weekday: string } {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23', weekday: 'short' }).formatToParts(date);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return { time: `${part('hour')}:${part('minute')}`, weekday: part('weekday') };
}

forEachDialect('schedule API', (dialect) => {
  const store = useTestStore(dialect);
  const api = useTestApi(store);
  let key: string;
  let otherKey: string;
  let organizationId: string;
  let repositoryId: string;
  let checkId: string;
  let draftId: string;
  let otherCheckId: string;

  beforeEach(async () => {
    let otherOrganizationId: string;
    ({ key, otherKey, organizationId, repositoryId, checkId, otherOrganizationId } = await seedAcmeShop(store()));
    draftId = await insertCheck(store(), organizationId, repositoryId, 'draft');
    otherCheckId = await insertCheck(store(), otherOrganizationId, await insertRepository(store(), otherOrganizationId), 'active');
  });

  const call = (method: string, path: string, body?: unknown, auth: string | null = key) => callApi(api.base, method, path, body, auth);
  const create = (fields: Record<string, unknown>, auth: string | null = key) =>
    call('POST', '/api/schedules', { testId: checkId, baseUrl: BASE_URL, ...fields }, auth);

  /** The schedules' repeat jobs on the queue. */
  const repeatJobs = async (): Promise<JobParameters[]> => (await api.queue.backend.repository.queryJobs({ name: SCHEDULE_FIRE_JOB })).jobs;

  describe('creating', () => {
    it('stores a cron schedule, read in its time zone, with one repeat job whose next run is the next match', async () => {
      const before = Date.now();
      const created = await create({ cron: ' 0  6 * * 1-5 ', timezone: 'Europe/Berlin', networkAllowlist: ['CDN.shop.example'] });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        scheduleId: expect.any(String),
        testId: checkId,
        projectId: repositoryId,
        cron: '0 6 * * 1-5',
        timezone: 'Europe/Berlin',
        baseUrl: BASE_URL,
        networkAllowlist: ['cdn.shop.example'],
        enabled: true,
        nextRunAt: expect.any(String),
        createdAt: expect.any(String),
      });
      const next = new Date(created.body.nextRunAt);
      expect(next.getTime()).toBeGreaterThan(before);
      // At most a long weekend plus a day away, at 06:00 Berlin time on a weekday.
      expect(next.getTime()).toBeLessThan(before + 4 * 24 * 60 * MINUTE);
      const local = localTime(next, 'Europe/Berlin');
      expect(local.time).toBe('06:00');
      expect(['Mon', 'Tue', 'Wed', 'Thu', 'Fri']).toContain(local.weekday);

      const jobs = await repeatJobs();
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ data: { scheduleId: created.body.scheduleId }, repeatInterval: '0 6 * * 1-5', repeatTimezone: 'Europe/Berlin' });
      expect(jobs[0]!.disabled).toBeFalsy();
      expect(jobs[0]!.nextRunAt?.toISOString()).toBe(created.body.nextRunAt);
    });

    it('stores an interval schedule in Set B words, first run one interval from now, UTC by default', async () => {
      const before = Date.now();
      const created = await call('POST', '/api/schedules', { scenarioId: checkId, intervalMinutes: 15, baseUrl: 'http://shop.example:8080/' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ scenarioId: checkId, repositoryId, intervalMinutes: 15, timezone: 'UTC', enabled: true });
      expect(created.body.testId).toBeUndefined();
      expect(created.body.projectId).toBeUndefined();
      expect(created.body.cron).toBeUndefined();
      const next = new Date(created.body.nextRunAt).getTime();
      expect(next).toBeGreaterThanOrEqual(before + 15 * MINUTE);
      expect(next).toBeLessThan(Date.now() + 15 * MINUTE + 1_000);
      expect((await repeatJobs())[0]).toMatchObject({ repeatInterval: String(15 * MINUTE) });
    });

    it('gives every schedule its own repeat job, also two of the same check', async () => {
      const first = await create({ intervalMinutes: 30 });
      const second = await create({ intervalMinutes: 60 });
      expect([first.status, second.status]).toEqual([201, 201]);
      const ids = (await repeatJobs()).map((job) => (job.data as { scheduleId: string }).scheduleId).sort();
      expect(ids).toEqual([first.body.scheduleId, second.body.scheduleId].sort());
    });

    it('stores a disabled schedule with a disabled repeat job and no next run', async () => {
      const created = await create({ intervalMinutes: 5, enabled: false });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ enabled: false, nextRunAt: null });
      expect((await repeatJobs())[0]!.disabled).toBe(true);
    });

    it.each([
      ['a cron field out of range', { cron: '61 * * * *' }, 'cron'],
      ['a cron expression with seconds', { cron: '0 0 6 * * *' }, 'cron'],
      ['a cron alias', { cron: '@daily' }, 'cron'],
      ['a cron expression that never fires', { cron: '0 0 30 2 *' }, 'cron'],
      ['a random (H) cron field', { cron: 'H 6 * * *' }, 'cron'],
      ['an interval under 5 minutes', { intervalMinutes: 4 }, 'intervalMinutes'],
      ['an interval over a week', { intervalMinutes: 10_081 }, 'intervalMinutes'],
      ['a fractional interval', { intervalMinutes: 7.5 }, 'intervalMinutes'],
      ['an interval as text', { intervalMinutes: '15' }, 'intervalMinutes'],
      ['an unknown time zone', { intervalMinutes: 15, timezone: 'Mars/Olympus' }, 'timezone'],
      ['an offset instead of a zone', { intervalMinutes: 15, timezone: '+02:00' }, 'timezone'],
      ['both cron and interval', { cron: '0 6 * * *', intervalMinutes: 15 }, 'cron'],
      ['neither cron nor interval', {}, 'cron'],
      ['both testId and scenarioId', { scenarioId: 'x', intervalMinutes: 15 }, 'testId'],
      ['neither testId nor scenarioId', { testId: undefined, intervalMinutes: 15 }, 'testId'],
      ['a non-http base URL', { intervalMinutes: 15, baseUrl: 'ftp://shop.example' }, 'baseUrl'],
      ['a URL in the allowlist', { intervalMinutes: 15, networkAllowlist: ['https://cdn.example/'] }, 'networkAllowlist.0'],
      ['an unknown field', { intervalMinutes: 15, every: 15 }, '(body)'],
      ['a job field', { intervalMinutes: 15, trigger: 'schedule' }, '(body)'],
    ])('rejects %s with 400 naming the field, storing nothing', async (_what, fields, field) => {
      const response = await create(fields);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'request.invalid', details: { field } });
      expect(await store().getRepository(Schedule).count()).toBe(0);
      expect(await repeatJobs()).toEqual([]);
    });

    it('says why a cron expression is wrong', async () => {
      const response = await create({ cron: '0 6 * *' });
      expect(response.body.error.message).toContain('cron: must have 5 fields (minute hour day-of-month month day-of-week), got 4');
    });

    it('refuses a draft check with 409 check.not_compiled', async () => {
      const response = await create({ testId: draftId, intervalMinutes: 15 });
      expect(response.status).toBe(409);
      expect(response.body.error).toMatchObject({ code: 'check.not_compiled', details: { field: 'testId', status: 'draft' } });
      expect(await repeatJobs()).toEqual([]);
    });

    it('answers 404 for another organization’s check or an unknown one, naming the field', async () => {
      const theirs = await create({ testId: otherCheckId, intervalMinutes: 15 });
      expect([theirs.status, theirs.body.error.code, theirs.body.error.details.field]).toEqual([404, 'check.not_found', 'testId']);
      const unknown = await call('POST', '/api/schedules', { scenarioId: randomUUID(), intervalMinutes: 15, baseUrl: BASE_URL });
      expect([unknown.status, unknown.body.error.details.field]).toEqual([404, 'scenarioId']);
      const own = await create({ testId: otherCheckId, intervalMinutes: 15 }, otherKey);
      expect(own.status).toBe(201);
    });

    it('needs live execution (503 while it is paused) but not AI execution', async () => {
      await setCapabilityPaused(store(), 'live', true, organizationId);
      const paused = await create({ intervalMinutes: 15 });
      expect([paused.status, paused.body.error.code, paused.body.error.details.capability]).toEqual([503, 'execution.paused', 'live']);
      expect(await store().getRepository(Schedule).count()).toBe(0);
      await setCapabilityPaused(store(), 'live', false, organizationId);

      await setCapabilityPaused(store(), 'ai', true);
      expect((await create({ intervalMinutes: 15 })).status).toBe(201);
      await setCapabilityPaused(store(), 'ai', false);
    });

    it('answers 401 without a valid key', async () => {
      for (const auth of [null, 'not-a-key']) {
        expect((await create({ intervalMinutes: 15 }, auth)).status).toBe(401);
        expect((await call('GET', '/api/schedules', undefined, auth)).status).toBe(401);
      }
    });
  });

  describe('reading and deleting', () => {
    it('lists the organization’s schedules with their next runs, and reads one with its fires', async () => {
      const cron = await create({ cron: '30 7 * * *', timezone: 'America/New_York' });
      const interval = await call('POST', '/api/schedules', { scenarioId: checkId, intervalMinutes: 60, baseUrl: BASE_URL });
      await create({ testId: otherCheckId, intervalMinutes: 15 }, otherKey);

      const list = await call('GET', '/api/schedules');
      expect(list.status).toBe(200);
      // Oldest first; creation times tie within a second on SQLite, and ties are in id order.
      const byId = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a.scheduleId).localeCompare(String(b.scheduleId));
      expect([...list.body.schedules].sort(byId)).toEqual([cron.body, interval.body].sort(byId));

      const one = await call('GET', `/api/schedules/${cron.body.scheduleId}`);
      expect(one.status).toBe(200);
      expect(one.body).toEqual({ ...cron.body, fires: [] });
      expect(localTime(new Date(one.body.nextRunAt), 'America/New_York').time).toBe('07:30');

      const theirs = await call('GET', '/api/schedules', undefined, otherKey);
      expect(theirs.body.schedules.map((s: { testId: string }) => s.testId)).toEqual([otherCheckId]);
      expect((await call('GET', '/api/schedules?limit=1')).body.schedules).toHaveLength(1);
      expect((await call('GET', '/api/schedules?limit=0')).status).toBe(400);
    });

    it('deletes a schedule and its repeat job (204); another organization gets 404 and deletes nothing', async () => {
      const kept = await create({ intervalMinutes: 15 });
      const created = await create({ cron: '0 6 * * *' });
      const path = `/api/schedules/${created.body.scheduleId}`;

      for (const method of ['GET', 'DELETE']) {
        const other = await call(method, path, undefined, otherKey);
        expect([other.status, other.body.error.code]).toEqual([404, 'schedule.not_found']);
      }
      expect(await repeatJobs()).toHaveLength(2);

      const deleted = await call('DELETE', path);
      expect([deleted.status, deleted.text]).toEqual([204, '']);
      expect((await call('GET', path)).status).toBe(404);
      expect((await call('DELETE', path)).status).toBe(404);
      expect((await call('GET', '/api/schedules')).body.schedules.map((s: { scheduleId: string }) => s.scheduleId)).toEqual([kept.body.scheduleId]);
      expect((await repeatJobs()).map((job) => job.data)).toEqual([{ scheduleId: kept.body.scheduleId }]);
      expect((await call('GET', `/api/schedules/${randomUUID()}`)).status).toBe(404);
    });
  });

  describe('pausing and resuming', () => {
    it('pauses a schedule (its repeat job disabled, no next run) and resumes it from the next run after now, in its naming set', async () => {
      const created = await call('POST', '/api/schedules', { scenarioId: checkId, baseUrl: BASE_URL, intervalMinutes: 15 });
      const path = `/api/schedules/${created.body.scheduleId}`;

      const paused = await call('PATCH', path, { enabled: false });
      expect(paused.status).toBe(200);
      expect(paused.body).toEqual({ ...created.body, enabled: false, nextRunAt: null });
      expect(await store().getRepository(Schedule).findOneByOrFail({ id: created.body.scheduleId })).toMatchObject({ enabled: false });
      let jobs = await repeatJobs();
      expect(jobs).toHaveLength(1);
      expect(jobs[0]!.disabled).toBe(true);
      expect((await call('GET', path)).body).toMatchObject({ enabled: false, nextRunAt: null });

      const before = Date.now();
      const resumed = await call('PATCH', path, { enabled: true });
      expect(resumed.status).toBe(200);
      expect(resumed.body).toMatchObject({ scheduleId: created.body.scheduleId, scenarioId: checkId, enabled: true });
      const next = new Date(resumed.body.nextRunAt).getTime();
      expect(next).toBeGreaterThanOrEqual(before + 15 * MINUTE - 1_000);
      expect(next).toBeLessThanOrEqual(Date.now() + 15 * MINUTE);
      jobs = await repeatJobs();
      expect(jobs).toHaveLength(1);
      expect(jobs[0]!.disabled).toBeFalsy();
      expect(jobs[0]!.nextRunAt?.toISOString()).toBe(resumed.body.nextRunAt);
    });

    it('answers 404 for another organization\'s schedule and 400 for any other body, changing nothing', async () => {
      const created = await create({ intervalMinutes: 15 });
      const path = `/api/schedules/${created.body.scheduleId}`;
      const theirs = await call('PATCH', path, { enabled: false }, otherKey);
      expect([theirs.status, theirs.body.error.code]).toEqual([404, 'schedule.not_found']);
      expect((await call('PATCH', `/api/schedules/${randomUUID()}`, { enabled: false })).status).toBe(404);
      for (const body of [{}, { enabled: 'false' }, { enabled: null }, { enabled: false, cron: '0 6 * * *' }, { intervalMinutes: 30 }, [false], 'enabled=false']) {
        const answer = await call('PATCH', path, body);
        expect([JSON.stringify(body), answer.status]).toEqual([JSON.stringify(body), 400]);
      }
      expect(await store().getRepository(Schedule).findOneByOrFail({ id: created.body.scheduleId })).toMatchObject({ enabled: true });
      expect((await repeatJobs())[0]!.disabled).toBeFalsy();
    });
  });
});
