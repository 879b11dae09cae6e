import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { JobEvent } from '../../../src/store/entities/job-event.entity.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { WebhookReceipt } from '../../../src/store/entities/webhook-receipt.entity.js';
import { connectInstallation } from '../../../src/store/repository-admission.js';
import { DEFAULT_ACCOUNT, startDemoApp, type DemoApp } from '../../fixtures/demo-app/index.js';
import { startTestApi, type TestApi } from '../../support/api-server.js';
import { BACKLOG_SECRET_REFS, backlogCheck, insertActiveCheck } from '../../support/backlog.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { examplePayload, signedDelivery } from '../../support/codehost-deliveries.js';
import { useTestStore } from '../../support/dialects.js';
import { startTestWorker, type TestWorker } from '../../support/qa-worker.js';

const SECRET = 'codehost-webhook-secret-for-pull-request-replays';
const HEAD = '1234567890abcdef1234567890abcdef12345678';

async function until<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a pull request replays its repository’s checks in Chromium against its preview deployment [mysql]', () => {
  let demo: DemoApp | undefined;
  let worker: TestWorker | undefined;
  let api: TestApi | undefined;
  afterAll(async () => {
    await api?.close();
    await worker?.stop();
    await demo?.close();
  });
  const store = useTestStore('mysql');
  beforeAll(async () => {
    demo = await startDemoApp();
    worker = await startTestWorker(store(), { secrets: { DEMO_EMAIL: DEFAULT_ACCOUNT.email, DEMO_PASSWORD: DEFAULT_ACCOUNT.password } });
    api = await startTestApi(store(), { codehost: { webhookSecret: SECRET }, artifacts: worker.artifacts });
  });

  async function deliver(event: string, body: unknown): Promise<void> {
    const deliveryId = randomUUID();
    const signed = await signedDelivery(SECRET, event, body, deliveryId);
    const response = await fetch(`${api!.base}/api/webhooks/codehost`, { method: 'POST', headers: signed.headers, body: signed.body });
    expect(response.status).toBe(202);
    await until(async () => (await store().getRepository(WebhookReceipt).findOneBy({ deliveryId }))?.status === 'completed');
  }

  it('runs the check at the deployment’s environment_url once the head is deployed, and it passes', async () => {
    const { organization } = await createApiKey(store(), 'acme');
    await connectInstallation(store(), 'codehost', '42', 'acme');
    const repositoryId = await insertRepository(store(), organization.id, {
      owner: 'Codertocat',
      name: 'Hello-World',
      // Never reached: the runs go to the deployment.
      baseUrl: 'http://127.0.0.1:9',
      networkAllowlist: ['localhost'],
      testValueSecretRefs: BACKLOG_SECRET_REFS,
      pullRequestSettings: { waitForDeployment: true },
    });
    const checkId = await insertActiveCheck(store(), organization.id, repositoryId, backlogCheck(50));

    const opened = examplePayload('pull_request', 'opened') as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a payload edited field by field
    opened.installation = { id: 42 };
    opened.pull_request.head.sha = HEAD;
    await deliver('pull_request', opened);
    expect(await store().getRepository(Job).count()).toBe(0);

    const deployed = examplePayload('deployment_status') as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a payload edited field by field
    deployed.installation = { id: 42 };
    deployed.deployment.sha = HEAD;
    deployed.deployment_status.environment_url = demo!.url;
    await deliver('deployment_status', deployed);

    const job = await until(async () => {
      const found = await store().getRepository(Job).findOneBy({ checkId });
      return found && ['passed', 'failed', 'errored', 'cancelled'].includes(found.status) ? found : undefined;
    });
    const events = await store().getRepository(JobEvent).find({ where: { jobId: job.id }, order: { seq: 'ASC' } });
    expect({ status: job.status, baseUrl: job.baseUrl, commitSha: job.commitSha, trigger: job.trigger }).toEqual({ status: 'passed', baseUrl: demo!.url, commitSha: HEAD, trigger: 'codehost' });
    expect(job.channelContext).toMatchObject({ channel: 'codehost', owner: 'Codertocat', repo: 'Hello-World', pullNumber: 2, headSha: HEAD });
    expect(events.filter((event) => event.type === 'step.passed')).toHaveLength(7);
    expect(await store().getRepository(Job).count()).toBe(1);
  });
});
