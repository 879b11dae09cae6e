import { describe, expect, it } from '@jest/globals';
import { jobListSchema, jobPageOf, type JobSummary } from '../../../web/src/api/job-summary.js';
import { filterFromSearch, isFiltered, listPathOf, matchesFilter, searchOfFilter } from '../../../web/src/jobs/job-filter.js';

const job = (patch: Partial<JobSummary> = {}): JobSummary => ({
  jobId: '00000000-0000-4000-8000-000000000001',
  status: 'running',
  trigger: 'web',
  projectId: '00000000-0000-4000-8000-0000000000aa',
  testId: null,
  parentJobId: null,
  naturalLanguageTask: 'Log in and open the Billing page',
  startedBy: { kind: 'person', actor: 'user:u1' },
  createdAt: '2026-12-06T22:00:00.000Z',
  startedAt: '2026-12-06T22:00:01.000Z',
  finishedAt: null,
  ...patch,
});

describe('filter ↔ query string', () => {
  it('round-trips every filter through the URL', () => {
    const filter = { status: 'failed', trigger: 'schedule', projectId: 'p-1', testId: 't-1', q: 'log in & pay' } as const;
    expect(filterFromSearch(searchOfFilter(filter))).toEqual(filter);
    expect(searchOfFilter(filter)).toBe('?status=failed&trigger=schedule&projectId=p-1&testId=t-1&q=log+in+%26+pay');
  });

  it('leaves out values the list does not know and empty ones', () => {
    expect(filterFromSearch('?status=exploded&trigger=&q=%20%20&projectId=p-1&utm=x')).toEqual({ projectId: 'p-1' });
    expect(searchOfFilter({})).toBe('');
    expect(isFiltered({})).toBe(false);
    expect(isFiltered(filterFromSearch('status=passed'))).toBe(true);
  });

  it('builds the list request: a page of 50, the filters in the API\'s names, the text trimmed, the cursor after the first page', () => {
    const path = listPathOf({ status: 'failed', projectId: '00000000-0000-4000-8000-0000000000aa', q: '  billing ' }, 'abc');
    const params = Object.fromEntries(new URL(path, 'http://x').searchParams);
    expect(path.startsWith('/api/jobs?')).toBe(true);
    expect(params).toEqual({ limit: '50', status: 'failed', projectId: '00000000-0000-4000-8000-0000000000aa', q: 'billing', cursor: 'abc' });
    expect(listPathOf({}, undefined)).toBe('/api/jobs?limit=50');
  });
});

describe('matchesFilter', () => {
  it('holds when every given filter holds, the text in any case', () => {
    expect(matchesFilter(job(), {})).toBe(true);
    expect(matchesFilter(job(), { status: 'running', trigger: 'web', q: 'BILLING' })).toBe(true);
    expect(matchesFilter(job(), { status: 'passed' })).toBe(false);
    expect(matchesFilter(job(), { trigger: 'cli' })).toBe(false);
    expect(matchesFilter(job(), { projectId: 'other' })).toBe(false);
    expect(matchesFilter(job(), { testId: 't-1' })).toBe(false);
    expect(matchesFilter(job({ testId: 't-1' }), { testId: 't-1' })).toBe(true);
    expect(matchesFilter(job({ naturalLanguageTask: null }), { q: 'billing' })).toBe(false);
  });

  it('reads rows validated by the list schema', () => {
    const page = jobPageOf(jobListSchema.parse({ jobs: [job()], nextCursor: null }));
    expect(matchesFilter(page.jobs[0]!, { q: 'open the' })).toBe(true);
  });
});
