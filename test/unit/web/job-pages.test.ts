import { describe, expect, it } from '@jest/globals';
import type { JobSummary } from '../../../web/src/api/job-summary.js';
import { comesBefore, mergeIntoFetchedPage, mergeJob, type LoadedPages } from '../../../web/src/jobs/job-pages.js';
import { createUpdateBuffer } from '../../../web/src/jobs/update-buffer.js';

const job = (n: number, patch: Partial<JobSummary> = {}): JobSummary => ({
  jobId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  status: 'queued',
  trigger: 'web',
  projectId: 'p-1',
  testId: null,
  parentJobId: null,
  naturalLanguageTask: `task ${n}`,
  startedBy: null,
  createdAt: new Date(Date.UTC(2026, 11, 6, 22, 0, n)).toISOString(),
  startedAt: null,
  finishedAt: null,
  ...patch,
});

const pages = (...groups: Array<{ jobs: JobSummary[]; nextCursor: string | null }>): LoadedPages => ({ pages: groups, pageParams: groups.map((_, i) => (i === 0 ? undefined : `c${i}`)) });
const ids = (data: LoadedPages) => data.pages.map((page) => page.jobs.map((row) => Number(row.jobId.slice(-4))));

describe('mergeJob', () => {
  const loaded = pages({ jobs: [job(9), job(8)], nextCursor: 'c1' }, { jobs: [job(6), job(5)], nextCursor: 'c2' });

  it('puts a new job that matches at the top', () => {
    expect(ids(mergeJob(loaded, job(10), {}))).toEqual([[10, 9, 8], [6, 5]]);
  });

  it('changes a known row in place, even when it no longer matches the filter', () => {
    const merged = mergeJob(loaded, job(6, { status: 'passed' }), { status: 'queued' });
    expect(ids(merged)).toEqual([[9, 8], [6, 5]]);
    expect(merged.pages[1]!.jobs[0]!.status).toBe('passed');
    expect(merged.pages[0]).toBe(loaded.pages[0]);
  });

  it('leaves out a new job the filter does not take', () => {
    expect(mergeJob(loaded, job(10, { trigger: 'cli' }), { trigger: 'web' })).toBe(loaded);
  });

  it('puts a job that newly matches where the order says among the loaded rows', () => {
    expect(ids(mergeJob(loaded, job(7, { status: 'failed' }), { status: 'failed' }))).toEqual([[9, 8], [7, 6, 5]]);
  });

  it('leaves a job older than every loaded row to "Load more" while a page follows, and appends it on the last page', () => {
    expect(mergeJob(loaded, job(2), {})).toBe(loaded);
    const complete = pages({ jobs: [job(9), job(8)], nextCursor: null });
    expect(ids(mergeJob(complete, job(2), {}))).toEqual([[9, 8, 2]]);
  });

  it('fills an empty list', () => {
    expect(ids(mergeJob(pages({ jobs: [], nextCursor: null }), job(1), {}))).toEqual([[1]]);
  });

  it('orders equal times by id, descending, as the API does', () => {
    const at = '2026-12-06T22:00:00.000Z';
    expect(comesBefore(job(2, { createdAt: at }), job(1, { createdAt: at }))).toBe(true);
    expect(comesBefore(job(1, { createdAt: at }), job(2, { createdAt: at }))).toBe(false);
  });
});

describe('mergeIntoFetchedPage with the updates that came during the fetch', () => {
  it('applies them in order on the first page: new jobs in place, the latest state wins', () => {
    const buffer = createUpdateBuffer();
    buffer.push(job(1));
    const mark = buffer.mark();
    buffer.push(job(11));
    buffer.push(job(8, { status: 'running' }));
    buffer.push(job(8, { status: 'passed' }));
    const { jobs, lost } = buffer.since(mark);
    expect(lost).toBe(false);
    const page = mergeIntoFetchedPage({ jobs: [job(9), job(8)], nextCursor: 'c1' }, jobs, {}, true);
    expect(page.jobs.map((row) => [Number(row.jobId.slice(-4)), row.status])).toEqual([
      [11, 'queued'],
      [9, 'queued'],
      [8, 'passed'],
    ]);
  });

  it('only updates rows in place on a later page', () => {
    const page = mergeIntoFetchedPage({ jobs: [job(6), job(5)], nextCursor: null }, [job(11), job(5, { status: 'failed' })], {}, false);
    expect(page.jobs.map((row) => row.status)).toEqual(['queued', 'failed']);
  });
});

describe('createUpdateBuffer', () => {
  it('says when updates after a mark were dropped', () => {
    const buffer = createUpdateBuffer(2);
    const mark = buffer.mark();
    buffer.push(job(1));
    buffer.push(job(2));
    expect(buffer.since(mark).lost).toBe(false);
    buffer.push(job(3));
    expect(buffer.since(mark)).toEqual({ jobs: [job(2), job(3)], lost: true });
    expect(buffer.since(buffer.mark())).toEqual({ jobs: [], lost: false });
  });
});
