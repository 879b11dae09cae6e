/**
 * A pull request's replays of the demo shop on a worker composed as `qa worker` composes it with CODEHOST_* set:
 * real Chromium runs the check, the outbox and the `notify-delivery` queue job carry its progress to the fake code
 * host, and the pull request ends with one comment (edited as the run went) and one completed check run.
 * On MySQL only, as the suite's other browser workflows: the outbox and the delivery's reads, where the dialects differ,
 * are tested on both in outbox.test.ts, deliver-progress.test.ts and pull-request-progress.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { compiledCheckSchema, type CompiledCheck } from '../../../src/core/check.js';
import { codehostPrincipal, type Principal } from '../../../src/core/principal.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { createNotificationOutbox } from '../../../src/jobs/notification-outbox.js';
import { connectInstallation } from '../../../src/store/repository-admission.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { startFakeCodehost, type FakeCodehost } from '../../fakes/codehost-api.js';
import { insertActiveCheck } from '../../support/backlog.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { useDemoService } from '../../support/test-service.js';
import { jobServiceOn } from './notify-fixtures.js';
import { APP_ID, APP_KEYS, BOT_NAME, codehostSettings, COMMENT_POSTS, HEAD_SHA, INSTALLATION, postedFor, pullRequestContext, summaryOf, until } from './pull-request-fixtures.js';

const PUBLIC_BASE_URL = 'https://qa.example.test';

/** The pricing page, and its heading checked: `heading` "Pricing" passes, anything else fails with the headings shown. */
function pricingCheck(heading: string): CompiledCheck {
  return compiledCheckSchema.parse({
    steps: [
      { step: { action: 'navigate', description: 'Open the pricing page', url: '/pricing' } },
      { step: { action: 'expectText', description: `Expect a heading to show "${heading}"`, text: heading, role: 'heading' } },
    ],
    successCriteria: [],
  });
}

describe('pull-request replays report on the PR', () => {
  let fake: FakeCodehost | undefined;
  beforeAll(async () => {
    fake = await startFakeCodehost({ appId: APP_ID, publicKey: APP_KEYS.publicKey, botName: BOT_NAME });
    fake.addInstallation(INSTALLATION);
  });
  const shop = useDemoService('mysql', { worker: () => ({ codehost: codehostSettings(fake!), notify: { minIntervalMs: 200, publicBaseUrl: PUBLIC_BASE_URL } }) });
  // Declared after the service's: the worker stops (and sends nothing more) before the fake goes.
  afterAll(async () => {
    await fake?.close();
  });

  let principal: Principal;
  let organizationId: string;
  let repositoryId: string;
  beforeEach(async () => {
    const { organization } = await createApiKey(shop.store(), 'acme');
    organizationId = organization.id;
    repositoryId = await insertRepository(shop.store(), organization.id, { baseUrl: shop.demo.url });
    await connectInstallation(shop.store(), 'codehost', String(INSTALLATION), 'acme');
    principal = codehostPrincipal(organization.id, INSTALLATION, null);
  });

  /** Replays a new active check of the heading at the PR's head, and waits until its final state is on the PR. */
  async function replay(heading: string, pullNumber: number) {
    const checkId = await insertActiveCheck(shop.store(), organizationId, repositoryId, pricingCheck(heading));
    const built = jobServiceOn(shop.store());
    try {
      const { jobId } = await built.jobs.create(principal, {
        repositoryId,
        checkId,
        baseUrl: shop.demo.url,
        networkAllowlist: [],
        commitSha: HEAD_SHA,
        trigger: 'codehost',
        channelContext: pullRequestContext({ pullNumber }),
      });
      const outbox = createNotificationOutbox(shop.store());
      await until(async () => (await outbox.state(jobId))?.finalDelivered);
      return { jobId, job: await shop.store().getRepository(Job).findOneByOrFail({ id: jobId }), posted: postedFor(fake!, jobId), state: await outbox.state(jobId) };
    } finally {
      await built.close();
      await built.queue.backend.disconnect();
    }
  }

  it('a passing replay ends in one comment, edited as it ran, and one check run completed as success', async () => {
    const { jobId, job, posted, state } = await replay('Pricing', 11);
    expect(job.status).toBe('passed');
    expect(posted.comments).toHaveLength(1);
    expect(posted.comments[0]!.issueNumber).toBe(11);
    expect(posted.comments[0]!.edits).toBeGreaterThanOrEqual(1);
    expect(posted.comments[0]!.body).toContain('### ✅ QA: Passed in');
    expect(posted.comments[0]!.body).toContain('Replay of Sign in and open a slow page');
    expect(posted.checkRuns).toEqual([
      expect.objectContaining({ head_sha: HEAD_SHA, status: 'completed', conclusion: 'success', external_id: jobId, details_url: `${PUBLIC_BASE_URL}/jobs/${jobId}` }),
    ]);
    expect(state).toMatchObject({ messageHandle: `comment=${posted.comments[0]!.id};check=${posted.checkRuns[0]!.id}`, lastError: null });
  });

  it('a failing replay ends as failure, with the finding\'s expected and actual and the failing step\'s screenshot in the summary', async () => {
    const { jobId, job, posted } = await replay('Gadgets Galore', 12);
    expect(job.status).toBe('failed');
    expect(posted.checkRuns).toEqual([expect.objectContaining({ status: 'completed', conclusion: 'failure' })]);
    const summary = summaryOf(posted.checkRuns[0]);
    expect(summary).toContain('`assertion_failed`: Step 2 failed: Expect a heading to show "Gadgets Galore"');
    expect(summary).toContain('  - expected: Gadgets Galore\n  - actual: "Pricing", "Starter", "Pro" and 1 more');
    expect(summary).toMatch(new RegExp(`\\[Screenshot of step 2\\]\\(${PUBLIC_BASE_URL}/jobs/${jobId}/artifacts/[0-9a-f-]{36}\\)`));
    expect((posted.checkRuns[0]!.output as { title: string }).title).toMatch(/^Failed after [\d.]+ s: 1 error/);
    expect(posted.comments).toHaveLength(1);
    expect(posted.comments[0]!.body).toContain('  - expected: Gadgets Galore');
  });

  it('a 429 and a 5xx from the code host delay the comment, never the run, and it is still posted once', async () => {
    fake!.failNext(1, 429, 1, { method: 'POST', path: COMMENT_POSTS });
    const first = await replay('Pricing', 13);
    fake!.failNext(2, 502, undefined, { method: 'POST', path: COMMENT_POSTS });
    const second = await replay('Pricing', 14);
    for (const { job, posted } of [first, second]) {
      expect(job.status).toBe('passed');
      expect(posted.comments).toHaveLength(1);
      expect(posted.checkRuns).toEqual([expect.objectContaining({ conclusion: 'success' })]);
    }
    const posts = fake!.requests.filter((request) => request.method === 'POST' && /\/issues\/1[34]\/comments$/.test(request.path));
    expect(posts.map((request) => request.status)).toEqual([429, 201, 502, 502, 201]);
  });
});
