import { randomUUID } from 'node:crypto';
import { In, type DataSource, type EntityManager } from 'typeorm';
import { AppError, ErrorCode, notFoundError, userError } from '../core/errors.js';
import { DISPUTE_REASON_MAX, DISPUTED_BY_MAX, findingFingerprint } from '../core/finding-disputes.js';
import type { Principal } from '../core/principal.js';
import { CheckDispute } from '../store/entities/check-dispute.entity.js';
import { CheckVersion } from '../store/entities/check-version.entity.js';
import { Finding } from '../store/entities/finding.entity.js';
import { Job } from '../store/entities/job.entity.js';

/** A dispute as the API and the chat bot hand it over. */
export interface DisputeInput {
  /** Who says it is no bug: the API key's actor, or the chat user (at most 200 characters). */
  by: string;
  /** Why (1 to 1000 characters once trimmed). */
  reason: string;
  /** The findings meant (warnings too, when named); default every error finding of the job (what failed it). */
  findingIds?: readonly string[];
}

export const DISPUTE_FINDING_IDS_MAX = 100;

/** Counted in characters (code points), as a MySQL utf8mb4 `varchar(n)` counts them: an emoji is one. */
function trimmedWithin(value: string, max: number, code: ErrorCode, field: string): string {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  const length = [...trimmed].length;
  if (length === 0 || length > max) {
    const message = `${field} must be 1 to ${max} characters once trimmed; got ${length}`;
    throw userError(code, message, { details: { field } });
  }
  return trimmed;
}

function checkedIds(ids: readonly string[] | undefined): readonly string[] | undefined {
  if (ids === undefined) return undefined;
  if (ids.length === 0 || ids.length > DISPUTE_FINDING_IDS_MAX || new Set(ids).size !== ids.length) {
    throw userError(ErrorCode.DisputeFindingIdsInvalid, `findingIds must name 1 to ${DISPUTE_FINDING_IDS_MAX} findings, each once`, { details: { field: 'findingIds' } });
  }
  return ids;
}

/** The findings meant: the ones named (each must be the job's, compared exactly: MariaDB's collation is not), or the errors. */
async function chosenFindings(manager: EntityManager, job: Job, ids: readonly string[] | undefined): Promise<Finding[]> {
  const where = { jobId: job.id, organizationId: job.organizationId };
  if (ids === undefined) return manager.find(Finding, { where: { ...where, severity: 'error' }, order: { position: 'ASC' } });
  const found = await manager.find(Finding, { where: { ...where, id: In([...ids]) }, order: { position: 'ASC' } });
  const exact = new Set(found.map((finding) => finding.id));
  if (ids.some((id) => !exact.has(id))) throw notFoundError('finding', 'findingIds');
  return found;
}

/**
 * Keeps the disputes for the job's check, one row per fingerprint (the last dispute of the same failure wins), when
 * the check has a compiled version a replay runs. Insert-or-update on `(check_id, fingerprint)`, so two disputes of
 * the same failure at once both succeed.
 */
async function keepForCheck(manager: EntityManager, job: Job, findings: readonly Finding[], by: string, reason: string): Promise<void> {
  if (job.checkId === null || findings.length === 0) return;
  if (!(await manager.exists(CheckVersion, { where: { checkId: job.checkId } }))) return;
  const byFingerprint = new Map(findings.map((finding) => [findingFingerprint({ kind: finding.kind, stepIndex: finding.stepIndex, title: finding.title }), finding]));
  const rows = [...byFingerprint].map(([fingerprint, finding]) => ({
    id: randomUUID(),
    checkId: job.checkId!,
    organizationId: job.organizationId,
    fingerprint,
    kind: finding.kind,
    stepIndex: finding.stepIndex,
    title: finding.title,
    disputedBy: by,
    reason,
    jobId: job.id,
    findingId: finding.id,
  }));
  await manager
    .createQueryBuilder()
    .insert()
    .into(CheckDispute)
    .values(rows)
    .orUpdate(['disputed_by', 'reason', 'job_id', 'finding_id'], ['check_id', 'fingerprint'])
    .execute();
}

/**
 * Disputes ("not a bug"): the use case behind `POST …/findings/dispute` and the chat bot's `not a bug: <reason>`.
 * Only a failed job's findings: a passed job has nothing that failed it, a running one is not settled yet, and an
 * errored or cancelled one ended without a verdict on the page.
 */
export function createFindingDisputes(dataSource: DataSource) {
  return {
    /**
     * Marks the findings disputed by `by` for `reason` (again: replaces who, why and when), and, when the job ran a
     * compiled check, keeps the dispute for the check so its replays record the same failure as a warning. Another
     * organization's job is 404; a job that is not `failed` 409. Returns the disputed findings in run order.
     */
    async disputeFindings(principal: Principal, jobId: string, input: DisputeInput): Promise<Finding[]> {
      const by = trimmedWithin(input.by, DISPUTED_BY_MAX, ErrorCode.DisputeByInvalid, 'by');
      const reason = trimmedWithin(input.reason, DISPUTE_REASON_MAX, ErrorCode.DisputeReasonInvalid, 'reason');
      const ids = checkedIds(input.findingIds);
      return dataSource.transaction(async (manager) => {
        const job = await manager.findOneBy(Job, { id: jobId, organizationId: principal.organizationId });
        if (!job) throw notFoundError('job');
        if (job.status !== 'failed') {
          throw new AppError({ kind: 'user', code: ErrorCode.DisputeJobNotFailed, status: 409, message: `Job is ${job.status}; only a failed job's findings can be disputed` });
        }
        const findings = await chosenFindings(manager, job, ids);
        const disputed = { disputedAt: new Date(), disputedBy: by, disputeReason: reason };
        if (findings.length > 0) await manager.update(Finding, { id: In(findings.map((finding) => finding.id)) }, disputed);
        await keepForCheck(manager, job, findings, by, reason);
        return findings.map((finding) => Object.assign(finding, disputed));
      });
    },
  };
}

export type FindingDisputes = ReturnType<typeof createFindingDisputes>;
