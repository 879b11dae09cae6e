import { afterAll, beforeAll, beforeEach, expect, it } from '@jest/globals';
import type { Job as AgendaJob } from 'agenda';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileArtifactStorage } from '../../../src/artifacts/file-storage.js';
import { createJobService } from '../../../src/jobs/job-service.js';
import { createRulePlanner } from '../../../src/planner/rule-planner.js';
import { InProcessNotificationChannel, createQueue, createWorker, type Queue, type Worker } from '../../../src/queue/index.js';
import { toSqlDate } from '../../../src/queue/mysql-backend/sql-dates.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { Check } from '../../../src/store/entities/check.entity.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { Schedule } from '../../../src/store/entities/schedule.entity.js';
import { setCapabilityPaused } from '../../../src/store/execution-flags.js';
import { createWriteBatch, type WriteBatch } from '../../../src/store/write-batch.js';
import { QA_RUN_JOB, qaRunStarter } from '../../../src/workflows/run-starter.js';
import { SCHEDULE_FIRE_JOB, createScheduleRepeats, scheduleFireJob } from '../../../src/workflows/schedule-fire.js';
import { callApi, startTestApi, type TestApi } from '../../support/api-server.js';
import { insertCheck, insertRepository } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';
import { silentLogger } from '../../support/logger.js';

/**
 * A schedule's fire, run by a real worker: the repeat jobs the API saves are minutes away, so each test fires one
 * at once (`agenda.now('schedule-fire', {scheduleId})`, what the repeat job's run does when it comes due).
 */
forEachDialect('schedule fires', (dialect) => {
  let api: TestApi;
  let queue: Queue;
  let worker: Worker;
  let writes: WriteBatch | undefined;
  const completed = new Set<string>();
  let key: string;
  let organizationId: string;
  let repositoryId: string;
  let checkId: string;

  // Declared before the store, so it runs before the store closes (the worker releases its locks there).
  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    await writes?.close();
  });
  const store = useTestStore(dialect);

  beforeAll(async () => {
    api = await startTestApi(store());
    // The worker runs only schedule fires; the replays they start stay queued (no qa-run handler here). Agenda arms
    // a liveness timer of lockLifetime/2 per run and never clears it: a short lifetime lets the process exit soon.
    queue = createQueue(store(), { pollIntervalMs: 50, lockLifetimeMs: 2_000, concurrency: 2 }, new InProcessNotificationChannel());
    writes = createWriteBatch(store());
    const jobs = createJobService({
      writes,
      dataSource: store(),
      planner: createRulePlanner(),
      runs: qaRunStarter(queue),
      artifacts: createFileArtifactStorage(mkdtempSync(join(tmpdir(), 'qa-fire-artifacts-'))),
    });
    const repeats = createScheduleRepeats(queue.agenda);
    const definition = scheduleFireJob({
      dataSource: store(),
      createJob: (organization, input) => jobs.create(organization, input),
      removeRepeat: (scheduleId) => repeats.remove(scheduleId),
    });
    queue.agenda.on(`complete:${SCHEDULE_FIRE_JOB}`, (job: AgendaJob) => completed.add(String(job.attrs._id)));
    worker = createWorker(queue, [definition], silentLogger(), 1_000);
    await worker.start();
  });

  beforeEach(async () => {
    const issued = await createApiKey(store(), 'acme');
    key = issued.key;
    organizationId = issued.organization.id;
    repositoryId = await insertRepository(store(), organizationId);
    checkId = await insertCheck(store(), organizationId, repositoryId, 'active');
  });

  const call = (method: string, path: string, body?: unknown) => callApi(api.base, method, path, body, key);

  /** Fires the schedule now through the worker, and waits until that run has finished. */
  async function fire(scheduleId: string): Promise<void> {
    const job = await queue.agenda.now(SCHEDULE_FIRE_JOB, { scheduleId });
    await finished(String(job.attrs._id));
  }

  async function finished(id: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!completed.has(id)) {
      if (Date.now() > deadline) throw new Error(`schedule fire ${id} did not finish`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  const scheduledJobs = () => store().getRepository(Job).find({ where: { trigger: 'schedule' }, order: { createdAt: 'ASC' } });

  async function createSchedule(fields: Record<string, unknown> = {}): Promise<string> {
    const created = await call('POST', '/api/schedules', { testId: checkId, intervalMinutes: 60, baseUrl: 'https://shop.example', networkAllowlist: ['cdn.shop.example'], ...fields });
    expect(created.status).toBe(201);
    return created.body.scheduleId as string;
  }

  it('creates a replay job with trigger schedule, started on the qa-run workflow, and records the fire', async () => {
    const scheduleId = await createSchedule();
    await fire(scheduleId);

    const jobs = await scheduledJobs();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({
      organizationId,
      repositoryId,
      checkId,
      status: 'queued',
      trigger: 'schedule',
      task: null,
      plan: null,
      baseUrl: 'https://shop.example',
      networkAllowlist: ['cdn.shop.example'],
      channelContext: { scheduleId },
    });
    const workflow = await queue.backend.repository.getJobById(jobs[0]!.workflowId!);
    expect(workflow).toMatchObject({ name: QA_RUN_JOB, data: { jobId: jobs[0]!.id } });

    // The replay reads like any other job, and the schedule shows the fire.
    const view = await call('GET', `/api/jobs/${jobs[0]!.id}`);
    expect(view.body.job).toMatchObject({ trigger: 'schedule', testId: checkId, channelContext: { scheduleId } });
    const schedule = await call('GET', `/api/schedules/${scheduleId}`);
    expect(schedule.body.fires).toEqual([{ at: expect.any(String), outcome: 'queued', jobId: jobs[0]!.id, reason: null }]);

    // The repeat job is untouched by a fire of its schedule.
    const repeats = (await queue.backend.repository.queryJobs({ name: SCHEDULE_FIRE_JOB, data: { scheduleId } })).jobs;
    expect(repeats.filter((job) => job.repeatInterval !== undefined)).toHaveLength(1);
  });

  it('runs the repeat job itself when it comes due, and schedules its next run one interval later', async () => {
    const scheduleId = await createSchedule({ intervalMinutes: 60 });
    const [repeat] = (await queue.backend.repository.queryJobs({ name: SCHEDULE_FIRE_JOB, data: { scheduleId } })).jobs;
    // Bring the run due now instead of in an hour.
    await store().query('UPDATE agenda_jobs SET next_run_at = ? WHERE id = ?', [toSqlDate(new Date(Date.now() - 1_000)), String(repeat!._id)]);

    await finished(String(repeat!._id));

    const jobs = await scheduledJobs();
    expect(jobs.map((job) => [job.checkId, job.channelContext])).toEqual([[checkId, { scheduleId }]]);
    const after = await queue.backend.repository.getJobById(String(repeat!._id));
    expect(after!.lastRunAt).toBeDefined();
    expect(after!.nextRunAt!.getTime() - after!.lastRunAt!.getTime()).toBe(60 * 60_000);
    expect(after!.failCount ?? 0).toBe(0);
    const schedule = await call('GET', `/api/schedules/${scheduleId}`);
    expect(schedule.body.nextRunAt).toBe(after!.nextRunAt!.toISOString());
  });

  it('records a skipped fire, creating no job, while live execution is paused; the next fire runs again', async () => {
    const scheduleId = await createSchedule({ testId: undefined, scenarioId: checkId });
    await setCapabilityPaused(store(), 'live', true, organizationId);
    await fire(scheduleId);
    expect(await scheduledJobs()).toEqual([]);
    const skipped = await call('GET', `/api/schedules/${scheduleId}`);
    expect(skipped.body.fires).toEqual([
      { at: expect.any(String), outcome: 'skipped', runId: null, reason: 'Live execution is paused; try again once an operator resumes it' },
    ]);

    await setCapabilityPaused(store(), 'live', false, organizationId);
    await fire(scheduleId);
    const jobs = await scheduledJobs();
    expect(jobs).toHaveLength(1);
    const fires = (await call('GET', `/api/schedules/${scheduleId}`)).body.fires as { outcome: string; runId: string | null }[];
    expect(fires.map((f) => [f.outcome, f.runId])).toEqual([
      ['queued', jobs[0]!.id],
      ['skipped', null],
    ]);
  });

  it('records a failed fire with the reason when the replay cannot be created, and does not retry it', async () => {
    const scheduleId = await createSchedule();
    // The check moved to another repository after the schedule was made: the job service refuses the replay.
    const elsewhere = await insertRepository(store(), organizationId);
    await store().getRepository(Check).update({ id: checkId }, { repositoryId: elsewhere });

    await fire(scheduleId);

    expect(await scheduledJobs()).toEqual([]);
    const fires = (await call('GET', `/api/schedules/${scheduleId}`)).body.fires;
    expect(fires).toEqual([{ at: expect.any(String), outcome: 'failed', jobId: null, reason: 'That check belongs to another repository' }]);
    const oneOff = (await queue.backend.repository.queryJobs({ name: SCHEDULE_FIRE_JOB, data: { scheduleId } })).jobs.filter((job) => !job.repeatInterval);
    expect(oneOff.map((job) => [job.failCount ?? 0, job.nextRunAt ?? null])).toEqual([[0, null]]);
  });

  it('does nothing for a deleted schedule', async () => {
    const scheduleId = await createSchedule();
    await fire(scheduleId);
    expect(await scheduledJobs()).toHaveLength(1);

    expect((await call('DELETE', `/api/schedules/${scheduleId}`)).status).toBe(204);
    expect((await queue.backend.repository.queryJobs({ name: SCHEDULE_FIRE_JOB })).jobs).toEqual([]);
    await fire(scheduleId);
    expect(await scheduledJobs()).toHaveLength(1);
  });

  it('removes a repeat job whose schedule is gone (left behind by a delete that failed half-way), creating nothing', async () => {
    const gone = await createSchedule();
    const kept = await createSchedule({ intervalMinutes: 30 });
    await store().getRepository(Schedule).delete({ id: gone });

    await fire(gone);

    expect(await scheduledJobs()).toEqual([]);
    const left = (await queue.backend.repository.queryJobs({ name: SCHEDULE_FIRE_JOB })).jobs;
    expect(left.map((job) => job.data)).toEqual([{ scheduleId: kept }]);
  });

  it('does not replay a disabled schedule', async () => {
    const scheduleId = await createSchedule({ enabled: false });
    await fire(scheduleId);
    expect(await scheduledJobs()).toEqual([]);
    expect((await call('GET', `/api/schedules/${scheduleId}`)).body.fires).toEqual([]);
  });
});
