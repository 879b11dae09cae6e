/**
 * Repositories: the organization's connected repositories, one opened in a panel beside the list (its settings and
 * pull-request settings; `?id=` keeps it in the URL), and a form to connect another.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { repositoriesQuery } from '../checks/queries.js';
import { ErrorNotice } from '../components/error-notice.js';
import { ConnectForm } from '../repositories/connect-form.js';
import { RepositoryPanel } from '../repositories/repository-panel.js';

export default function RepositoriesScreen() {
  const repositories = useQuery(repositoriesQuery);
  const search = useSearch();
  const [, navigate] = useLocation();
  const [connecting, setConnecting] = useState(false);
  const [connected, setConnected] = useState<string | undefined>(undefined);
  const selected = new URLSearchParams(search).get('id') ?? undefined;
  const open = (id: string | undefined) => navigate(id === undefined ? '/repositories' : `/repositories?id=${encodeURIComponent(id)}`);
  return (
    <>
      <div className="panel-head">
        <h1>Repositories</h1>
        <button type="button" className="primary" aria-expanded={connecting} onClick={() => setConnecting(!connecting)}>
          {connecting ? 'Cancel connecting' : 'Connect a repository'}
        </button>
      </div>
      {connected ? (
        <p role="status" className="notice">
          Connected. Onboarding runs now: it indexes the code and explores the site.
        </p>
      ) : null}
      {connecting ? (
        <section aria-labelledby="connect-heading" className="panel">
          <h2 id="connect-heading">Connect a repository</h2>
          <ConnectForm
            onConnected={(id) => {
              setConnecting(false);
              setConnected(id);
              open(id);
            }}
          />
        </section>
      ) : null}
      {repositories.isPending ? <p className="muted">Loading…</p> : null}
      {repositories.isError ? <ErrorNotice error={repositories.error} retry={() => void repositories.refetch()} /> : null}
      {repositories.data?.repositories.length === 0 ? <p>No repository is connected yet.</p> : null}
      <div className={selected ? 'master-detail open' : 'master-detail'}>
        {repositories.data && repositories.data.repositories.length > 0 ? (
          <ul className="repository-list plain">
            {repositories.data.repositories.map((repository) => (
              <li key={repository.repositoryId}>
                <button
                  type="button"
                  className="list-item"
                  aria-current={repository.repositoryId === selected ? 'true' : undefined}
                  onClick={() => open(repository.repositoryId)}
                >
                  <strong className="break">
                    {repository.owner}/{repository.name}
                  </strong>
                  <span className="muted break">{repository.baseUrl}</span>
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        {selected ? <RepositoryPanel key={selected} repositoryId={selected} onClose={() => open(undefined)} /> : null}
      </div>
    </>
  );
}
