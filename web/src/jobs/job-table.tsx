/**
 * The loaded rows of the jobs list as a plain table (not virtualised): pages are 50 rows and a person loads a few,
 * so every row stays in the document, where a screen reader counts rows and columns, find-in-page finds any task,
 * and keyboard focus never lands on a row that scrolled out of existence. Job text is rendered as text only.
 */
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import type { JobSummary } from '../api/job-summary.js';
import { repositoryName, type Repository } from '../api/repositories.js';
import { formatTime, jobDuration } from '../format.js';
import { useSession } from '../session.js';
import { statusLabel } from './job-filters-form.js';
import { startedByText } from './started-by.js';

/** The current time, every second while some shown job is still running (its duration grows). */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

/** The day and the time, each kept whole, so a narrow column breaks between them and nowhere else. */
function When({ iso }: { iso: string }) {
  const [day, clock] = formatTime(iso).split(' ');
  return (
    <time dateTime={iso}>
      <span className="nowrap">{day}</span> <span className="nowrap">{clock}</span>
    </time>
  );
}

const shortId = (id: string) => id.slice(0, 8);

export function JobTable({ jobs, repositories }: { jobs: JobSummary[]; repositories: Map<string, Repository> }) {
  const session = useSession();
  const now = useNow(jobs.some((job) => job.startedAt !== null && job.finishedAt === null));
  const me = { id: session.user.id, name: session.user.name ?? null };
  return (
    <div className="table-wrap">
      <table className="jobs-table">
        <caption className="visually-hidden">Jobs, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Status</th>
            <th scope="col" className="optional">
              Trigger
            </th>
            <th scope="col" className="optional">
              Repository
            </th>
            <th scope="col" className="optional">
              Check
            </th>
            <th scope="col" className="optional">
              Started by
            </th>
            <th scope="col">When</th>
            <th scope="col" className="optional">
              Took
            </th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => {
            const repository = repositories.get(job.projectId);
            return (
              <tr key={job.jobId} data-job-id={job.jobId} data-status={job.status}>
                <th scope="row" className="job-task">
                  <Link href={`/jobs/${encodeURIComponent(job.jobId)}`}>{job.naturalLanguageTask ?? (job.testId ? 'Replay of a check' : `Job ${shortId(job.jobId)}`)}</Link>
                </th>
                <td>
                  <span className={`status ${job.status}`}>{statusLabel(job.status)}</span>
                </td>
                <td className="optional">{job.trigger}</td>
                <td className="optional">{repository ? repositoryName(repository) : <span className="muted">{shortId(job.projectId)}</span>}</td>
                <td className="optional">
                  {job.testId ? (
                    <Link href={`/checks/${encodeURIComponent(job.testId)}`} aria-label={`Check ${job.testId}`}>
                      <code>{shortId(job.testId)}</code>
                    </Link>
                  ) : null}
                </td>
                <td className="optional" title={job.startedBy?.actor}>
                  {startedByText(job.startedBy, me)}
                </td>
                <td>
                  <When iso={job.createdAt} />
                </td>
                <td className="optional">{jobDuration(job.startedAt, job.finishedAt, now)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
