/**
 * A job's page (`/jobs/:id`, the page the bot and pull-request comments link to): followed live from its event
 * stream, with its steps and screenshots, findings (expected and actual, dispute), the questions of a job awaiting
 * answers, its parent and child jobs, artifacts and trace. Another organization's id is "not found", as an unknown one.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useLocation, useParams } from 'wouter';
import { ClarificationForm, ReviewNotes } from '../components/clarification-form.js';
import { ErrorNotice, isNotFound, NotFound } from '../components/error-notice.js';
import { ArtifactList } from '../job/artifact-list.js';
import { EventLog } from '../job/event-log.js';
import { FindingList } from '../job/finding-list.js';
import { JobHeader } from '../job/job-header.js';
import { artifactsWithAnnounced, isFinishedStatus, progressOf } from '../job/job-progress.js';
import { jobHref } from '../job/links.js';
import { StepList } from '../job/step-list.js';
import { jobKey, useJob, type FollowedJob } from '../job/use-job.js';
import { formatTime } from '../format.js';

function firstAt(events: FollowedJob['events'], types: readonly string[]): string | null {
  return events.find((event) => types.includes(event.type))?.at ?? null;
}

const ENDINGS = ['job.passed', 'job.failed', 'job.errored', 'job.cancelled'];

function Questions({ followed, answeredBy }: { followed: FollowedJob; answeredBy: readonly string[] }) {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const { job } = followed.view;
  const resolution = job.resolution;
  if (followed.status !== 'review_required' || resolution === undefined) return null;
  return (
    <section aria-labelledby="questions-heading" className="questions-section">
      <h2 id="questions-heading">Questions before it can run</h2>
      <ReviewNotes ambiguities={resolution.ambiguities} assumptions={resolution.assumptions} />
      {answeredBy.length > 0 ? (
        <p>These questions were answered: the run goes on in the job linked above.</p>
      ) : (
        <ClarificationForm jobId={job.jobId} questions={resolution.questions} onAnswered={(child) => {
            // Answered: this job now links to its child.
            void queryClient.invalidateQueries({ queryKey: jobKey(job.jobId) });
            navigate(jobHref(child));
          }} />
      )}
    </section>
  );
}

function EventsSection({ followed, live }: { followed: FollowedJob; live: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="events-section" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        All {followed.events.length} event{followed.events.length === 1 ? '' : 's'}
      </summary>
      {open ? <EventLog events={followed.events} live={live} /> : null}
    </details>
  );
}

function JobPage({ followed }: { followed: FollowedJob }) {
  const { view, events, status } = followed;
  const { job } = view;
  const progress = useMemo(() => progressOf(events), [events]);
  const artifacts = useMemo(() => artifactsWithAnnounced(job.jobId, view.artifacts, progress.artifacts), [job.jobId, view.artifacts, progress.artifacts]);
  const childJobIds = useMemo(() => [...new Set([...job.childJobIds, ...progress.childJobIds])], [job.childJobIds, progress.childJobIds]);
  const live = !isFinishedStatus(status);
  const startedAt = job.startedAt ?? firstAt(events, ['job.started']);
  const finishedAt = job.finishedAt ?? (live ? null : firstAt(events, ENDINGS));
  return (
    <article className="job-page" aria-label={`Job ${job.jobId}`}>
      <JobHeader job={job} status={status} startedAt={startedAt} finishedAt={finishedAt} childJobIds={childJobIds} stream={followed.stream} />
      {followed.streamError ? <ErrorNotice error={followed.streamError} /> : null}
      <Questions followed={followed} answeredBy={childJobIds} />
      <section aria-labelledby="findings-heading">
        <h2 id="findings-heading">Findings ({view.findings.length})</h2>
        <FindingList jobId={job.jobId} findings={view.findings} disputable={status === 'failed'} />
      </section>
      <section aria-labelledby="steps-heading">
        <h2 id="steps-heading">Steps ({progress.steps.length})</h2>
        <StepList steps={progress.steps} artifacts={artifacts} live={live} />
      </section>
      {progress.visits.length > 0 ? (
        <section aria-labelledby="visits-heading">
          <h2 id="visits-heading">Pages visited</h2>
          <ul className="visits">
            {progress.visits.map((visit, index) => (
              <li key={index}>
                <span className="job-text">{visit.title || '(no title)'}</span> <span className="muted job-text">{visit.url}</span>
                <span className="muted">
                  {visit.httpStatus !== undefined ? ` · HTTP ${visit.httpStatus}` : ''} · {formatTime(visit.at)}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="artifacts-heading">
        <h2 id="artifacts-heading">Artifacts</h2>
        <ArtifactList artifacts={artifacts} />
      </section>
      <section aria-labelledby="events-heading">
        <h2 id="events-heading">History</h2>
        <EventsSection followed={followed} live={live} />
      </section>
    </article>
  );
}

function JobLoader({ jobId }: { jobId: string }) {
  const { query, followed } = useJob(jobId);
  if (query.isPending) return <p className="muted">Loading the job…</p>;
  if (query.isError && followed === undefined) {
    if (isNotFound(query.error)) return <NotFound what="job" />;
    return <ErrorNotice error={query.error} retry={() => void query.refetch()} />;
  }
  if (followed === undefined) return <p className="muted">Loading the job…</p>;
  return <JobPage followed={followed} />;
}

export default function JobScreen() {
  const { id = '' } = useParams<{ id: string }>();
  // A new id (a child job opened from this page) starts a new follow.
  return <JobLoader key={id} jobId={id} />;
}
