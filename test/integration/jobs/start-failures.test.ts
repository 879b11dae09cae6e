import { tmpdir } from 'node:os';
import { createFileArtifactStorage } from '../../../src/artifacts/file-storage.js';
import { expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createJobService } from '../../../src/jobs/job-service.js';
import { createRulePlanner } from '../../../src/planner/rule-planner.js';
import { createRepositoryService } from '../../../src/repos/repository-service.js';
import { createApiKey } from '../../../src/store/api-keys.js';
import { ConnectedRepository } from '../../../src/store/entities/connected-repository.entity.js';
import { IngestionRun } from '../../../src/store/entities/ingestion-run.entity.js';
import { JobEvent } from '../../../src/store/entities/job-event.entity.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { connectInstallation } from '../../../src/store/repository-admission.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

/** When the queue refuses the workflow after the records are committed, nothing is left pretending to be queued. */
forEachDialect('workflow start failures', (dialect) => {
  const store = useTestStore(dialect);
  const queueDown = async (): Promise<string> => {
    throw new Error('queue unavailable');
  };

  it('marks a runnable job errored, with an event, and answers 503 naming it', async () => {
    const { organization } = await createApiKey(store(), 'acme');
    const repositoryId = randomUUID();
    await store().getRepository(ConnectedRepository).insert({
      id: repositoryId, organizationId: organization.id, provider: 'codehost', providerInstallationId: '42', owner: 'acme', name: 'shop',
      defaultBranch: 'main', cloneUrl: 'https://code.example/acme/shop.git', baseUrl: 'https://shop.example', networkAllowlist: [],
      testValueSecretRefs: {}, evidenceProbeRefs: {}, revision: null,
    });
    const jobs = createJobService({ dataSource: store(), planner: createRulePlanner(), startRun: queueDown, artifacts: createFileArtifactStorage(tmpdir()) });
    const failure = await jobs
      .create(organization.id, { repositoryId, naturalLanguageTask: 'Check that the pricing page lists three plans', baseUrl: 'https://shop.example', networkAllowlist: [], trigger: 'cli' })
      .then(() => undefined, (error: unknown) => error as { code: string; status: number; details: { jobId: string } });
    expect(failure).toMatchObject({ code: 'job.start_failed', status: 503 });
    const job = await store().getRepository(Job).findOneByOrFail({ id: failure!.details.jobId });
    expect(job).toMatchObject({ status: 'errored', workflowId: null });
    const events = await store().getRepository(JobEvent).find({ where: { jobId: job.id }, order: { seq: 'ASC' } });
    expect(events.map((event) => event.type)).toEqual(['job.created', 'job.queued', 'job.errored']);
  });

  it('marks the ingestion run errored when onboarding cannot be started', async () => {
    const { organization } = await createApiKey(store(), 'acme');
    await connectInstallation(store(), 'codehost', '42', 'acme');
    const repositories = createRepositoryService({ dataSource: store(), config: { excludedOwners: [] }, readSecret: () => undefined, startOnboarding: queueDown });
    await expect(
      repositories.connect(organization.id, {
        provider: 'codehost', providerInstallationId: '42', owner: 'acme', name: 'shop', defaultBranch: 'main',
        cloneUrl: 'https://code.example/acme/shop.git', baseUrl: 'https://shop.example', networkAllowlist: [], testValueSecretRefs: {}, evidenceProbeRefs: {},
      }),
    ).rejects.toMatchObject({ code: 'repository.onboarding_start_failed', status: 503 });
    const runs = await store().getRepository(IngestionRun).find();
    expect(runs.map((run) => [run.status, run.workflowId])).toEqual([['errored', null]]);
  });
});
