/**
 * The jobs list's filters: status, trigger, repository and text. Each change goes into the page's query string
 * (replacing the history entry, so Back leaves the list rather than stepping through keystrokes); the text waits
 * until typing pauses.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { JOB_STATUS_VALUES, JOB_TRIGGER_VALUES } from '../api/job-summary.js';
import { repositoryName, type Repository } from '../api/repositories.js';
import type { JobFilter } from './job-filter.js';

export const TEXT_DEBOUNCE_MS = 300;

export const statusLabel = (status: string) => status.replace(/_/g, ' ');

export function JobFiltersForm({ filter, repositories, onChange }: { filter: JobFilter; repositories: Repository[]; onChange: (next: JobFilter) => void }) {
  const id = useId();
  const [text, setText] = useState(filter.q ?? '');
  const latest = useRef({ filter, onChange });
  latest.current = { filter, onChange };
  const typing = useRef(false);

  // The text follows the URL when it changes from elsewhere (Back, a shared link), not while someone types.
  useEffect(() => {
    if (!typing.current) setText(filter.q ?? '');
  }, [filter.q]);

  useEffect(() => {
    if (!typing.current) return;
    const timer = setTimeout(() => {
      typing.current = false;
      const { filter: current, onChange: change } = latest.current;
      if ((current.q ?? '') !== text) change({ ...current, q: text || undefined });
    }, TEXT_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const set = (patch: Partial<JobFilter>) => onChange({ ...filter, ...patch });
  return (
    <form role="search" aria-label="Filter jobs" className="job-filters row" onSubmit={(event) => event.preventDefault()}>
      <div>
        <label htmlFor={`${id}-status`}>Status</label>
        <select id={`${id}-status`} value={filter.status ?? ''} onChange={(event) => set({ status: (event.target.value || undefined) as JobFilter['status'] })}>
          <option value="">Any</option>
          {JOB_STATUS_VALUES.map((status) => (
            <option key={status} value={status}>
              {statusLabel(status)}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-trigger`}>Trigger</label>
        <select id={`${id}-trigger`} value={filter.trigger ?? ''} onChange={(event) => set({ trigger: (event.target.value || undefined) as JobFilter['trigger'] })}>
          <option value="">Any</option>
          {JOB_TRIGGER_VALUES.map((trigger) => (
            <option key={trigger} value={trigger}>
              {trigger}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-repository`}>Repository</label>
        <select id={`${id}-repository`} value={filter.projectId ?? ''} onChange={(event) => set({ projectId: event.target.value || undefined })}>
          <option value="">Any</option>
          {repositories.map((repository) => (
            <option key={repository.repositoryId} value={repository.repositoryId}>
              {repositoryName(repository)}
            </option>
          ))}
          {filter.projectId && !repositories.some((repository) => repository.repositoryId === filter.projectId) ? (
            <option value={filter.projectId}>{filter.projectId}</option>
          ) : null}
        </select>
      </div>
      <div className="grow">
        <label htmlFor={`${id}-q`}>Task contains</label>
        <input
          id={`${id}-q`}
          type="search"
          value={text}
          maxLength={200}
          autoComplete="off"
          onChange={(event) => {
            typing.current = true;
            setText(event.target.value);
          }}
        />
      </div>
    </form>
  );
}
