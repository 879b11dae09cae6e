import { tmpdir } from 'node:os';
import { createFileArtifactStorage } from '../../../src/artifacts/file-storage.js';
import { afterEach, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createJobService, type CreateJobInput, type RunStarter } from '../../../src/jobs/job-service.js';
import { Check } from '../../../src/store/entities/check.entity.js';
import { createWriteBatch } from '../../../src/store/write-batch.js';
import { createRulePlanner } from '../../../src/planner/rule-planner.js';
import { createRepositoryService, type OnboardingStarter } from '../../../src/repos/repository-service.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { ConnectedRepository } from '../../../src/store/entities/connected-repository.entity.js';
import { IngestionRun } from '../../../src/store/entities/ingestion-run.entity.js';
import { JobEvent } from '../../../src/store/entities/job-event.entity.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { connectInstallation } from '../../../src/store/repository-admission.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

/** When the queue refuses a workflow, nothing is left pretending to be queued (or half-written). */
forEachDialect('workflow start failures', (dialect) => {
  const store = useTestStore(dialect);
  const queueDown = async (): Promise<never> => {
    throw new Error('queue unavailable');
  };

  const repositoryOf = (organizationId: string): Promise<string> => insertRepository(store(), organizationId);
  const servicesWith = (runs: RunStarter) => {
    const writes = createWriteBatch(store());
    afterThis.push(() => writes.close());
    return createJobService({ dataSource: store(), planner: createRulePlanner(), runs, artifacts: createFileArtifactStorage(tmpdir()), writes });
  };
  const afterThis: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of afterThis.splice(0)) await close();
  });
  const runnable = (repositoryId: string): CreateJobInput => ({
    repositoryId, naturalLanguageTask: 'Check that the pricing page lists three plans', baseUrl: 'https://shop.example', networkAllowlist: [], trigger: 'cli',
  });
  const nothingWritten = async () => {
    expect(await store().getRepository(Job).count()).toBe(0);
    expect(await store().getRepository(Check).count()).toBe(0);
    expect(await store().getRepository(JobEvent).count()).toBe(0);
  };

  it('writes nothing when the queue refuses the workflow, and answers 503', async () => {
    const { organization, principal } = await createApiKey(store(), 'acme');
    const jobs = servicesWith({ stage: queueDown });
    await expect(jobs.create(principal, runnable(await repositoryOf(organization.id)))).rejects.toMatchObject({ code: 'job.start_failed', status: 503 });
    await nothingWritten();
  });

  it('rolls back the job, its check and its events when the queue row fails inside the transaction', async () => {
    const { organization, principal } = await createApiKey(store(), 'acme');
    // The queue job's INSERT is the second statement of the batch: the check before it must not stay.
    const jobs = servicesWith({
      stage: async () => ({ workflowId: randomUUID(), statement: { sql: 'INSERT INTO no_such_table (id) VALUES (?)', params: [1] }, announce: async () => undefined }),
    });
    await expect(jobs.create(principal, runnable(await repositoryOf(organization.id)))).rejects.toThrow(/no_such_table/);
    await nothingWritten();
    // The batch's connection went back clean: the next creation commits.
    const working = servicesWith({
      stage: async () => ({ workflowId: randomUUID(), statement: { sql: 'SELECT 1', params: [] }, announce: async () => undefined }),
    });
    const created = await working.create(principal, runnable(await repositoryOf(organization.id)));
    expect(await store().getRepository(Job).findOneByOrFail({ id: created.jobId })).toMatchObject({ status: 'queued' });
  });

  it('still records a review_required job: it starts no workflow', async () => {
    const { organization, principal } = await createApiKey(store(), 'acme');
    const jobs = servicesWith({ stage: queueDown });
    const created = await jobs.create(principal, { ...runnable(await repositoryOf(organization.id)), naturalLanguageTask: 'Delete the demo account' });
    expect(created.kind).toBe('review_required');
    expect(await store().getRepository(Job).findOneByOrFail({ id: created.jobId })).toMatchObject({ status: 'review_required', workflowId: null });
  });

  const connectInput = {
    provider: 'codehost', providerInstallationId: '42', owner: 'acme', name: 'shop', defaultBranch: 'main',
    cloneUrl: 'https://code.example/acme/shop.git', baseUrl: 'https://shop.example', networkAllowlist: [], testValueSecretRefs: {}, evidenceProbeRefs: {},
  };
  const repositoriesWith = (onboarding: OnboardingStarter) =>
    createRepositoryService({ dataSource: store(), config: { excludedOwners: [] }, readSecret: () => undefined, onboarding });
  const nothingConnected = async () => {
    expect(await store().getRepository(ConnectedRepository).count()).toBe(0);
    expect(await store().getRepository(IngestionRun).count()).toBe(0);
  };

  it('connects nothing when the queue refuses the onboarding workflow, and answers 503', async () => {
    const { principal } = await createApiKey(store(), 'acme');
    await connectInstallation(store(), 'codehost', '42', 'acme');
    const repositories = repositoriesWith({ stage: queueDown });
    await expect(repositories.connect(principal, connectInput)).rejects.toMatchObject({ code: 'repository.onboarding_start_failed', status: 503 });
    await nothingConnected();
  });

  it('rolls back the repository and its ingestion run when the onboarding queue row fails inside the transaction', async () => {
    const { principal } = await createApiKey(store(), 'acme');
    await connectInstallation(store(), 'codehost', '42', 'acme');
    let announced = false;
    const failing = repositoriesWith({
      stage: async () => ({
        workflowId: randomUUID(),
        statement: { sql: 'INSERT INTO no_such_table (id) VALUES (?)', params: [1] },
        announce: async () => {
          announced = true;
        },
      }),
    });
    await expect(failing.connect(principal, connectInput)).rejects.toThrow(/no_such_table/);
    await nothingConnected();
    expect(announced).toBe(false);
  });
});
