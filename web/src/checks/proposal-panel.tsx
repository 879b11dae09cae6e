/**
 * A proposed (healed) version beside the version the check replays now: both step lists, the steps whose locators
 * the healing replay changed highlighted, the screenshot that replay took of them, and Accept.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import type { z } from 'zod';
import { artifactSchema, jobSchemas } from '../../../src/api/schemas/jobs.js';
import { api } from '../api/client.js';
import { ErrorNotice } from '../components/error-notice.js';
import { formatTime } from '../format.js';
import { acceptedSchema, checkKey, CHECKS_KEY, type CheckVersionBody } from './queries.js';
import { changedLocatorIndexes, diffSteps, type StepChange } from './step-diff.js';
import { StepsTable } from './steps-table.js';

function HealingScreenshots({ jobId, stepIndexes }: { jobId: string; stepIndexes: number[] }) {
  const job = useQuery({
    queryKey: ['jobs', jobId],
    queryFn: ({ signal }) => api(jobSchemas.A.view, `/api/jobs/${encodeURIComponent(jobId)}`, { signal }),
  });
  if (job.isPending) return <p className="muted">Loading the healing run's screenshot…</p>;
  if (job.isError) return <ErrorNotice error={job.error} retry={() => void job.refetch()} />;
  // The view is validated by the shared schema; its type keys the record by naming set, the artifacts are plain.
  const artifacts = job.data.artifacts as z.output<typeof artifactSchema>[];
  const screenshots = artifacts.filter((artifact) => artifact.kind === 'screenshot' && artifact.contentType.startsWith('image/'));
  const healed = screenshots.filter((artifact) => artifact.stepIndex !== null && stepIndexes.includes(artifact.stepIndex));
  const shown = healed.length > 0 ? healed : screenshots.slice(-1);
  if (shown.length === 0) return <p className="muted">The healing run kept no screenshot.</p>;
  return (
    <div className="healing-shots">
      {shown.map((artifact) => (
        <figure key={artifact.id}>
          {/* Same-origin download path the API built; the browser sends the session cookie. */}
          <img src={artifact.downloadPath} alt={`Screenshot of step ${(artifact.stepIndex ?? 0) + 1} in the healing run`} loading="lazy" />
          <figcaption className="muted">
            Step {(artifact.stepIndex ?? 0) + 1}, {artifact.name}
          </figcaption>
        </figure>
      ))}
    </div>
  );
}

export function ProposalPanel({ checkId, current, proposal }: { checkId: string; current: CheckVersionBody | undefined; proposal: CheckVersionBody }) {
  const queryClient = useQueryClient();
  const accept = useMutation({
    mutationFn: () => api(acceptedSchema, `/api/checks/${encodeURIComponent(checkId)}/versions/${proposal.version}/accept`, { method: 'POST' }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: checkKey(checkId) });
      await queryClient.invalidateQueries({ queryKey: CHECKS_KEY, exact: true });
    },
  });
  const rows = diffSteps(current?.steps ?? [], proposal.steps);
  const changes = new Map<number, StepChange[]>(rows.filter((row) => row.changes.length > 0 || row.added || row.removed).map((row) => [row.index, row.changes]));
  const healedSteps = changedLocatorIndexes(rows);
  const headingId = `proposal-${proposal.version}`;
  return (
    <section className="proposal" aria-labelledby={headingId} data-testid="proposal">
      <h2 id={headingId}>Proposed version {proposal.version}</h2>
      <p>
        A replay of version {proposal.basedOn ?? '?'} found{' '}
        {healedSteps.length === 1 ? `step ${healedSteps[0]! + 1}` : `${healedSteps.length} steps`} by another locator and proposes this version
        {proposal.jobId ? (
          <>
            {' '}
            (<Link href={`/jobs/${encodeURIComponent(proposal.jobId)}`}>the healing run</Link>)
          </>
        ) : null}
        , {formatTime(proposal.createdAt)}. Nothing replays it until someone accepts it.
      </p>
      <div className="split">
        <div>
          <h3>{current ? `Replayed now: version ${current.version}` : 'No version replays now'}</h3>
          <StepsTable steps={current?.steps ?? []} caption={`Steps of version ${current?.version ?? ''}`} changes={changes} testId="current-steps" />
        </div>
        <div>
          <h3>Proposed: version {proposal.version}</h3>
          <StepsTable steps={proposal.steps} caption={`Steps of proposed version ${proposal.version}`} changes={changes} testId="proposed-steps" />
        </div>
      </div>
      {proposal.jobId ? <HealingScreenshots jobId={proposal.jobId} stepIndexes={healedSteps} /> : null}
      {accept.isError ? <ErrorNotice error={accept.error} /> : null}
      <div className="actions">
        <button type="button" className="primary" disabled={accept.isPending} onClick={() => accept.mutate()}>
          {accept.isPending ? 'Accepting…' : `Accept version ${proposal.version}`}
        </button>
      </div>
    </section>
  );
}
