/**
 * API keys (admins): the organization's keys, a new key with its secret shown once (the service keeps only its hash),
 * and revoking one after asking.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { z } from 'zod';
import { apiKeyCreatedSchema, apiKeyListSchema } from '../../../src/api/schemas/people.js';
import { api } from '../api/client.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { ErrorNotice } from '../components/error-notice.js';
import { formatTime } from '../format.js';

const KEYS_KEY = ['keys'] as const;
type Created = z.output<typeof apiKeyCreatedSchema>;
type Key = z.output<typeof apiKeyListSchema>['keys'][number];

function NewSecret({ created, onDone }: { created: Created; onDone: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | undefined>(undefined);
  const copy = () =>
    void navigator.clipboard
      .writeText(created.key)
      .then(() => setCopied('yes'))
      .catch(() => setCopied('failed'));
  return (
    <section className="notice secret" aria-labelledby="secret-heading" data-testid="new-key">
      <h2 id="secret-heading">Copy the new key now</h2>
      <p className="warning-text">
        This is the only time the key is shown. The service keeps only a hash of it: once you leave or reload this page, nobody can show it again. Store it in your
        secret manager.
      </p>
      <label htmlFor="new-key-secret">Key {created.label ? `“${created.label}”` : ''}</label>
      <div className="row">
        <input id="new-key-secret" className="wide mono" readOnly value={created.key} onFocus={(event) => event.target.select()} data-testid="new-key-secret" />
        <button type="button" onClick={copy}>
          Copy key
        </button>
      </div>
      <p role="status">{copied === 'yes' ? 'Copied to the clipboard.' : copied === 'failed' ? 'The browser refused to copy: select the key and copy it yourself.' : ''}</p>
      <button type="button" onClick={onDone}>
        I have stored it
      </button>
    </section>
  );
}

function KeyRow({ apiKey }: { apiKey: Key }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => api(z.unknown(), `/api/keys/${encodeURIComponent(apiKey.prefix)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEYS_KEY }),
  });
  const name = apiKey.label ?? apiKey.prefix;
  return (
    <tr data-testid="api-key">
      <td>
        <span className="break">{apiKey.label ?? <span className="muted">no label</span>}</span>
        <div className="muted mono">{apiKey.prefix}…</div>
      </td>
      <td className="optional">
        {formatTime(apiKey.createdAt)}
        {apiKey.createdBy ? <div className="muted">by {apiKey.createdBy}</div> : null}
      </td>
      <td className="optional">{apiKey.lastUsedAt ? formatTime(apiKey.lastUsedAt) : <span className="muted">never</span>}</td>
      <td>
        {apiKey.revokedAt ? (
          <span>
            <span className="status cancelled">revoked</span>
            <div className="muted">
              {formatTime(apiKey.revokedAt)}
              {apiKey.revokedBy ? ` by ${apiKey.revokedBy}` : ''}
            </div>
          </span>
        ) : (
          <>
            <ConfirmButton label="Revoke" ariaLabel={`Revoke ${name}`} question={`Revoke ${name}? Every client using it stops working at once.`} confirmLabel="Yes, revoke" busy={revoke.isPending} onConfirm={() => revoke.mutate()} />
            {revoke.isError ? <ErrorNotice error={revoke.error} /> : null}
          </>
        )}
      </td>
    </tr>
  );
}

export default function KeysScreen() {
  const queryClient = useQueryClient();
  const id = useId();
  const [label, setLabel] = useState('');
  const [created, setCreated] = useState<Created | undefined>(undefined);
  const keys = useQuery({ queryKey: KEYS_KEY, queryFn: ({ signal }) => api(apiKeyListSchema, '/api/keys', { signal }) });
  const create = useMutation({
    mutationFn: () => api(apiKeyCreatedSchema, '/api/keys', { method: 'POST', body: label.trim() ? { label: label.trim() } : {} }),
    onSuccess: async (answer) => {
      setCreated(answer);
      setLabel('');
      await queryClient.invalidateQueries({ queryKey: KEYS_KEY });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <>
      <h1>API keys</h1>
      <p className="muted">Keys let programs (CI, scripts) call the API for this organization. They cannot take admin actions.</p>
      {created ? <NewSecret created={created} onDone={() => setCreated(undefined)} /> : null}
      <form onSubmit={submit} aria-label="New API key" className="row">
        <div>
          <label htmlFor={`${id}-label`}>Label</label>
          <input id={`${id}-label`} value={label} maxLength={255} placeholder="CI on main" onChange={(event) => setLabel(event.target.value)} />
        </div>
        <button type="submit" className="primary" disabled={create.isPending}>
          Create key
        </button>
      </form>
      {create.isError ? <ErrorNotice error={create.error} /> : null}
      <h2>Keys</h2>
      {keys.isPending ? <p className="muted">Loading…</p> : null}
      {keys.isError ? <ErrorNotice error={keys.error} retry={() => void keys.refetch()} /> : null}
      {keys.data?.keys.length === 0 ? <p>No key yet.</p> : null}
      {keys.data && keys.data.keys.length > 0 ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col" className="optional">
                  Created
                </th>
                <th scope="col" className="optional">
                  Last used
                </th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.keys.map((apiKey) => (
                <KeyRow key={apiKey.id} apiKey={apiKey} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
