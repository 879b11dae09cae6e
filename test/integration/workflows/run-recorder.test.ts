import { afterAll, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileArtifactStorage } from '../../../src/artifacts/file-storage.js';
import { compiledStepSchema, type CompiledStep } from '../../../src/core/check.js';
import { FINDING_TITLE_MAX } from '../../../src/core/findings.js';
import { createScrubber, SECRET_MASK } from '../../../src/core/secrets.js';
import { apiKeyPrincipal } from '../../../src/core/principal.js';
import { createJobService } from '../../../src/jobs/job-service.js';
import { createRulePlanner } from '../../../src/planner/rule-planner.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { Artifact } from '../../../src/store/entities/artifact.entity.js';
import { CheckVersion } from '../../../src/store/entities/check-version.entity.js';
import { Check } from '../../../src/store/entities/check.entity.js';
import { Finding } from '../../../src/store/entities/finding.entity.js';
import { JobCheckpoint } from '../../../src/store/entities/job-checkpoint.entity.js';
import { JobEvent } from '../../../src/store/entities/job-event.entity.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { createWriteBatch } from '../../../src/store/write-batch.js';
import { proposeStep } from '../../../src/workflows/qa-run/propose-step.js';
import { createStepRunner } from '../../../src/workflows/checkpoints.js';
import { nextEventIndex } from '../../../src/jobs/job-events.js';
import type { JobEventType } from '../../../src/core/job-lifecycle.js';
import { createRunRecorder, JobNoLongerRunnable, RunFencedOut, takeRunToken, type RunRecorder, type RunWrites } from '../../../src/workflows/run-recorder.js';
import { storeArtifact } from '../../../src/workflows/run-records.js';
import { insertCheck, insertRepository } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

const SECRET = 'hunter2-correct-horse';

forEachDialect('run recorder', (dialect) => {
  const store = useTestStore(dialect);
  const artifactsDir = mkdtempSync(join(tmpdir(), 'qa-recorder-artifacts-'));
  const artifacts = createFileArtifactStorage(artifactsDir);
  afterAll(() => rmSync(artifactsDir, { recursive: true, force: true }));

  /** A queued job of a new organization, as the job service leaves it for a worker. */
  async function queuedJob(): Promise<{ jobId: string; organizationId: string; checkId: string }> {
    const { organization } = await createApiKey(store(), `acme-${randomUUID()}`);
    const repositoryId = await insertRepository(store(), organization.id);
    const checkId = await insertCheck(store(), organization.id, repositoryId, 'draft');
    const jobId = randomUUID();
    await store().getRepository(Job).insert({
      id: jobId, organizationId: organization.id, repositoryId, checkId, parentJobId: null, status: 'queued', task: 'Open the home page',
      baseUrl: 'https://shop.example', commitSha: null, trigger: 'cli', networkAllowlist: [], channelContext: null, resolution: null, plan: null, workflowId: null, updatedAt: new Date(),
    });
    return { jobId, organizationId: organization.id, checkId };
  }

  const recorderOf = (job: { jobId: string; organizationId: string }, attempt: number, secrets: string[] = []): RunRecorder =>
    createRunRecorder(store(), { jobId: job.jobId, organizationId: job.organizationId, attempt, scrubber: createScrubber(secrets) });

  /** Everything a run writes, in one commit. */
  const everything = (job: { jobId: string; organizationId: string; checkId: string }) => async (writes: RunWrites) => {
    const artifact = await storeArtifact(artifacts, job.organizationId, job.jobId, { kind: 'screenshot', name: 'step-1.png', contentType: 'image/png', content: Buffer.from('png'), stepIndex: 0 });
    await writes.setStatus('running', { startedAt: new Date() });
    await writes.event('job.started', { attempt: 1 });
    await writes.artifacts([artifact]);
    await writes.findings([{ kind: 'console_error', severity: 'error', stepIndex: 0, title: 'Boom', detail: 'It broke' }], [artifact.id]);
    await writes.insert(CheckVersion, { checkId: job.checkId, version: 1, compiled: { steps: [], successCriteria: [] }, source: '// generated', jobId: job.jobId });
    await writes.update(Check, { id: job.checkId }, { status: 'active', version: 1 });
    await writes.checkpoint('start', {});
  };

  async function rowsOf(jobId: string) {
    return {
      events: await store().getRepository(JobEvent).find({ where: { jobId }, order: { seq: 'ASC' } }),
      findings: await store().getRepository(Finding).countBy({ jobId }),
      artifacts: await store().getRepository(Artifact).countBy({ jobId }),
      checkpoints: await store().getRepository(JobCheckpoint).countBy({ jobId }),
      versions: await store().getRepository(CheckVersion).countBy({ jobId }),
      job: await store().getRepository(Job).findOneByOrFail({ id: jobId }),
    };
  }

  // The open proposals are read back with a raw query, whose JSON column arrives as text or parsed by dialect: a
  // replay that heals the same way again must still find the one it proposed (the browser side of this is
  // test/integration/workflows/healed-replay.test.ts, on MySQL).
  it('proposes a healed version once: a replay that heals the same way again points to the open proposal', async () => {
    const job = await queuedJob();
    const button = (name: string): CompiledStep => compiledStepSchema.parse({ step: { action: 'click', description: 'Add the lamp', target: { by: 'role', role: 'button', name: 'Add Desk Lamp to cart' } }, locator: { strategy: 'role', role: 'button', name, exact: true } });
    await store().getRepository(CheckVersion).insert({ checkId: job.checkId, version: 1, compiled: { steps: [button('Add Desk Lamp to cart')], successCriteria: [] }, source: '// v1', jobId: job.jobId });
    const jobRow = await store().getRepository(Job).findOneByOrFail({ id: job.jobId });
    const propose = async (name: string) => {
      const outcome = await proposeStep({ dataSource: store(), generateSource: () => '// proposed' }, { job: jobRow, checkId: job.checkId, basedOn: 1, resolved: [button(name)], healed: [0] });
      await recorderOf(job, await takeRunToken(store(), job.jobId)).commit((writes) => outcome.record(writes));
    };

    await propose('Add the lamp to cart');
    await propose('Add the lamp to cart');
    await propose('Put the lamp in the cart');

    const proposed = (await rowsOf(job.jobId)).events.filter((event) => event.type === 'check.proposed').map((event) => event.data);
    expect(proposed).toEqual([
      { checkId: job.checkId, version: 2, basedOn: 1, healedSteps: [0], existing: false },
      { checkId: job.checkId, version: 2, basedOn: 1, healedSteps: [0], existing: true },
      { checkId: job.checkId, version: 3, basedOn: 1, healedSteps: [0], existing: false },
    ]);
    const versions = await store().getRepository(CheckVersion).find({ where: { checkId: job.checkId }, order: { version: 'ASC' } });
    expect(versions.map((version) => [version.version, version.state])).toEqual([[1, 'compiled'], [2, 'proposed'], [3, 'proposed']]);
  });

  it('numbers the attempts of a run, one token each, and gives none for a job that is no longer runnable', async () => {
    const job = await queuedJob();
    expect(await takeRunToken(store(), job.jobId)).toBe(1);
    expect(await takeRunToken(store(), job.jobId)).toBe(2);
    expect((await store().getRepository(Job).findOneByOrFail({ id: job.jobId })).runAttempt).toBe(2);

    await store().getRepository(Job).update({ id: job.jobId }, { status: 'passed' });
    await expect(takeRunToken(store(), job.jobId)).rejects.toBeInstanceOf(JobNoLongerRunnable);
    expect((await store().getRepository(Job).findOneByOrFail({ id: job.jobId })).runAttempt).toBe(2);
  });

  it('writes everything of a commit for the attempt that owns the run', async () => {
    const job = await queuedJob();
    const recorder = recorderOf(job, await takeRunToken(store(), job.jobId));
    const longAgo = new Date('2026-01-01T00:00:00.000Z');
    await store().getRepository(Job).update({ id: job.jobId }, { updatedAt: longAgo });
    const before = Date.now();

    await recorder.commit(everything(job));

    const rows = await rowsOf(job.jobId);
    expect(rows.events.map((event) => event.type)).toEqual(['job.started', 'artifact.created', 'finding.recorded']);
    expect([rows.findings, rows.artifacts, rows.checkpoints, rows.versions]).toEqual([1, 1, 1, 1]);
    expect(rows.job.status).toBe('running');
    // The status change stamps the row, so the jobs updates stream (GET /api/jobs/updates) shows it.
    expect(rows.job.updatedAt.getTime()).toBeGreaterThanOrEqual(before);
  });

  it('numbers a commit\'s events on from the last one, and says after the commit which it wrote', async () => {
    const job = await queuedJob();
    const seen: string[][] = [];
    const recorder = createRunRecorder(store(), {
      jobId: job.jobId, organizationId: job.organizationId, attempt: await takeRunToken(store(), job.jobId), scrubber: createScrubber([]),
      afterCommit: (written) => seen.push([...written]),
    });

    await recorder.commit(everything(job));
    await recorder.commit(async (writes) => {
      await writes.event('step.passed', { index: 0 });
      await writes.event('job.passed', {});
    });
    await recorder.commit(async (writes) => writes.checkpoint('end', {}));

    const rows = await rowsOf(job.jobId);
    expect(rows.events.map((event) => [event.seq, event.type])).toEqual([[0, 'job.started'], [1, 'artifact.created'], [2, 'finding.recorded'], [3, 'step.passed'], [4, 'job.passed']]);
    expect(seen).toEqual([['job.started', 'artifact.created', 'finding.recorded'], ['step.passed', 'job.passed'], []]);
  });

  it("counts on from its own last event, and numbers again from the history's end when another writer appended meanwhile", async () => {
    const job = await queuedJob();
    const recorder = recorderOf(job, await takeRunToken(store(), job.jobId));
    const written = async (...types: JobEventType[]) => recorder.commit(async (writes) => {
      for (const type of types) await writes.event(type, {});
    });
    await written('job.started', 'step.started');
    await written('step.passed', 'step.started');
    // Another writer of the history (a cancel or an answer through the API) appends as they all do: under the job's
    // row lock, from the history's end.
    await store().transaction(async (manager) => {
      await manager.insert(JobEvent, { jobId: job.jobId, seq: await nextEventIndex(manager, job.jobId), type: 'page.visited', at: new Date(), data: {} });
    });
    await written('step.passed', 'step.started');
    await written('step.passed');
    await recorder.commit(async (writes) => writes.checkpoint('run', {}));
    await written('job.passed');

    const rows = await rowsOf(job.jobId);
    expect(rows.events.map((event) => [event.seq, event.type])).toEqual([
      [0, 'job.started'], [1, 'step.started'], [2, 'step.passed'], [3, 'step.started'], [4, 'page.visited'],
      [5, 'step.passed'], [6, 'step.started'], [7, 'step.passed'], [8, 'job.passed'],
    ]);
  });

  it('lets a stale attempt write nothing at all once a newer one took the run', async () => {
    const job = await queuedJob();
    const stale = recorderOf(job, await takeRunToken(store(), job.jobId));
    const newer = await takeRunToken(store(), job.jobId);

    const failure = stale.commit(everything(job));

    await expect(failure).rejects.toBeInstanceOf(RunFencedOut);
    await expect(failure).rejects.toMatchObject({ token: 1, current: newer, message: expect.stringContaining('a newer attempt owns this run') });
    const rows = await rowsOf(job.jobId);
    expect(rows.events).toEqual([]);
    expect([rows.findings, rows.artifacts, rows.checkpoints, rows.versions]).toEqual([0, 0, 0, 0]);
    expect(rows.job.status).toBe('queued');
    expect(rows.job.startedAt).toBeNull();
    expect((await store().getRepository(Check).findOneByOrFail({ id: job.checkId })).status).toBe('draft');
  });

  it('writes nothing for a job cancelled under the run, after the cancel', async () => {
    const job = await queuedJob();
    const recorder = recorderOf(job, await takeRunToken(store(), job.jobId));
    await recorder.commit((writes) => writes.setStatus('running', { startedAt: new Date() }));
    const writes = createWriteBatch(store());
    try {
      const jobs = createJobService({ dataSource: store(), planner: createRulePlanner(), runs: { stage: () => Promise.reject(new Error('unused')) }, artifacts, writes });
      await jobs.cancel(apiKeyPrincipal(job.organizationId, randomUUID()), job.jobId);
    } finally {
      await writes.close();
    }

    await expect(recorder.commit(everything(job))).rejects.toBeInstanceOf(JobNoLongerRunnable);

    const rows = await rowsOf(job.jobId);
    expect(rows.events.map((event) => event.type)).toEqual(['job.cancelled']);
    expect([rows.findings, rows.artifacts, rows.checkpoints, rows.versions]).toEqual([0, 0, 0, 0]);
    expect(rows.job.status).toBe('cancelled');
  });

  it('writes nothing after the run ended with a verdict', async () => {
    const job = await queuedJob();
    const recorder = recorderOf(job, await takeRunToken(store(), job.jobId));
    await recorder.commit(async (writes) => {
      await writes.setStatus('running');
      await writes.setStatus('passed', { finishedAt: new Date() });
      await writes.event('job.passed', {});
    });

    await expect(recorder.commit((writes) => writes.event('page.visited', {}))).rejects.toBeInstanceOf(JobNoLongerRunnable);

    expect((await rowsOf(job.jobId)).events.map((event) => event.type)).toEqual(['job.passed']);
  });

  it('scrubs every secret from event data, findings and the failure record itself', async () => {
    const job = await queuedJob();
    const recorder = recorderOf(job, await takeRunToken(store(), job.jobId), [SECRET]);
    const long = `${'x'.repeat(FINDING_TITLE_MAX - 5)}${SECRET}`;

    await recorder.commit(async (writes) => {
      await writes.event('step.failed', { index: 0, message: `typed ${SECRET} into the field`, nested: { [SECRET]: [SECRET] } });
      await writes.findings([{ kind: 'assertion_failed', severity: 'error', stepIndex: 0, title: long, detail: `saw ${SECRET}` }], []);
    });
    await recorder.commit(async (writes) => {
      await writes.setStatus('errored', { finishedAt: new Date() });
      await writes.event('job.errored', { reason: `login as ${SECRET} failed` });
    });

    const rows = await rowsOf(job.jobId);
    const stored = JSON.stringify([rows.events, await store().getRepository(Finding).findBy({ jobId: job.jobId })]);
    expect(stored).not.toContain(SECRET);
    // Scrubbed before the title was bounded: not even the secret's first characters survive the cut.
    expect(stored).not.toContain('hunter');
    expect(rows.events.map((event) => event.data)).toEqual([
      { index: 0, message: `typed ${SECRET_MASK} into the field`, nested: { [SECRET_MASK]: [SECRET_MASK] } },
      expect.objectContaining({ title: expect.stringMatching(/^x+\[sec/) }),
      { reason: `login as ${SECRET_MASK} failed` },
    ]);
    const finding = await store().getRepository(Finding).findOneByOrFail({ jobId: job.jobId });
    expect(finding.title.length).toBeLessThanOrEqual(FINDING_TITLE_MAX);
    expect(finding.detail).toBe(`saw ${SECRET_MASK}`);
    expect(rows.job.status).toBe('errored');
  });

  it("reads a job's checkpoints once, runs only the steps not done, and answers for its own as their rows have them", async () => {
    const job = await queuedJob();
    // A first attempt finished `start` and died in `run`.
    await recorderOf(job, await takeRunToken(store(), job.jobId)).commit((writes) => writes.checkpoint('start', { at: 'first attempt' }));
    const recorder = recorderOf(job, await takeRunToken(store(), job.jobId), [SECRET]);
    const steps = createStepRunner(store(), recorder);
    const ran: string[] = [];
    const work = (step: string, result: object) => async () => {
      ran.push(step);
      return { result, record: async () => undefined };
    };

    expect(await steps.completed('start')).toEqual({ at: 'first attempt' });
    // Read once: a row that appeared after the first question (no attempt can add one now: this one holds the token) is not asked for again.
    await store().getRepository(JobCheckpoint).insert({ jobId: job.jobId, step: 'compile', result: {}, completedAt: new Date() });
    expect(await steps.completed('compile')).toBeUndefined();
    expect(await steps.run('start', work('start', { at: 'second attempt' }))).toEqual({ at: 'first attempt' });
    expect(await steps.completed('run')).toBeUndefined();
    expect(await steps.run('run', work('run', { typed: SECRET }))).toEqual({ typed: SECRET });
    // Asked again, the step is done, with what its checkpoint's row holds (scrubbed).
    expect(await steps.completed('run')).toEqual({ typed: SECRET_MASK });
    expect(await steps.run('run', work('run', {}))).toEqual({ typed: SECRET_MASK });
    expect(ran).toEqual(['run']);
    const rows = await store().getRepository(JobCheckpoint).find({ where: { jobId: job.jobId }, order: { step: 'ASC' } });
    expect(rows.map((row) => [row.step, row.result])).toEqual([['compile', {}], ['run', { typed: SECRET_MASK }], ['start', { at: 'first attempt' }]]);
  });
});
