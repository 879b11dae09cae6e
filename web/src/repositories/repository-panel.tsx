/**
 * One repository: the settings it was connected with (read only: the API changes only pull-request settings), its
 * onboarding runs, and its pull-request settings, editable (`PATCH /api/repositories/:id`).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { repositoryDetailSchema, repositoryUpdatedSchema } from '../../../src/api/schemas/repositories.js';
import { api } from '../api/client.js';
import { fieldErrorsOf } from '../api/field-errors.js';
import { ErrorNotice, isNotFound, NotFound } from '../components/error-notice.js';
import { formatTime } from '../format.js';
import { secretRefLines } from './form-values.js';
import { PullRequestFields, pullRequestFormOf, type PullRequestForm } from './pull-request-fields.js';

type Repository = z.output<typeof repositoryDetailSchema>['repository'];

function PullRequestSettings({ repository }: { repository: Repository }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<PullRequestForm>(() => pullRequestFormOf(repository.pullRequests));
  const save = useMutation({
    mutationFn: () =>
      api(repositoryUpdatedSchema, `/api/repositories/${encodeURIComponent(repository.repositoryId)}`, {
        method: 'PATCH',
        body: {
          pullRequests: {
            previewUrlTemplate: form.previewUrlTemplate.trim() || null,
            waitForDeployment: form.waitForDeployment,
            deploymentEnvironment: form.deploymentEnvironment.trim() || null,
            runDrafts: form.runDrafts,
            runForks: form.runForks,
          },
        },
      }),
    onSuccess: async (answer) => {
      setForm(pullRequestFormOf(answer.repository.pullRequests));
      await queryClient.invalidateQueries({ queryKey: ['repositories'] });
    },
  });
  const errors = fieldErrorsOf(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  // "Saved." speaks of the form as it was saved: an edit since then takes it away, until the next save succeeds.
  const edit = (next: PullRequestForm) => {
    setForm(next);
    if (save.isSuccess) save.reset();
  };
  return (
    <form onSubmit={submit} aria-label="Pull-request settings">
      <PullRequestFields value={form} onChange={edit} errors={errors} prefix="pullRequests" />
      {save.isError && Object.keys(errors).length === 0 ? <ErrorNotice error={save.error} /> : null}
      {save.isSuccess && !save.isPending ? <p role="status">Saved.</p> : null}
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          Save pull-request settings
        </button>
      </div>
    </form>
  );
}

export function RepositoryPanel({ repositoryId, onClose }: { repositoryId: string; onClose: () => void }) {
  const detail = useQuery({
    queryKey: ['repositories', repositoryId],
    queryFn: ({ signal }) => api(repositoryDetailSchema, `/api/repositories/${encodeURIComponent(repositoryId)}`, { signal }),
  });
  const close = (
    <button type="button" onClick={onClose}>
      Close
    </button>
  );
  if (detail.isPending) return <p className="muted">Loading…</p>;
  if (detail.isError) {
    return (
      <>
        {isNotFound(detail.error) ? <NotFound what="repository" /> : <ErrorNotice error={detail.error} retry={() => void detail.refetch()} />}
        {close}
      </>
    );
  }
  const { repository, ingestionRuns } = detail.data;
  const rows: Array<[string, string]> = [
    ['Installation', repository.providerInstallationId],
    ['Default branch', repository.defaultBranch],
    ['Clone URL', repository.cloneUrl],
    ['Base URL', repository.baseUrl],
    ['Network allowlist', repository.networkAllowlist.join('\n') || '—'],
    ['Test-value secrets', secretRefLines(repository.testValueSecretRefs) || '—'],
    ['Evidence probes', Object.entries(repository.evidenceProbeRefs).map(([key, ref]) => `${key}=${ref.urlValueRef},${ref.tokenValueRef}`).join('\n') || '—'],
    ['Revision', repository.revision ?? '—'],
    ['Connected', formatTime(repository.createdAt)],
  ];
  return (
    <section className="panel" aria-labelledby="repository-heading" data-testid="repository-panel">
      <div className="panel-head">
        <h2 id="repository-heading" className="break">
          {repository.owner}/{repository.name}
        </h2>
        {close}
      </div>
      <h3>Settings</h3>
      <dl className="settings">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="field-help">These were set when the repository was connected.</p>
      <PullRequestSettings key={repository.repositoryId} repository={repository} />
      <h3>Onboarding</h3>
      {ingestionRuns.length === 0 ? (
        <p className="muted">No onboarding run.</p>
      ) : (
        <ul>
          {ingestionRuns.map((run) => (
            <li key={run.ingestionRunId}>
              {formatTime(run.createdAt)} <span className={`status ${run.status}`}>{run.status}</span>
              {run.revision ? <span className="muted"> at {run.revision.slice(0, 12)}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
