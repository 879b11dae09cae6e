import { beforeEach, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { CheckDispute } from '../../../src/store/entities/check-dispute.entity.js';
import { Finding } from '../../../src/store/entities/finding.entity.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { callApi } from '../../support/api-server.js';
import { useTestApi } from '../../support/use-test-api.js';
import { seedAcmeShop } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

forEachDialect('finding disputes API', (dialect) => {
  const store = useTestStore(dialect);
  const api = useTestApi(store);
  let key: string;
  let keyId: string;
  let otherKey: string;
  let organizationId: string;
  let repositoryId: string;
  let checkId: string;


  beforeEach(async () => {
    ({ key, keyId, otherKey, organizationId, repositoryId, checkId } = await seedAcmeShop(store(), { keyName: 'ci' }));
  });

  const call = (method: string, path: string, body?: unknown, auth: string | null = key) => callApi(api.base, method, path, body, auth);

  /** A failed replay of the check: a failed step (error) and an accessibility warning. */
  async function failedJob(status = 'failed'): Promise<{ jobId: string; errorId: string; warningId: string }> {
    const jobId = randomUUID();
    await store().getRepository(Job).insert({
      id: jobId, organizationId, repositoryId, checkId, parentJobId: null, status, task: null, baseUrl: 'https://shop.example', commitSha: null,
      trigger: 'schedule', networkAllowlist: [], channelContext: null, resolution: null, plan: null, workflowId: null, updatedAt: new Date(),
    });
    const [errorId, warningId] = [randomUUID(), randomUUID()];
    await store().getRepository(Finding).insert([
      { id: errorId, organizationId, jobId, position: 0, kind: 'assertion_failed', severity: 'error', title: 'Step 2 failed: Three plans', detail: 'Expected 3, found 2', stepIndex: 1, artifactIds: [] },
      { id: warningId, organizationId, jobId, position: 1, kind: 'accessibility', severity: 'warning', title: 'Low contrast', detail: '#ccc', stepIndex: 1, artifactIds: [] },
    ]);
    return { jobId, errorId, warningId };
  }

  it('disputes the error findings as the API key, under both naming sets, and GET shows who, why and when', async () => {
    const { jobId, errorId, warningId } = await failedJob();
    const before = await call('GET', `/api/jobs/${jobId}`);
    expect(before.body.findings.map((finding: Record<string, unknown>) => [finding.disputedAt, finding.disputedBy, finding.disputeReason])).toEqual([
      [null, null, null],
      [null, null, null],
    ]);

    const disputed = await call('POST', `/api/jobs/${jobId}/findings/dispute`, { reason: ' Two plans since the redesign ' });
    expect(disputed.status).toBe(200);
    expect(Object.keys(disputed.body).sort()).toEqual(['findings', 'jobId']);
    expect(disputed.body).toMatchObject({ jobId, findings: [{ id: errorId, severity: 'error', disputedBy: `api_key:${keyId}`, disputeReason: 'Two plans since the redesign', disputedAt: expect.any(String) }] });

    const asRun = await call('GET', `/api/runs/${jobId}`);
    expect(asRun.body.reports).toEqual([
      expect.objectContaining({ id: errorId, disputedBy: `api_key:${keyId}`, disputeReason: 'Two plans since the redesign', disputedAt: disputed.body.findings[0].disputedAt }),
      expect.objectContaining({ id: warningId, disputedAt: null, disputedBy: null, disputeReason: null }),
    ]);

    // Set B: the warning by name, in its own words.
    const viaRuns = await call('POST', `/api/runs/${jobId}/findings/dispute`, { reason: 'Contrast is on the backlog', findingIds: [warningId] });
    expect(viaRuns.status).toBe(200);
    expect(Object.keys(viaRuns.body).sort()).toEqual(['reports', 'runId']);
    expect(viaRuns.body.reports).toEqual([expect.objectContaining({ id: warningId, disputeReason: 'Contrast is on the backlog' })]);
    expect(await store().getRepository(CheckDispute).countBy({ checkId })).toBe(2);
  });

  it("answers 404 for another organization's job, an unknown job, a malformed id and a finding of another job", async () => {
    const { jobId, errorId } = await failedJob();
    const other = await failedJob();
    for (const collection of ['jobs', 'runs']) {
      const theirs = await call('POST', `/api/${collection}/${jobId}/findings/dispute`, { reason: 'not a bug' }, otherKey);
      expect([theirs.status, theirs.body.error.code]).toEqual([404, 'job.not_found']);
      for (const id of [randomUUID(), jobId.toUpperCase(), 'not-an-id']) {
        const unknown = await call('POST', `/api/${collection}/${id}/findings/dispute`, { reason: 'not a bug' });
        expect([unknown.status, unknown.body.error.code]).toEqual([404, 'job.not_found']);
      }
      const foreign = await call('POST', `/api/${collection}/${jobId}/findings/dispute`, { reason: 'not a bug', findingIds: [other.errorId] });
      expect([foreign.status, foreign.body.error]).toEqual([404, expect.objectContaining({ code: 'finding.not_found', details: { field: 'findingIds' } })]);
    }
    expect((await store().getRepository(Finding).findOneByOrFail({ id: errorId })).disputedAt).toBeNull();
    expect(await store().getRepository(CheckDispute).count()).toBe(0);
  });

  it('answers 409 for a job that did not fail', async () => {
    for (const status of ['passed', 'running']) {
      const { jobId } = await failedJob(status);
      const response = await call('POST', `/api/jobs/${jobId}/findings/dispute`, { reason: 'not a bug' });
      expect([response.status, response.body.error.code]).toEqual([409, 'dispute.job_not_failed']);
    }
  });

  it('answers coded 400s for bad bodies and writes nothing', async () => {
    const { jobId, errorId } = await failedJob();
    const cases: [unknown, string, string | undefined][] = [
      [{}, 'request.invalid', 'reason'],
      [{ reason: 42 }, 'request.invalid', 'reason'],
      [{ reason: 'ok', by: 'someone else' }, 'request.invalid', '(body)'],
      [{ reason: 'ok', findingIds: 'all' }, 'request.invalid', 'findingIds'],
      [{ reason: 'ok', findingIds: [7] }, 'request.invalid', 'findingIds.0'],
      [[], 'request.invalid', '(body)'],
      ['{"reason":', 'request.invalid_json', undefined],
      [{ reason: '  \n ' }, 'dispute.reason_invalid', 'reason'],
      [{ reason: 'x'.repeat(1_001) }, 'dispute.reason_invalid', 'reason'],
      [{ reason: 'ok', findingIds: [] }, 'dispute.finding_ids_invalid', 'findingIds'],
      [{ reason: 'ok', findingIds: [errorId, errorId] }, 'dispute.finding_ids_invalid', 'findingIds'],
    ];
    for (const [body, code, field] of cases) {
      const response = await call('POST', `/api/jobs/${jobId}/findings/dispute`, body);
      expect([JSON.stringify(body), response.status, response.body.error.code, response.body.error.details?.field]).toEqual([JSON.stringify(body), 400, code, field]);
    }
    expect((await store().getRepository(Finding).findOneByOrFail({ id: errorId })).disputedAt).toBeNull();
    const unauthenticated = await call('POST', `/api/jobs/${jobId}/findings/dispute`, { reason: 'ok' }, null);
    expect(unauthenticated.status).toBe(401);
  });
});
