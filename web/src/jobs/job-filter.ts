/**
 * The jobs list's filters and the page's query string, both ways, so a filtered view is a URL to share and survives
 * a reload (`/jobs?status=failed&trigger=web&projectId=…&q=login`); and whether a job from the updates stream belongs
 * in a filtered view (the same rules the API's list applies: every filter given must hold, the text is a
 * case-insensitive substring of the task).
 */
import { JOB_STATUS_VALUES, JOB_TRIGGER_VALUES, type JobStatus, type JobSummary, type JobTrigger } from '../api/job-summary.js';

export interface JobFilter {
  status?: JobStatus;
  trigger?: JobTrigger;
  /** A repository's id. */
  projectId?: string;
  /** A check's id (from a check's page: its runs). */
  testId?: string;
  /** Text in the task. */
  q?: string;
}

const FIELDS = ['status', 'trigger', 'projectId', 'testId', 'q'] as const;
const MAX_TEXT = 200;

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : undefined;

const idOrUndefined = (value: string | null) => (value && value.length <= 64 ? value : undefined);

/** The filter a query string says (`?…` or without the `?`); unknown values and parameters are left out. */
export function filterFromSearch(search: string): JobFilter {
  const params = new URLSearchParams(search);
  const q = params.get('q')?.slice(0, MAX_TEXT);
  return dropEmpty({
    status: oneOf(JOB_STATUS_VALUES, params.get('status')),
    trigger: oneOf(JOB_TRIGGER_VALUES, params.get('trigger')),
    projectId: idOrUndefined(params.get('projectId')),
    testId: idOrUndefined(params.get('testId')),
    q: q && q.trim() !== '' ? q : undefined,
  });
}

function dropEmpty(filter: JobFilter): JobFilter {
  const result: JobFilter = {};
  for (const field of FIELDS) {
    const value = filter[field];
    if (value !== undefined && value !== '') (result as Record<string, string>)[field] = value;
  }
  return result;
}

/** The query string of a filter, in a fixed order: `?status=failed&q=login`, or '' for no filter. */
export function searchOfFilter(filter: JobFilter): string {
  const params = new URLSearchParams();
  const clean = dropEmpty(filter);
  for (const field of FIELDS) if (clean[field] !== undefined) params.set(field, clean[field]);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** GET /api/jobs for a filter and, after the first page, the cursor where the next page starts. */
export function listPathOf(filter: JobFilter, cursor: string | undefined, limit = 50): string {
  const params = new URLSearchParams();
  params.set('limit', String(limit));
  const clean = dropEmpty(filter);
  for (const field of FIELDS) {
    const value = clean[field];
    if (value === undefined) continue;
    if (field === 'q') {
      if (value.trim() !== '') params.set('q', value.trim());
    } else params.set(field, value);
  }
  if (cursor !== undefined) params.set('cursor', cursor);
  return `/api/jobs?${params.toString()}`;
}

/** A stable cache key part for a filter (its query string). */
export const filterKey = (filter: JobFilter) => searchOfFilter(filter);

/** Whether `job` belongs in the list under `filter`. */
export function matchesFilter(job: JobSummary, filter: JobFilter): boolean {
  if (filter.status !== undefined && job.status !== filter.status) return false;
  if (filter.trigger !== undefined && job.trigger !== filter.trigger) return false;
  if (filter.projectId !== undefined && job.projectId !== filter.projectId) return false;
  if (filter.testId !== undefined && job.testId !== filter.testId) return false;
  const text = filter.q?.trim().toLowerCase();
  if (text && !(job.naturalLanguageTask ?? '').toLowerCase().includes(text)) return false;
  return true;
}

/** Whether any filter is set. */
export const isFiltered = (filter: JobFilter) => Object.keys(dropEmpty(filter)).length > 0;
