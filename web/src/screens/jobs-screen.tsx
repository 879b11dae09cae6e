/**
 * Jobs (`/jobs`): the organization's jobs, newest first, filtered by status, trigger, repository and text (kept in
 * the query string), a page of 50 at a time with "Load more" (keyset), and kept live by the updates stream: new
 * jobs that match appear at the top, shown jobs change state in place (web/src/jobs/use-job-list.ts).
 */
import { useMemo } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useRepositories } from '../api/repositories.js';
import { ErrorNotice } from '../components/error-notice.js';
import { filterFromSearch, isFiltered, searchOfFilter, type JobFilter } from '../jobs/job-filter.js';
import { JobFiltersForm } from '../jobs/job-filters-form.js';
import { JobTable } from '../jobs/job-table.js';
import { useJobList, type LiveState } from '../jobs/use-job-list.js';

function LiveNote({ live }: { live: LiveState }) {
  if (live.state === 'ended' && live.error) {
    return (
      <p className="muted live-note" role="status">
        Live updates are off: {live.error.message}. Reload the page to try again.
      </p>
    );
  }
  return (
    <p className="muted live-note" role="status" data-live-state={live.state}>
      {live.state === 'open' ? 'Updates live' : live.state === 'retrying' ? 'Reconnecting…' : 'Connecting…'}
    </p>
  );
}

export default function JobsScreen() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const filter = useMemo(() => filterFromSearch(search), [search]);
  const repositories = useRepositories();
  const byId = useMemo(() => new Map((repositories.data ?? []).map((repository) => [repository.repositoryId, repository])), [repositories.data]);
  const { list, live } = useJobList(filter);
  const jobs = useMemo(() => list.data?.pages.flatMap((page) => page.jobs) ?? [], [list.data]);
  const setFilter = (next: JobFilter) => navigate(`/jobs${searchOfFilter(next)}`, { replace: true });

  return (
    <>
      <div className="heading-row">
        <h1>Jobs</h1>
        <LiveNote live={live} />
        <Link href="/jobs/new" className="button primary">
          New job
        </Link>
      </div>
      <JobFiltersForm filter={filter} repositories={repositories.data ?? []} onChange={setFilter} />
      {filter.testId ? (
        <p className="filter-note">
          Runs of check <code>{filter.testId}</code>.{' '}
          <Link href={`/jobs${searchOfFilter({ ...filter, testId: undefined })}`}>Show all checks</Link>
        </p>
      ) : null}
      {repositories.isError ? <ErrorNotice error={repositories.error} retry={() => void repositories.refetch()} /> : null}
      {list.isError && !list.isFetchNextPageError ? (
        <ErrorNotice error={list.error} retry={() => void list.refetch()} />
      ) : list.isPending ? (
        <p className="muted">Loading jobs…</p>
      ) : jobs.length === 0 ? (
        <div className="empty">
          {isFiltered(filter) ? (
            <p>
              No job matches these filters. <Link href="/jobs">Clear the filters</Link> or <Link href="/jobs/new">start a new job</Link>.
            </p>
          ) : (
            <p>
              No jobs yet. <Link href="/jobs/new">Start a new job</Link> with a task in plain words or a check to replay.
            </p>
          )}
        </div>
      ) : (
        <>
          <JobTable jobs={jobs} repositories={byId} />
          {list.isFetchNextPageError ? <ErrorNotice error={list.error} retry={() => void list.fetchNextPage()} /> : null}
          <div className="actions">
            {list.hasNextPage ? (
              <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
                {list.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </button>
            ) : (
              <p className="muted">
                {jobs.length === 1 ? 'One job' : `${jobs.length} jobs`}, all shown.
              </p>
            )}
          </div>
        </>
      )}
    </>
  );
}
