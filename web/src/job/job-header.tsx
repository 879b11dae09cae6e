/**
 * The top of a job's page: its status (live), task, trigger, repository, base URL, who started it, its times and
 * duration, the parent and child jobs, whether the page is following it, and Cancel while the service accepts one.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { jobSchemas } from '../../../src/api/schemas/jobs.js';
import { api } from '../api/client.js';
import type { StreamState } from '../api/follow-stream.js';
import { ErrorNotice } from '../components/error-notice.js';
import { formatTime, jobDuration } from '../format.js';
import { isCancellableStatus, isFinishedStatus } from './job-progress.js';
import type { JobRecord } from './job-view.js';
import { jobHref } from './links.js';
import { useNow } from './use-now.js';
import { jobKey } from './use-job.js';

const STATUS_TEXT: Record<string, string> = { review_required: 'needs answers' };

export function StatusPill({ status }: { status: string }) {
  return <span className={`status ${status}`}>{STATUS_TEXT[status] ?? status.replaceAll('_', ' ')}</span>;
}

function StreamNote({ stream }: { stream: StreamState | 'idle' }) {
  const text = stream === 'retrying' ? 'Connection lost, reconnecting…' : stream === 'open' ? 'Live' : stream === 'connecting' ? 'Connecting…' : '';
  return (
    <span role="status" className={`stream-note ${stream}`} data-testid="stream-state" data-state={stream}>
      {text}
    </span>
  );
}

function CancelButton({ jobId }: { jobId: string }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  return (
    <>
      <button
        type="button"
        className="danger"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          setError(null);
          api(jobSchemas.A.cancelled, `/api/jobs/${encodeURIComponent(jobId)}/cancel`, { method: 'POST' })
            .then(() => queryClient.invalidateQueries({ queryKey: jobKey(jobId) }))
            .catch(setError)
            .finally(() => setBusy(false));
        }}
      >
        {busy ? 'Cancelling…' : 'Cancel job'}
      </button>
      {error ? <ErrorNotice error={error} /> : null}
    </>
  );
}

function startedByText(job: JobRecord): string {
  if (job.startedBy === null) return 'unknown';
  return job.startedBy.kind === 'person' ? job.startedBy.actor : `${job.startedBy.actor} (machine)`;
}

export interface JobHeaderProps {
  job: JobRecord;
  status: string;
  startedAt: string | null;
  finishedAt: string | null;
  childJobIds: readonly string[];
  stream: StreamState | 'idle';
}

export function JobHeader({ job, status, startedAt, finishedAt, childJobIds, stream }: JobHeaderProps) {
  const running = !isFinishedStatus(status);
  const now = useNow(running && startedAt !== null);
  return (
    <header className="job-header">
      <div className="job-title">
        <h1>
          Job <code className="job-id">{job.jobId}</code>
        </h1>
        <span role="status" aria-live="polite" data-testid="job-status">
          <StatusPill status={status} />
        </span>
        <StreamNote stream={stream} />
      </div>
      {job.naturalLanguageTask !== null ? (
        <p className="job-text job-task" data-testid="job-task">
          {job.naturalLanguageTask}
        </p>
      ) : (
        <p className="muted">A replay of a check.</p>
      )}
      <dl className="facts">
        <div>
          <dt>Trigger</dt>
          <dd>{job.trigger}</dd>
        </div>
        <div>
          <dt>Repository</dt>
          <dd>
            <code>{job.projectId}</code>
          </dd>
        </div>
        <div>
          <dt>Base URL</dt>
          <dd className="job-text">{job.baseUrl}</dd>
        </div>
        {job.testId !== null ? (
          <div>
            <dt>Check</dt>
            <dd>
              <Link href={`/checks/${encodeURIComponent(job.testId)}`}>
                <code>{job.testId}</code>
              </Link>
            </dd>
          </div>
        ) : null}
        {job.commitSha !== null ? (
          <div>
            <dt>Commit</dt>
            <dd>
              <code>{job.commitSha.slice(0, 12)}</code>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Started by</dt>
          <dd className="job-text">{startedByText(job)}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>
            <time dateTime={job.createdAt}>{formatTime(job.createdAt)}</time>
          </dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>{startedAt ? <time dateTime={startedAt}>{formatTime(startedAt)}</time> : <span className="muted">not yet</span>}</dd>
        </div>
        <div>
          <dt>Finished</dt>
          <dd>{finishedAt ? <time dateTime={finishedAt}>{formatTime(finishedAt)}</time> : <span className="muted">not yet</span>}</dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd data-testid="job-duration">{jobDuration(startedAt, finishedAt, now) || <span className="muted">—</span>}</dd>
        </div>
        {job.parentJobId !== null ? (
          <div>
            <dt>Answers the questions of</dt>
            <dd>
              <Link href={jobHref(job.parentJobId)}>
                <code>{job.parentJobId}</code>
              </Link>
            </dd>
          </div>
        ) : null}
        {childJobIds.length > 0 ? (
          <div>
            <dt>Answered by</dt>
            <dd>
              {childJobIds.map((child) => (
                <Link key={child} href={jobHref(child)} className="child-job">
                  <code>{child}</code>
                </Link>
              ))}
            </dd>
          </div>
        ) : null}
      </dl>
      {isCancellableStatus(status) ? (
        <div className="actions">
          <CancelButton jobId={job.jobId} />
        </div>
      ) : null}
    </header>
  );
}
