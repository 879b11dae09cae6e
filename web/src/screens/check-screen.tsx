/**
 * A check: its versions and their steps, the generated Playwright source, its schedules and recent runs, and any
 * proposed (healed) version beside the one it replays now, to accept.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { checkQuery, repositoriesQuery, type CheckDetail } from '../checks/queries.js';
import { ProposalPanel } from '../checks/proposal-panel.js';
import { SchedulesPanel } from '../checks/schedules-panel.js';
import { SourcePanel } from '../checks/source-panel.js';
import { StepsTable } from '../checks/steps-table.js';
import { ErrorNotice, isNotFound, NotFound } from '../components/error-notice.js';
import { formatTime } from '../format.js';

function Versions({ detail, selected, onSelect }: { detail: CheckDetail; selected: number; onSelect: (version: number) => void }) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Versions</caption>
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">State</th>
            <th scope="col" className="optional">
              Created
            </th>
            <th scope="col" className="optional">
              Accepted by
            </th>
            <th scope="col">
              <span className="visually-hidden">Show</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {detail.versions.map((version) => (
            <tr key={version.version} aria-current={version.version === selected ? 'true' : undefined}>
              <td>
                v{version.version}
                {version.version === detail.check.version ? <span className="muted"> (replayed)</span> : null}
              </td>
              <td>
                <span className={`status ${version.state === 'proposed' ? 'needs_review' : version.state === 'superseded' ? 'cancelled' : 'passed'}`}>{version.state}</span>
              </td>
              <td className="optional">{formatTime(version.createdAt)}</td>
              <td className="optional">{version.acceptedBy ?? ''}</td>
              <td>
                {version.version === selected ? (
                  <span className="muted">shown below</span>
                ) : (
                  <button type="button" onClick={() => onSelect(version.version)} aria-label={`Show version ${version.version}`}>
                    Show
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const ROLE_TEXT = { produced: 'made a version', replayed: 'replay', attempted: 'attempt' } as const;

function Runs({ detail }: { detail: CheckDetail }) {
  if (detail.jobs.length === 0) return <p className="muted">No runs yet.</p>;
  return (
    <ul className="runs">
      {detail.jobs.map((run) => (
        <li key={run.jobId}>
          <Link href={`/jobs/${encodeURIComponent(run.jobId)}`}>{formatTime(run.createdAt)}</Link> <span className={`status ${run.status}`}>{run.status}</span>{' '}
          <span className="muted">
            {run.trigger}, {ROLE_TEXT[run.role]}
          </span>
        </li>
      ))}
    </ul>
  );
}

export default function CheckScreen() {
  const { id = '' } = useParams<{ id: string }>();
  const detail = useQuery(checkQuery(id));
  const repositories = useQuery(repositoriesQuery);
  const [chosen, setChosen] = useState<number | undefined>(undefined);
  if (detail.isPending) return <p className="muted">Loading…</p>;
  if (detail.isError) return isNotFound(detail.error) ? <NotFound what="check" /> : <ErrorNotice error={detail.error} retry={() => void detail.refetch()} />;
  const { check, versions } = detail.data;
  const repository = repositories.data?.repositories.find((candidate) => candidate.repositoryId === check.projectId);
  const current = versions.find((version) => version.version === check.version);
  const proposals = versions.filter((version) => version.state === 'proposed').sort((a, b) => b.version - a.version);
  const selected = chosen ?? current?.version ?? versions[versions.length - 1]?.version ?? 0;
  const shown = versions.find((version) => version.version === selected);
  return (
    <>
      <p className="muted">
        <Link href="/checks">Checks</Link> /
      </p>
      <h1 className="break">{check.naturalLanguageTask}</h1>
      <p className="meta">
        <span className={`status ${check.status}`}>{check.status}</span> <span>{check.version > 0 ? `replays version ${check.version}` : 'not compiled yet'}</span>
        {' · '}
        <span>{repository ? `${repository.owner}/${repository.name}` : check.projectId}</span>
        {' · '}
        <span className="muted">created {formatTime(check.createdAt)}</span>
      </p>
      <div className="actions">
        <Link className="button" href={`/jobs/new?testId=${encodeURIComponent(check.testId)}`}>
          Replay
        </Link>
      </div>
      {proposals.map((proposal) => (
        <ProposalPanel key={proposal.version} checkId={check.testId} current={current} proposal={proposal} />
      ))}
      <h2>Versions</h2>
      {versions.length === 0 ? <p className="muted">No version yet: the check is compiled when its job passes.</p> : <Versions detail={detail.data} selected={selected} onSelect={setChosen} />}
      {shown ? (
        <>
          <h3>Steps of version {shown.version}</h3>
          <StepsTable steps={shown.steps} caption={`Steps of version ${shown.version}`} testId="version-steps" />
          <h3>Playwright source of version {shown.version}</h3>
          <SourcePanel checkId={check.testId} version={shown.version} />
        </>
      ) : null}
      <h2>Schedules</h2>
      <SchedulesPanel checkId={check.testId} defaultBaseUrl={repository?.baseUrl ?? ''} />
      <h2>Recent runs</h2>
      <Runs detail={detail.data} />
    </>
  );
}
