import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiKey } from '../../src/identity/api-keys.js';
import { SCHEDULE_FIRE_JOB } from '../../src/workflows/schedule-fire.js';
import { startTestApi, type TestApi } from '../support/api-server.js';
import { insertCheck, insertRepository } from '../support/check-fixtures.js';
import { useTestStore } from '../support/dialects.js';
import { qa } from '../support/qa-cli.js';

const BASE_URL = 'https://shop.example';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- printed JSON is read field by field
const json = (stdout: string): Record<string, any> => JSON.parse(stdout) as Record<string, any>;

/**
 * On MySQL only: the client verbs talk to the API over HTTP and never see the store's dialect; the routes they call
 * are tested on both dialects in test/integration/api/, and the client against `qa start` on SQLite in
 * test/e2e/cli-client.test.ts.
 */
describe('qa schedules against the real API', () => {
  const store = useTestStore('mysql');
  // A client verb never opens the database: its would-be folder must still not exist at the end.
  const untouched = join(mkdtempSync(join(tmpdir(), 'qa-test-schedules-')), 'never-created');
  let api: TestApi;
  let key: string;
  let checkId: string;
  let draftId: string;

  beforeAll(async () => {
    api = await startTestApi(store());
  });

  afterAll(async () => {
    await api.close();
    rmSync(join(untouched, '..'), { recursive: true, force: true });
  });

  beforeEach(async () => {
    const issued = await createApiKey(store(), 'acme');
    key = issued.key;
    const repositoryId = await insertRepository(store(), issued.organization.id);
    checkId = await insertCheck(store(), issued.organization.id, repositoryId, 'active');
    draftId = await insertCheck(store(), issued.organization.id, repositoryId, 'draft');
  });

  const run = async (args: string[], env: Record<string, string> = {}) => {
    const result = await qa(['schedules', ...args], { QA_API_URL: api.base, QA_API_KEY: key, SQLITE_PATH: join(untouched, 'qa.sqlite'), LOG_LEVEL: 'silent', ...env });
    expect(existsSync(untouched)).toBe(false);
    return result;
  };
  const repeatJobs = async () => (await api.queue.backend.repository.queryJobs({ name: SCHEDULE_FIRE_JOB })).jobs;

  it('creates cron and interval schedules, lists and reads them, and deletes one with its repeat job', async () => {
    const cron = await run([
      'create', '--test', checkId, '--cron', '0 6 * * 1-5', '--timezone', 'Europe/Berlin', '--base-url', BASE_URL,
      '--allow', 'cdn.shop.example', '--allow', 'API.shop.example',
    ]);
    expect([cron.code, cron.stderr]).toEqual([0, '']);
    const first = json(cron.stdout);
    expect(first).toMatchObject({
      scheduleId: expect.any(String),
      testId: checkId,
      cron: '0 6 * * 1-5',
      timezone: 'Europe/Berlin',
      baseUrl: BASE_URL,
      networkAllowlist: ['cdn.shop.example', 'api.shop.example'],
      enabled: true,
      nextRunAt: expect.any(String),
    });

    const interval = await run(['create', '--scenario', checkId, '--every', '30', '--base-url', BASE_URL]);
    expect(interval.code).toBe(0);
    const second = json(interval.stdout);
    expect(second).toMatchObject({ scenarioId: checkId, intervalMinutes: 30, timezone: 'UTC' });

    const listed = await run(['list']);
    expect(listed.code).toBe(0);
    const byId = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a.scheduleId).localeCompare(String(b.scheduleId));
    expect([...json(listed.stdout).schedules].sort(byId)).toEqual([first, second].sort(byId));
    const got = await run(['get', first.scheduleId]);
    expect(json(got.stdout)).toEqual({ ...first, fires: [] });

    const deleted = await run(['delete', first.scheduleId]);
    expect([deleted.code, deleted.stderr]).toEqual([0, '']);
    expect(json(deleted.stdout)).toEqual({ scheduleId: first.scheduleId, deleted: true });
    expect(json((await run(['list'])).stdout).schedules.map((s: { scheduleId: string }) => s.scheduleId)).toEqual([second.scheduleId]);
    expect((await repeatJobs()).map((job) => job.data)).toEqual([{ scheduleId: second.scheduleId }]);

    const again = await run(['delete', first.scheduleId]);
    expect([again.code, again.stdout, again.stderr]).toEqual([2, '', 'No schedule with that id in this organization (schedule.not_found, HTTP 404)\n']);
  });

  it('refuses wrong options before calling the API, and passes the API’s errors on with exit 2', async () => {
    const create = (...args: string[]) => run(['create', ...args, '--base-url', BASE_URL]);
    // Independent runs, started together (each is a process start).
    const [both, noCheck, notMinutes, tooOften, badCron, badZone, draft, noKey] = await Promise.all([
      create('--test', checkId, '--cron', '0 6 * * *', '--every', '30'),
      create('--every', '30'),
      create('--test', checkId, '--every', 'hourly'),
      create('--test', checkId, '--every', '2'),
      create('--test', checkId, '--cron', '0 25 * * *'),
      create('--test', checkId, '--every', '30', '--timezone', 'Berlin'),
      create('--test', draftId, '--every', '30'),
      run(['list'], { QA_API_KEY: '' }),
    ]);
    expect([both.code, both.stderr]).toEqual([2, 'Give exactly one of --cron and --every\n']);
    expect([noCheck.code, noCheck.stderr]).toEqual([2, 'Give exactly one of --test and --scenario\n']);
    expect(notMinutes.code).toBe(2);
    expect(notMinutes.stderr).toContain('must be a whole number of minutes');
    expect(tooOften.code).toBe(2);
    expect(tooOften.stderr).toMatch(/^Invalid request: intervalMinutes: .* \(request\.invalid, HTTP 400, field: intervalMinutes\)\n$/);
    expect(badCron.code).toBe(2);
    expect(badCron.stderr).toMatch(/^Invalid request: cron: .*expected range 0-23 \(request\.invalid, HTTP 400, field: cron\)\n$/);
    expect([badZone.code, badZone.stderr]).toEqual([2, expect.stringContaining('field: timezone)')]);
    expect([draft.code, draft.stderr]).toEqual([2, expect.stringContaining('(check.not_compiled, HTTP 409, field: testId)')]);
    expect([noKey.code, noKey.stderr]).toEqual([2, expect.stringContaining('QA_API_KEY is not set')]);
    expect(await repeatJobs()).toEqual([]);
  });
});
