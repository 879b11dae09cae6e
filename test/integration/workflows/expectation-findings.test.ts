/**
 * A failed expectation as a job records it, through the API and the worker: the finding is `assertion_failed` with
 * `expected` and `actual`, and links the screenshot taken at that step; other findings carry neither (null); a truly
 * absent target is still `step_unresolvable`. On MySQL only (see qa-run.test.ts): how both dialects store the
 * comparison is tested in recorder-comparison.test.ts.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { callApi } from '../../support/api-server.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { useDemoService } from '../../support/test-service.js';

interface FindingBody {
  kind: string;
  severity: string;
  title: string;
  detail: string;
  stepIndex: number | null;
  expected: string | null;
  actual: string[] | null;
  artifactIds: string[];
}

describe('findings of failed expectations', () => {
  let key: string;
  let repositoryId: string;

  const shop = useDemoService('mysql');
  const { store } = shop;

  beforeEach(async () => {
    const { key: created, organization } = await createApiKey(store(), 'acme');
    key = created;
    repositoryId = await insertRepository(store(), organization.id, { baseUrl: shop.demo.url });
  });

  async function runJob(task: string) {
    const created = await callApi(shop.api.base, 'POST', '/api/jobs', { projectId: repositoryId, naturalLanguageTask: task, baseUrl: shop.demo.url, trigger: 'cli' }, key);
    expect(created.status).toBe(202);
    const jobId = created.body.jobId as string;
    // The stream ends when the job does.
    const streamed = await (await fetch(`${shop.api.base}/api/jobs/${jobId}/events`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(60_000) })).text();
    const events = streamed.trim().split('\n').map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });
    const view = await callApi(shop.api.base, 'GET', `/api/jobs/${jobId}`, undefined, key);
    return { jobId, events, job: view.body.job as { status: string }, findings: view.body.findings as FindingBody[], artifacts: view.body.artifacts as { id: string; kind: string; stepIndex: number | null }[] };
  }

  it('records what a heading was expected to say and what the headings say, with the screenshot of that step', async () => {
    const { jobId, events, job, findings, artifacts } = await runJob('Go to /pricing and check that the heading says "Gadgets Galore"');
    expect(job.status).toBe('failed');
    // The progress stream says it too, for whoever follows the job.
    expect(events.find((event) => event.type === 'step.failed')?.data).toMatchObject({ index: 1, kind: 'assertion_failed', expected: 'Gadgets Galore', actual: expect.arrayContaining(['Pricing']) });
    const failed = findings.find((finding) => finding.stepIndex === 1)!;
    expect(failed).toMatchObject({
      kind: 'assertion_failed',
      severity: 'error',
      title: 'Step 2 failed: Expect a heading to show "Gadgets Galore"',
      expected: 'Gadgets Galore',
      actual: expect.arrayContaining(['Pricing', 'Starter', 'Pro', 'Team']),
    });
    expect(failed.actual).toHaveLength(4);
    const screenshot = artifacts.find((artifact) => failed.artifactIds.includes(artifact.id) && artifact.kind === 'screenshot');
    expect(screenshot).toMatchObject({ stepIndex: 1 });
    const image = await fetch(`${shop.api.base}/api/jobs/${jobId}/artifacts/${screenshot!.id}`, { headers: { authorization: `Bearer ${key}` } });
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).subarray(1, 4).toString('ascii')).toBe('PNG');
  });

  it('records a list count and leaves expected/actual null on a truly absent target', async () => {
    const counted = await runJob('Go to /pricing and check that the Plans list has 4 items');
    expect(counted.findings.find((finding) => finding.stepIndex === 1)).toMatchObject({ kind: 'assertion_failed', expected: '4 items', actual: ['3 items: "Starter", "Pro", "Team"'] });

    const absent = await runJob('Go to /pricing and check that the Coupon field contains "SAVE10"');
    expect(absent.job.status).toBe('failed');
    expect(absent.findings.find((finding) => finding.stepIndex === 1)).toMatchObject({ kind: 'step_unresolvable', expected: null, actual: null });
  });
});
