import type { NamingSet } from '../core/naming.js';
import type { JobSummaryRow } from '../jobs/list-jobs.js';
import { iso, isoOrNull } from './respond.js';

/** Who asked for a job, on the wire: a signed-in person (`user:<id>`) or a machine; null for jobs from before it was recorded. */
export function startedByBody(startedBy: string | null): { kind: 'person' | 'machine'; actor: string } | null {
  return startedBy === null ? null : { kind: startedBy.startsWith('user:') ? 'person' : 'machine', actor: startedBy };
}

/** A job's summary in this naming set's words (`jobSummarySchema`). */
export function summaryBody(names: NamingSet, job: JobSummaryRow): Record<string, unknown> {
  return {
    [names.id]: job.id,
    status: job.status,
    trigger: job.trigger,
    [names.repositoryId]: job.repositoryId,
    [names.checkId]: job.checkId,
    [names.parentId]: job.parentJobId,
    naturalLanguageTask: job.task,
    startedBy: startedByBody(job.startedBy),
    createdAt: iso(job.createdAt),
    startedAt: isoOrNull(job.startedAt),
    finishedAt: isoOrNull(job.finishedAt),
  };
}
