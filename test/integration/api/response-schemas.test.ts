import { beforeEach, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { SET_A, SET_B, type NamingSet } from '../../../src/core/naming.js';
import { checkAcceptedSchema, checkDetailSchema, checkListSchema } from '../../../src/api/schemas/checks.js';
import { errorResponseSchema } from '../../../src/api/schemas/common.js';
import { jobCancelledSchema, jobCreatedSchema, jobEventSchema, jobViewSchema } from '../../../src/api/schemas/jobs.js';
import { repositoryConnectedSchema, repositoryDetailSchema, repositoryListSchema } from '../../../src/api/schemas/repositories.js';
import { scheduleDetailSchema, scheduleListSchema, scheduleSchema } from '../../../src/api/schemas/schedules.js';
import { Artifact } from '../../../src/store/entities/artifact.entity.js';
import { CheckVersion } from '../../../src/store/entities/check-version.entity.js';
import { Finding } from '../../../src/store/entities/finding.entity.js';
import { ScheduleFire } from '../../../src/store/entities/schedule-fire.entity.js';
import { connectInstallation } from '../../../src/store/repository-admission.js';
import { callApi } from '../../support/api-server.js';
import { useTestApi } from '../../support/use-test-api.js';
import { seedAcmeShop } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

const RUNNABLE = 'Check that the pricing page lists three plans';
const SIDE_EFFECT = 'Buy the cheapest item with the saved card';

/** The answer fits its schema exactly: parsing strips nothing and changes nothing. */
function expectFits(schema: z.ZodType, answer: unknown, what: string): void {
  const parsed = schema.safeParse(answer);
  expect({ what, issues: parsed.success ? [] : parsed.error.issues }).toEqual({ what, issues: [] });
  expect({ what, parsed: parsed.data }).toEqual({ what, parsed: answer });
}

forEachDialect('response schemas', (dialect) => {
  const store = useTestStore(dialect);
  const api = useTestApi(store);
  let key: string;
  let organizationId: string;
  let repositoryId: string;
  let checkId: string;

  beforeEach(async () => {
    ({ key, organizationId, repositoryId, checkId } = await seedAcmeShop(store(), { repository: { testValueSecretRefs: { demoUser: 'DEMO_USER' }, revision: 'abcdef1' } }));
  });

  const call = (method: string, path: string, body?: unknown, auth: string | null = key) => callApi(api.base, method, path, body, auth);

  /** A job with a finding and an artifact, as a run leaves them. */
  async function recordRun(jobId: string): Promise<void> {
    const artifactId = randomUUID();
    await store().getRepository(Artifact).insert({
      id: artifactId, organizationId, jobId, kind: 'screenshot', name: 'step-0.png', contentType: 'image/png', sizeBytes: 3,
      sha256: 'a'.repeat(64), storageKey: `jobs/${jobId}/step-0.png`, stepIndex: 0,
    });
    await store().getRepository(Finding).insert({
      id: randomUUID(), organizationId, jobId, position: 0, kind: 'console_error', severity: 'warning', title: 'A console error',
      detail: 'TypeError', stepIndex: 0, artifactIds: [artifactId],
    });
  }

  it.each([SET_A, SET_B])('answers every job route in the shape of its schema ($collection)', async (names: NamingSet) => {
    const base = `/api/${names.collection}`;
    const create = (fields: Record<string, unknown>) =>
      call('POST', base, { [names.repositoryId]: repositoryId, baseUrl: 'https://shop.example', trigger: 'chat', channelContext: { thread: 't1' }, ...fields });

    const runnable = await create({ naturalLanguageTask: RUNNABLE, commitSha: 'abcdef1', networkAllowlist: ['cdn.example'] });
    expect(runnable.status).toBe(202);
    expectFits(jobCreatedSchema(names), runnable.body, 'created, runnable');
    const replay = await create({ [names.checkId]: checkId });
    expectFits(jobCreatedSchema(names), replay.body, 'created, replay');
    const review = await create({ naturalLanguageTask: SIDE_EFFECT });
    expect(review.body.status).toBe('review_required');
    expectFits(jobCreatedSchema(names), review.body, 'created, review_required');
    const answered = await call('POST', `${base}/${review.body[names.id]}/clarifications`, { answers: review.body.resolution.questions.map(() => 'No: stop before paying') });
    expect(answered.status).toBe(202);
    expectFits(jobCreatedSchema(names), answered.body, 'answered');

    await recordRun(runnable.body[names.id]);
    for (const jobId of [runnable.body[names.id], review.body[names.id], answered.body[names.id]]) {
      const view = await call('GET', `${base}/${jobId}`);
      expect(view.status).toBe(200);
      expectFits(jobViewSchema(names), view.body, `view of ${jobId}`);
    }
    const withRun = await call('GET', `${base}/${runnable.body[names.id]}`);
    expect([withRun.body.artifacts.length, withRun.body[names.results].length]).toEqual([1, 1]);

    const cancelled = await call('POST', `${base}/${runnable.body[names.id]}/cancel`);
    expectFits(jobCancelledSchema(names), cancelled.body, 'cancelled');
    const stream = await fetch(`${api.base}${base}/${runnable.body[names.id]}/events`, { headers: { authorization: `Bearer ${key}` } });
    const lines = (await stream.text()).trim().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expectFits(jobEventSchema, JSON.parse(line), `event ${line}`);
  });

  it.each([SET_A, SET_B])('answers the check routes in the shape of their schemas ($collection)', async (names: NamingSet) => {
    const collection = names.set === 'A' ? 'checks' : 'scenarios';
    await call('POST', `/api/${names.collection}`, { [names.repositoryId]: repositoryId, [names.checkId]: checkId, baseUrl: 'https://shop.example', trigger: 'cli' });
    expectFits(checkListSchema(names), (await call('GET', `/api/${collection}`)).body, 'check list');
    const detail = await call('GET', `/api/${collection}/${checkId}`);
    expect([detail.body.versions.length, detail.body[names.collection].length]).toEqual([1, 1]);
    expectFits(checkDetailSchema(names), detail.body, 'check detail');

    // A version a healing replay proposed, accepted by a person.
    const first = await store().getRepository(CheckVersion).findOneByOrFail({ checkId, version: 1 });
    await store().getRepository(CheckVersion).insert({ checkId, version: 2, compiled: first.compiled, source: '// healed', jobId: null, state: 'proposed', basedOn: 1 });
    const accepted = await call('POST', `/api/${collection}/${checkId}/versions/2/accept`);
    expect(accepted.status).toBe(200);
    expectFits(checkAcceptedSchema(names), accepted.body, 'accepted version');
    const after = await call('GET', `/api/${collection}/${checkId}`);
    expect([after.body.check.version, after.body.versions.map((version: { state: string }) => version.state)]).toEqual([2, ['compiled', 'accepted']]);
    expectFits(checkDetailSchema(names), after.body, 'check detail with an accepted proposal');
  });

  it('answers the repository routes in the shape of their schemas', async () => {
    await connectInstallation(store(), 'codehost', '42', 'acme');
    const connected = await call('POST', '/api/repositories', {
      provider: 'codehost', providerInstallationId: '42', owner: 'acme', name: 'shop', defaultBranch: 'main',
      cloneUrl: 'https://code.example/acme/shop.git', baseUrl: 'https://shop.example', testValueSecretRefs: { demoUser: 'DEMO_USER' },
    });
    expect(connected.status).toBe(202);
    expectFits(repositoryConnectedSchema, connected.body, 'connected');
    expectFits(repositoryListSchema, (await call('GET', '/api/repositories')).body, 'repository list');
    const detail = await call('GET', `/api/repositories/${connected.body.repositoryId}`);
    expect(detail.body.ingestionRuns).toHaveLength(1);
    expectFits(repositoryDetailSchema, detail.body, 'repository detail');
    expectFits(repositoryDetailSchema, (await call('GET', `/api/repositories/${repositoryId}`)).body, 'inserted repository detail');
  });

  it('answers the schedule routes in the shape of their schemas, in either naming set', async () => {
    const byCron = await call('POST', '/api/schedules', { testId: checkId, cron: '0 6 * * 1-5', timezone: 'Europe/Berlin', baseUrl: 'https://shop.example' });
    const byInterval = await call('POST', '/api/schedules', { scenarioId: checkId, intervalMinutes: 60, baseUrl: 'https://shop.example', enabled: false });
    expect([byCron.status, byInterval.status]).toEqual([201, 201]);
    expectFits(scheduleSchema, byCron.body, 'schedule A');
    expectFits(scheduleSchema, byInterval.body, 'schedule B');
    expect(byInterval.body.scenarioId).toBe(checkId);
    await store().getRepository(ScheduleFire).insert([
      { id: randomUUID(), scheduleId: byCron.body.scheduleId, firedAt: new Date(), outcome: 'skipped', jobId: null, reason: 'live execution is paused' },
    ]);
    await store().getRepository(ScheduleFire).insert([
      { id: randomUUID(), scheduleId: byInterval.body.scheduleId, firedAt: new Date(), outcome: 'failed', jobId: null, reason: 'no' },
    ]);
    for (const id of [byCron.body.scheduleId, byInterval.body.scheduleId]) {
      const detail = await call('GET', `/api/schedules/${id}`);
      expect(detail.body.fires).toHaveLength(1);
      expectFits(scheduleDetailSchema, detail.body, `schedule detail ${id}`);
    }
    expectFits(scheduleListSchema, (await call('GET', '/api/schedules')).body, 'schedule list');
  });

  it('answers errors in the error schema', async () => {
    const answers = [
      await call('GET', '/api/jobs', undefined, null),
      await call('GET', `/api/jobs/${randomUUID()}`),
      await call('POST', '/api/jobs', { projectId: repositoryId }),
      await call('POST', '/api/jobs', '{not json'),
      await call('GET', '/api/nowhere'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([401, 404, 400, 400, 404]);
    for (const answer of answers) expectFits(errorResponseSchema, answer.body, answer.text);
  });
});
