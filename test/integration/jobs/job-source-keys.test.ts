import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from '@jest/globals';
import { createFileArtifactStorage } from '../../../src/artifacts/file-storage.js';
import { PlannerFailure } from '../../../src/core/interpretation.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { createJobService, MAX_SOURCE_KEY, type CreateJobInput, type RunStarter } from '../../../src/jobs/job-service.js';
import type { Planner } from '../../../src/planner/planner.js';
import { createRulePlanner } from '../../../src/planner/rule-planner.js';
import { InProcessNotificationChannel, createQueue } from '../../../src/queue/index.js';
import { Check } from '../../../src/store/entities/check.entity.js';
import { JobEvent } from '../../../src/store/entities/job-event.entity.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { createWriteBatch } from '../../../src/store/write-batch.js';
import { QA_RUN_JOB, qaRunStarter } from '../../../src/workflows/run-starter.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

const RUNNABLE_TASK = 'Check that the pricing page lists three plans';
/** The rule planner asks one yes/no side-effect question for it. */
const REVIEW_TASK = 'Delete the demo account';

/** `jobs.create` / `jobs.answer` with a source key: one job per key and organization, whoever asks how often. */
forEachDialect('job source keys', (dialect) => {
  const store = useTestStore(dialect);
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  const queue = () => createQueue(store(), { pollIntervalMs: 1_000, lockLifetimeMs: 10_000, concurrency: 1 }, new InProcessNotificationChannel());
  const serviceWith = (options: { runs?: RunStarter; planner?: Planner } = {}) => {
    const writes = createWriteBatch(store());
    closers.push(() => writes.close());
    return createJobService({
      dataSource: store(),
      planner: options.planner ?? createRulePlanner(),
      runs: options.runs ?? qaRunStarter(queue()),
      artifacts: createFileArtifactStorage(mkdtempSync(join(tmpdir(), 'qa-source-keys-'))),
      writes,
    });
  };
  const input = (repositoryId: string, fields: Partial<CreateJobInput> = {}): CreateJobInput => ({
    repositoryId, naturalLanguageTask: RUNNABLE_TASK, baseUrl: 'https://shop.example', networkAllowlist: [], trigger: 'chat', ...fields,
  });
  const count = async (table: string, where = '1 = 1', params: unknown[] = []) =>
    Number(((await store().query(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`, params)) as { n: number | string }[])[0]!.n);

  it('returns the job a key already made, runnable or review_required; without a key every create is a new job', async () => {
    const { organization, principal } = await createApiKey(store(), 'acme');
    const repositoryId = await insertRepository(store(), organization.id);
    const jobs = serviceWith();

    const first = await jobs.create(principal, input(repositoryId, { sourceKey: 'chat:Ev1' }));
    const again = await jobs.create(principal, input(repositoryId, { sourceKey: 'chat:Ev1', naturalLanguageTask: 'something else entirely' }));
    const review = await jobs.create(principal, input(repositoryId, { sourceKey: 'chat:Ev2', naturalLanguageTask: REVIEW_TASK }));
    const reviewAgain = await jobs.create(principal, input(repositoryId, { sourceKey: 'chat:Ev2', naturalLanguageTask: REVIEW_TASK }));

    expect(first.kind).toBe('runnable');
    expect(again).toEqual(first);
    expect(review.kind).toBe('review_required');
    expect(reviewAgain).toEqual(review);
    expect(await count('jobs')).toBe(2);
    expect(await count('agenda_jobs', 'name = ?', [QA_RUN_JOB])).toBe(1);
    expect(await jobs.madeFor(principal, 'chat:Ev1')).toBe(first.jobId);
    expect(await jobs.madeFor(principal, 'chat:Ev-none')).toBeNull();

    await jobs.create(principal, input(repositoryId));
    await jobs.create(principal, input(repositoryId));
    expect(await count('jobs')).toBe(4);
  });

  it('keeps keys apart per organization', async () => {
    const acme = await createApiKey(store(), 'acme');
    const globex = await createApiKey(store(), 'globex');
    const jobs = serviceWith();

    const ours = await jobs.create(acme.principal, input(await insertRepository(store(), acme.organization.id), { sourceKey: 'chat:Ev1' }));
    const theirs = await jobs.create(globex.principal, input(await insertRepository(store(), globex.organization.id), { sourceKey: 'chat:Ev1' }));

    expect(theirs.jobId).not.toBe(ours.jobId);
    expect(await jobs.madeFor(globex.principal, 'chat:Ev1')).toBe(theirs.jobId);
  });

  it('a run that commits second (after both looked and found nothing) gets the first one’s job, and its own rows are rolled back', async () => {
    const { organization, principal } = await createApiKey(store(), 'acme');
    const repositoryId = await insertRepository(store(), organization.id);
    const real = qaRunStarter(queue());
    let racer: Promise<unknown> | undefined;
    // The second run's create, staged after its lookup and before its commit, lets the first run commit in between.
    const jobs = serviceWith({
      runs: {
        stage: async (jobId) => {
          if (racer === undefined) {
            racer = jobs.create(principal, input(repositoryId, { sourceKey: 'chat:Ev1' }));
            await racer;
          }
          return real.stage(jobId);
        },
      },
    });

    const second = await jobs.create(principal, input(repositoryId, { sourceKey: 'chat:Ev1' }));

    expect(second).toEqual(await racer);
    expect(await count('jobs')).toBe(1);
    expect(await count('checks')).toBe(1);
    expect(await count('agenda_jobs', 'name = ?', [QA_RUN_JOB])).toBe(1);
    expect(await store().getRepository(Job).findOneByOrFail({ id: second.jobId })).toMatchObject({ sourceKey: 'chat:Ev1', status: 'queued' });
  });

  it('a planner failure under a key is answered again with the same errored job, without asking the planner again', async () => {
    const { organization, principal } = await createApiKey(store(), 'acme');
    const repositoryId = await insertRepository(store(), organization.id);
    let asked = 0;
    const jobs = serviceWith({
      planner: {
        interpret: async () => {
          asked += 1;
          throw new PlannerFailure('the model answered badly twice', []);
        },
      },
    });

    const first = await jobs.create(principal, input(repositoryId, { sourceKey: 'chat:Ev1' })).catch((error: unknown) => error);
    const again = await jobs.create(principal, input(repositoryId, { sourceKey: 'chat:Ev1' })).catch((error: unknown) => error);

    const failed = { code: 'planner.failed', status: 502, details: { jobId: expect.any(String), reason: 'the model answered badly twice' } };
    expect(first).toMatchObject(failed);
    expect(again).toMatchObject(failed);
    expect((again as { details: { jobId: string } }).details.jobId).toBe((first as { details: { jobId: string } }).details.jobId);
    expect(asked).toBe(1);
    expect(await store().getRepository(Job).find()).toMatchObject([{ status: 'errored', sourceKey: 'chat:Ev1' }]);
  });

  it('answers once per key: the same answers again get the child they made, and the parent records it once', async () => {
    const { organization, principal } = await createApiKey(store(), 'acme');
    const repositoryId = await insertRepository(store(), organization.id);
    const jobs = serviceWith();
    const parent = await jobs.create(principal, input(repositoryId, { naturalLanguageTask: REVIEW_TASK }));

    const child = await jobs.answer(principal, parent.jobId, ['yes'], { sourceKey: 'chat:Ev9' });
    const again = await jobs.answer(principal, parent.jobId, ['yes'], { sourceKey: 'chat:Ev9' });

    expect(again).toEqual(child);
    expect(await store().getRepository(Job).countBy({ parentJobId: parent.jobId })).toBe(1);
    const answered = await store().getRepository(JobEvent).findBy({ jobId: parent.jobId, type: 'job.answered' });
    expect(answered.map((event) => event.data)).toEqual([{ childJobId: child.jobId }]);
    // Without a key (the API's answers), a second answer is a second child, as before.
    await jobs.answer(principal, parent.jobId, ['no']);
    expect(await store().getRepository(Job).countBy({ parentJobId: parent.jobId })).toBe(2);
  });

  it('refuses an empty key or one longer than the column, and writes nothing', async () => {
    const { organization, principal } = await createApiKey(store(), 'acme');
    const repositoryId = await insertRepository(store(), organization.id);
    const jobs = serviceWith();

    for (const sourceKey of ['', `chat:${'x'.repeat(MAX_SOURCE_KEY)}`]) {
      await expect(jobs.create(principal, input(repositoryId, { sourceKey }))).rejects.toThrow(RangeError);
    }
    expect(await store().getRepository(Job).count()).toBe(0);
    expect(await store().getRepository(Check).count()).toBe(0);
  });
});
