/**
 * A job's findings: severity, title and detail, expected and actual side by side for a failed expectation, and
 * "Dispute" (not a bug) on a failed job's findings, which posts `…/findings/dispute` `{ reason, findingIds }` and
 * then shows who disputed it and why. All of it is the run's text: rendered as text.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { jobSchemas } from '../../../src/api/schemas/jobs.js';
import { api } from '../api/client.js';
import { ErrorNotice } from '../components/error-notice.js';
import { formatTime } from '../format.js';
import { Comparison } from './comparison.js';
import { jobPath, type Finding, type JobView } from './job-view.js';
import { jobKey } from './use-job.js';

/** The service's limit on a reason (dispute.reason_invalid). */
const REASON_MAX = 1000;

function DisputeForm({ jobId, finding, onDone }: { jobId: string; finding: Finding; onDone: () => void }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await api(jobSchemas.A.disputed, `${jobPath(jobId)}/findings/dispute`, { method: 'POST', body: { reason, findingIds: [finding.id] } });
      // The answer's keys are computed per naming set (see job-view.ts): Set A calls the list `findings`.
      const disputed = new Map((answer as unknown as { findings: Finding[] }).findings.map((item) => [item.id, item]));
      queryClient.setQueryData<JobView>(jobKey(jobId), (view) => view && { ...view, findings: view.findings.map((item) => disputed.get(item.id) ?? item) });
      onDone();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="dispute-form" onSubmit={(event) => void submit(event)}>
      <label htmlFor={id}>Why is this not a bug?</label>
      <textarea id={id} value={reason} required maxLength={REASON_MAX} rows={2} onChange={(event) => setReason(event.target.value)} autoFocus />
      {error ? <ErrorNotice error={error} /> : null}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy || reason.trim() === ''}>
          {busy ? 'Disputing…' : 'Dispute finding'}
        </button>
        <button type="button" onClick={onDone} disabled={busy}>
          Keep it
        </button>
      </div>
    </form>
  );
}

function FindingCard({ jobId, finding, disputable }: { jobId: string; finding: Finding; disputable: boolean }) {
  const [disputing, setDisputing] = useState(false);
  const disputeText = finding.disputedAt !== null ? 'Dispute again' : 'Dispute';
  return (
    <li className={`finding card ${finding.severity}`}>
      <div className="finding-head">
        <span className={`severity ${finding.severity}`}>{finding.severity}</span>
        <span className="muted">{finding.kind.replaceAll('_', ' ')}</span>
        {finding.stepIndex !== null ? <span className="muted">step {finding.stepIndex + 1}</span> : null}
      </div>
      <h3 className="job-text">{finding.title}</h3>
      {finding.detail ? <p className="job-text finding-detail">{finding.detail}</p> : null}
      {finding.expected !== null && finding.actual !== null ? <Comparison expected={finding.expected} actual={finding.actual} /> : null}
      {finding.disputedAt !== null ? (
        <p className="disputed" data-testid="disputed">
          Disputed (not a bug) by <span className="job-text">{finding.disputedBy ?? 'someone'}</span>
          {' on '}
          <time dateTime={finding.disputedAt}>{formatTime(finding.disputedAt)}</time>
          {': '}
          <span className="job-text">{finding.disputeReason ?? ''}</span>
        </p>
      ) : null}
      {disputable && disputing ? <DisputeForm jobId={jobId} finding={finding} onDone={() => setDisputing(false)} /> : null}
      {disputable && !disputing ? (
        <div className="actions">
          <button type="button" onClick={() => setDisputing(true)} aria-label={`${disputeText}: ${finding.title}`}>
            {disputeText}
          </button>
        </div>
      ) : null}
    </li>
  );
}

/** Errors first, then warnings, then notes; in run order within each. */
const RANK: Record<string, number> = { error: 0, warning: 1, info: 2 };

export function FindingList({ jobId, findings, disputable }: { jobId: string; findings: readonly Finding[]; disputable: boolean }) {
  if (findings.length === 0) return <p className="muted">No findings.</p>;
  const ordered = [...findings].sort((a, b) => (RANK[a.severity] ?? 3) - (RANK[b.severity] ?? 3));
  return (
    <ul className="findings" aria-label="Findings">
      {ordered.map((finding) => (
        <FindingCard key={finding.id} jobId={jobId} finding={finding} disputable={disputable} />
      ))}
    </ul>
  );
}
