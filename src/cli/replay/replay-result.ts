import type { z } from 'zod';
import type { findingSchema } from '../../api/schemas/jobs.js';

export type FindingBody = z.output<typeof findingSchema>;

/** How one check's replay ended, as `qa replay` reports it (a line, a JUnit test case, a summary row). */
export interface ReplayResult {
  checkId: string;
  /** The check's plain-language task: what a person reads as its name. */
  name: string;
  /** Null when the job could not be created (`error` says why). */
  jobId: string | null;
  /** The job's final status; `timed_out` when the replay did not finish before `--timeout` (it was cancelled). */
  status: 'passed' | 'failed' | 'errored' | 'cancelled' | 'review_required' | 'timed_out';
  durationMs: number;
  findings: FindingBody[];
  /** Absolute links: the job's page, its first failure screenshot and its trace, where it has them. */
  links: { job: string | null; screenshot: string | null; trace: string | null };
  /** Why the job could not be created or followed. */
  error: string | null;
}

/** The findings that make a replay fail: errors that nobody marked "not a bug". */
export function failingFindings(result: ReplayResult): FindingBody[] {
  return result.findings.filter((finding) => finding.severity === 'error' && finding.disputedAt === null);
}

/** The message a failure leads with: its first failing finding's title, or the status and the error. */
export function failureMessage(result: ReplayResult): string {
  const [first] = failingFindings(result);
  if (first) return first.title;
  if (result.error) return result.error;
  return `The replay ended ${result.status}`;
}
