import type { DataSource } from 'typeorm';
import { NO_DISPUTES, type DisputedFingerprints } from '../../core/finding-disputes.js';
import { CheckDispute } from '../../store/entities/check-dispute.entity.js';
import type { Job } from '../../store/entities/job.entity.js';

/**
 * The disputes ("not a bug") of the check the job runs, by fingerprint: read once when an attempt starts, and handed
 * to its recorder, which records each disputed failure as a warning. A job of no check has none.
 */
export async function checkDisputesOf(dataSource: DataSource, job: Pick<Job, 'checkId'>): Promise<DisputedFingerprints> {
  if (job.checkId === null) return NO_DISPUTES;
  const rows = await dataSource.getRepository(CheckDispute).find({ select: { fingerprint: true, disputedBy: true, reason: true }, where: { checkId: job.checkId } });
  return new Map(rows.map((row) => [row.fingerprint, { by: row.disputedBy, reason: row.reason }]));
}
