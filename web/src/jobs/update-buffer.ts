/**
 * The updates that arrived while a page of the list was on its way. A page is read at some moment during its fetch;
 * a change the stream reports in that time may or may not be in it, and writing the change into the cache would be
 * overwritten by the page when it lands. So each fetch notes a mark before it starts and, when the page lands,
 * merges in every update since the mark (in order; a later line for the same job wins). Bounded: the oldest lines
 * go first, and a fetch whose mark fell off the end is told so (`lost`), so it can load again.
 */
import type { JobSummary } from '../api/job-summary.js';

export interface UpdateBuffer {
  push(job: JobSummary): void;
  /** The position of the latest update, to pass to `since` later. */
  mark(): number;
  /** The updates after `mark`, oldest first; `lost` when some of them were already dropped. */
  since(mark: number): { jobs: JobSummary[]; lost: boolean };
}

export function createUpdateBuffer(capacity = 500): UpdateBuffer {
  let jobs: JobSummary[] = [];
  /** Position of jobs[0]. */
  let start = 0;
  return {
    push(job) {
      jobs.push(job);
      if (jobs.length > capacity) {
        const drop = jobs.length - capacity;
        jobs = jobs.slice(drop);
        start += drop;
      }
    },
    mark: () => start + jobs.length,
    since(mark) {
      const from = mark - start;
      return { jobs: jobs.slice(Math.max(0, from)), lost: from < 0 };
    },
  };
}
