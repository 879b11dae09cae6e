import { expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { findingFingerprint } from '../../../src/core/finding-disputes.js';
import type { FindingDraft } from '../../../src/core/findings.js';
import { createScrubber } from '../../../src/core/secrets.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { createFindingDisputes } from '../../../src/jobs/finding-disputes.js';
import { CheckDispute } from '../../../src/store/entities/check-dispute.entity.js';
import { Finding } from '../../../src/store/entities/finding.entity.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { checkDisputesOf } from '../../../src/workflows/qa-run/disputes.js';
import { createRunRecorder, takeRunToken } from '../../../src/workflows/run-recorder.js';
import { insertCheck, insertRepository } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

const STEP_FAILED: FindingDraft = { kind: 'assertion_failed', severity: 'error', stepIndex: 3, title: 'Step 4 failed: The total shows $90', detail: 'Expected "Total: $90", found "Total: $80"' };
const CONSOLE: FindingDraft = { kind: 'console_error', severity: 'error', stepIndex: null, title: 'Console error: widget failed', detail: 'at widget.js:1' };
const A11Y: FindingDraft = { kind: 'accessibility', severity: 'warning', stepIndex: 3, title: 'Image without alt text', detail: 'img.logo' };

forEachDialect('finding disputes', (dialect) => {
  const store = useTestStore(dialect);
  const disputes = () => createFindingDisputes(store());

  /** An organization with a repository and an active (compiled) check, or a draft one. */
  async function organization(slug = 'acme', checkStatus: 'active' | 'draft' = 'active') {
    const { organization: org, principal } = await createApiKey(store(), slug);
    const repositoryId = await insertRepository(store(), org.id);
    const checkId = await insertCheck(store(), org.id, repositoryId, checkStatus);
    return { organizationId: org.id, principal, repositoryId, checkId };
  }

  /** A job of the check as a finished replay leaves it, with its findings in order. */
  async function job(org: { organizationId: string; repositoryId: string; checkId: string | null }, status: string, drafts: FindingDraft[]) {
    const jobId = randomUUID();
    await store().getRepository(Job).insert({
      id: jobId, organizationId: org.organizationId, repositoryId: org.repositoryId, checkId: org.checkId, parentJobId: null, status, task: null,
      baseUrl: 'https://shop.example', commitSha: null, trigger: 'schedule', networkAllowlist: [], channelContext: null, resolution: null, plan: null, workflowId: null, updatedAt: new Date(),
    });
    const ids = drafts.map(() => randomUUID());
    for (const [position, draft] of drafts.entries()) {
      await store().getRepository(Finding).insert({ id: ids[position]!, organizationId: org.organizationId, jobId, position, ...draft, artifactIds: [] });
    }
    return { jobId, findingIds: ids };
  }

  it('marks every error finding of a failed job by default, with who and why (trimmed), and keeps one dispute per fingerprint for its check', async () => {
    const org = await organization();
    const failed = await job(org, 'failed', [STEP_FAILED, A11Y, CONSOLE]);

    const disputed = await disputes().disputeFindings(org.principal, failed.jobId, { by: 'U123', reason: '  The coupon is 20% this week  ' });

    expect(disputed.map((finding) => [finding.id, finding.disputedBy, finding.disputeReason])).toEqual([
      [failed.findingIds[0], 'U123', 'The coupon is 20% this week'],
      [failed.findingIds[2], 'U123', 'The coupon is 20% this week'],
    ]);
    const stored = await store().getRepository(Finding).find({ where: { jobId: failed.jobId }, order: { position: 'ASC' } });
    expect(stored.map((finding) => [finding.severity, finding.disputedBy, finding.disputedAt instanceof Date])).toEqual([
      ['error', 'U123', true],
      ['warning', null, false],
      ['error', 'U123', true],
    ]);
    const kept = await store().getRepository(CheckDispute).find({ where: { checkId: org.checkId }, order: { kind: 'ASC' } });
    expect(kept.map((row) => [row.kind, row.stepIndex, row.fingerprint, row.disputedBy, row.reason, row.jobId])).toEqual([
      ['assertion_failed', 3, findingFingerprint(STEP_FAILED), 'U123', 'The coupon is 20% this week', failed.jobId],
      ['console_error', null, findingFingerprint(CONSOLE), 'U123', 'The coupon is 20% this week', failed.jobId],
    ]);
  });

  it('disputes only the findings named; disputing again replaces who and why, on the finding and for the check', async () => {
    const org = await organization();
    const first = await job(org, 'failed', [STEP_FAILED, CONSOLE]);
    await disputes().disputeFindings(org.principal, first.jobId, { by: 'api_key:one', reason: 'Known flake', findingIds: [first.findingIds[1]!] });
    const again = await disputes().disputeFindings(org.principal, first.jobId, { by: 'U999', reason: 'Expected: the widget is gone', findingIds: [first.findingIds[1]!] });
    expect(again).toEqual([expect.objectContaining({ id: first.findingIds[1], disputedBy: 'U999', disputeReason: 'Expected: the widget is gone' })]);
    expect((await store().getRepository(Finding).findOneByOrFail({ id: first.findingIds[0]! })).disputedAt).toBeNull();

    // The same failure in a later run of the check, disputed by someone else: still one row for the fingerprint.
    const later = await job(org, 'failed', [CONSOLE]);
    await disputes().disputeFindings(org.principal, later.jobId, { by: 'U777', reason: 'Still expected' });
    const kept = await store().getRepository(CheckDispute).find({ where: { checkId: org.checkId } });
    expect(kept.map((row) => [row.fingerprint, row.disputedBy, row.reason, row.jobId, row.findingId])).toEqual([
      [findingFingerprint(CONSOLE), 'U777', 'Still expected', later.jobId, later.findingIds[0]],
    ]);
  });

  it('keeps nothing for a check with no compiled version, or for a job of no check', async () => {
    const draft = await organization('acme', 'draft');
    const failed = await job(draft, 'failed', [STEP_FAILED]);
    expect(await disputes().disputeFindings(draft.principal, failed.jobId, { by: 'U1', reason: 'fine' })).toHaveLength(1);
    const noCheck = await job({ ...draft, checkId: null }, 'failed', [CONSOLE]);
    expect(await disputes().disputeFindings(draft.principal, noCheck.jobId, { by: 'U1', reason: 'fine' })).toHaveLength(1);
    expect(await store().getRepository(CheckDispute).count()).toBe(0);
  });

  it("answers 404 for another organization's job and for a finding that is not the job's; 409 unless the job failed", async () => {
    const mine = await organization('acme');
    const theirs = await organization('globex');
    const failed = await job(mine, 'failed', [STEP_FAILED]);
    const other = await job(mine, 'failed', [CONSOLE]);

    await expect(disputes().disputeFindings(theirs.principal, failed.jobId, { by: 'U1', reason: 'x' })).rejects.toMatchObject({ code: 'job.not_found', status: 404 });
    await expect(disputes().disputeFindings(mine.principal, randomUUID(), { by: 'U1', reason: 'x' })).rejects.toMatchObject({ code: 'job.not_found', status: 404 });
    for (const findingIds of [[other.findingIds[0]!], [failed.findingIds[0]!.toUpperCase()], [randomUUID()]]) {
      await expect(disputes().disputeFindings(mine.principal, failed.jobId, { by: 'U1', reason: 'x', findingIds })).rejects.toMatchObject({ code: 'finding.not_found', status: 404, details: { field: 'findingIds' } });
    }
    for (const status of ['passed', 'running', 'queued', 'errored', 'cancelled', 'review_required']) {
      const notFailed = await job(mine, status, [STEP_FAILED]);
      await expect(disputes().disputeFindings(mine.principal, notFailed.jobId, { by: 'U1', reason: 'x' })).rejects.toMatchObject({ code: 'dispute.job_not_failed', status: 409 });
    }
    expect(await store().getRepository(Finding).countBy({ disputedBy: 'U1' })).toBe(0);
  });

  it('refuses a blank or too long reason, a blank or too long name, and an empty or repeating id list, with coded 400s', async () => {
    const org = await organization();
    const failed = await job(org, 'failed', [STEP_FAILED]);
    const id = failed.findingIds[0]!;
    const cases: [Parameters<ReturnType<typeof disputes>['disputeFindings']>[2], string][] = [
      [{ by: 'U1', reason: '   ' }, 'dispute.reason_invalid'],
      [{ by: 'U1', reason: 'x'.repeat(1_001) }, 'dispute.reason_invalid'],
      [{ by: ' ', reason: 'fine' }, 'dispute.by_invalid'],
      [{ by: 'u'.repeat(201), reason: 'fine' }, 'dispute.by_invalid'],
      [{ by: 'U1', reason: 'fine', findingIds: [] }, 'dispute.finding_ids_invalid'],
      [{ by: 'U1', reason: 'fine', findingIds: [id, id] }, 'dispute.finding_ids_invalid'],
    ];
    for (const [input, code] of cases) {
      await expect(disputes().disputeFindings(org.principal, failed.jobId, input)).rejects.toMatchObject({ code, status: 400 });
    }
    // The longest reason allowed fits its column on both dialects, counted in characters (an emoji is one).
    for (const reason of ['é'.repeat(1_000), '😀'.repeat(1_000)]) {
      const [longest] = await disputes().disputeFindings(org.principal, failed.jobId, { by: '😀'.repeat(200), reason: ` ${reason} ` });
      expect((await store().getRepository(Finding).findOneByOrFail({ id: longest!.id })).disputeReason).toBe(reason);
    }
    expect(await store().getRepository(CheckDispute).findOneByOrFail({ checkId: org.checkId })).toMatchObject({ disputedBy: '😀'.repeat(200), reason: '😀'.repeat(1_000) });
  });

  it("settles a replay's finding whose fingerprint is disputed as a warning saying who and why; a different failure stays an error", async () => {
    const org = await organization();
    const failed = await job(org, 'failed', [STEP_FAILED]);
    await disputes().disputeFindings(org.principal, failed.jobId, { by: 'U123', reason: 'The coupon is 20% this week' });

    const replay = await job(org, 'queued', []);
    const recorder = createRunRecorder(store(), {
      jobId: replay.jobId, organizationId: org.organizationId, attempt: await takeRunToken(store(), replay.jobId), scrubber: createScrubber([]),
      disputes: await checkDisputesOf(store(), { checkId: org.checkId }),
    });
    // The same failure (the title spaced and cased differently, another detail), then one at another step, and another kind at the same step.
    const same = { ...STEP_FAILED, title: 'step 4 FAILED:  the total shows $90', detail: 'Expected "Total: $90", found "Total: $75"' };
    const otherStep = { ...STEP_FAILED, stepIndex: 2, title: 'Step 3 failed: The total shows $90' };
    const otherKind = { ...STEP_FAILED, kind: 'step_unresolvable' as const };
    expect(recorder.settle(same)).toEqual({ ...same, severity: 'warning', detail: `Disputed by U123: The coupon is 20% this week\n\n${same.detail}` });
    await recorder.commit((writes) => writes.findings([same, otherStep, otherKind], []));

    const stored = await store().getRepository(Finding).find({ where: { jobId: replay.jobId }, order: { position: 'ASC' } });
    expect(stored.map((finding) => [finding.severity, finding.detail.split('\n')[0]])).toEqual([
      ['warning', 'Disputed by U123: The coupon is 20% this week'],
      ['error', otherStep.detail],
      ['error', otherKind.detail],
    ]);
    // Another check's replay honours none of them.
    const unrelated = await organization('globex');
    expect((await checkDisputesOf(store(), { checkId: unrelated.checkId })).size).toBe(0);
  });
});
