/** Checks: every compiled check of the organization, its state and repository, with a link to it and to a replay. */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { ErrorNotice } from '../components/error-notice.js';
import { checkRow, checksQuery, repositoriesQuery, repositoryNames } from '../checks/queries.js';
import { formatTime } from '../format.js';

export default function ChecksScreen() {
  const checks = useQuery(checksQuery);
  const repositories = useQuery(repositoriesQuery);
  const names = repositoryNames(repositories.data);
  return (
    <>
      <h1>Checks</h1>
      <p className="muted">A check is a passing job's steps, compiled so it can be replayed without planning.</p>
      {repositories.isError ? <ErrorNotice error={repositories.error} retry={() => void repositories.refetch()} /> : null}
      {checks.isPending ? <p className="muted">Loading…</p> : null}
      {checks.isError ? <ErrorNotice error={checks.error} retry={() => void checks.refetch()} /> : null}
      {checks.data?.checks.length === 0 ? <p>No checks yet: a job that passes leaves one.</p> : null}
      {checks.data && checks.data.checks.length > 0 ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Task</th>
                <th scope="col">Status</th>
                <th scope="col" className="optional">
                  Version
                </th>
                <th scope="col" className="optional">
                  Repository
                </th>
                <th scope="col" className="optional">
                  Created
                </th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {checks.data.checks.map((raw) => {
                const check = checkRow(raw);
                return (
                  <tr key={check.testId}>
                    <td>
                      <Link href={`/checks/${encodeURIComponent(check.testId)}`}>{check.naturalLanguageTask}</Link>
                    </td>
                    <td>
                      <span className={`status ${check.status}`}>{check.status}</span>
                    </td>
                    <td className="optional">{check.version > 0 ? `v${check.version}` : '—'}</td>
                    <td className="optional">{names.get(check.projectId) ?? <span className="muted">{check.projectId}</span>}</td>
                    <td className="optional">{formatTime(check.createdAt)}</td>
                    <td>
                      <Link href={`/jobs/new?testId=${encodeURIComponent(check.testId)}`} aria-label={`Replay ${check.naturalLanguageTask}`}>
                        Replay
                      </Link>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
