/**
 * The loaded pages of the jobs list kept live from the updates stream (GET /api/jobs/updates): a job already shown
 * changes in place; a job not shown that belongs in the view (the filter holds) is put where the list's order
 * (newest first: createdAt, then id, descending) says, if that place is among the loaded rows; a place past the last
 * loaded row is left to "Load more", whose keyset cursor starts after that row and finds it there.
 *
 * A known job that stops matching the filter (a running job that passes under "running") stays where it is, with its
 * new state: rows do not vanish under the reader; the next load applies the filter again.
 */
import type { JobPage, JobSummary } from '../api/job-summary.js';
import { matchesFilter, type JobFilter } from './job-filter.js';

/** TanStack Query's infinite data, as the list keeps it. */
export interface LoadedPages {
  pages: JobPage[];
  pageParams: unknown[];
}

/** Whether `a` comes before `b` in the list (newer first; equal times by id, descending, as the API orders). */
export function comesBefore(a: Pick<JobSummary, 'createdAt' | 'jobId'>, b: Pick<JobSummary, 'createdAt' | 'jobId'>): boolean {
  const at = Date.parse(a.createdAt);
  const bt = Date.parse(b.createdAt);
  return at !== bt ? at > bt : a.jobId > b.jobId;
}

function replaceAt(data: LoadedPages, pageIndex: number, jobs: JobSummary[]): LoadedPages {
  return { ...data, pages: data.pages.map((page, index) => (index === pageIndex ? { ...page, jobs } : page)) };
}

/** The pages with `job` merged in; the same object when nothing changes. */
export function mergeJob(data: LoadedPages, job: JobSummary, filter: JobFilter): LoadedPages {
  for (const [pageIndex, page] of data.pages.entries()) {
    const at = page.jobs.findIndex((row) => row.jobId === job.jobId);
    if (at >= 0) return replaceAt(data, pageIndex, page.jobs.map((row, index) => (index === at ? job : row)));
  }
  if (!matchesFilter(job, filter)) return data;
  for (const [pageIndex, page] of data.pages.entries()) {
    const before = page.jobs.findIndex((row) => comesBefore(job, row));
    if (before >= 0) return replaceAt(data, pageIndex, [...page.jobs.slice(0, before), job, ...page.jobs.slice(before)]);
  }
  // Older than every loaded row: its place is on the last page only when no page follows.
  const last = data.pages.length - 1;
  if (last < 0) return data;
  if (data.pages[last]!.nextCursor !== null) return data;
  return replaceAt(data, last, [...data.pages[last]!.jobs, job]);
}

/** One freshly fetched page with the updates that arrived while it was on its way (see update-buffer.ts). */
export function mergeIntoFetchedPage(page: JobPage, jobs: readonly JobSummary[], filter: JobFilter, isFirstPage: boolean): JobPage {
  let data: LoadedPages = { pages: [page], pageParams: [undefined] };
  for (const job of jobs) {
    // A later page covers only the rows after its cursor: a new job there would be out of place; only update in place.
    if (!isFirstPage && !data.pages[0]!.jobs.some((row) => row.jobId === job.jobId)) continue;
    data = mergeJob(data, job, filter);
  }
  return data.pages[0]!;
}
