/**
 * Connect a repository (spec 2.3, `POST /api/repositories`): every field of the connect body, multi-line fields a
 * line per entry, the API's messages shown next to the fields they name. The service answers 202 and onboards it.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { repositoryConnectedSchema } from '../../../src/api/schemas/repositories.js';
import { api } from '../api/client.js';
import { errorFor, fieldErrorsOf, type FieldErrors } from '../api/field-errors.js';
import { ErrorNotice } from '../components/error-notice.js';
import { Field } from './field.js';
import { parseLines, parseProbeRefs, parseSecretRefs } from './form-values.js';
import { DEFAULT_PULL_REQUEST_FORM, PullRequestFields, type PullRequestForm } from './pull-request-fields.js';

const TEXT_FIELDS = ['providerInstallationId', 'owner', 'name', 'defaultBranch', 'cloneUrl', 'baseUrl', 'revision'] as const;
type TextField = (typeof TEXT_FIELDS)[number];
/** The fields the form shows a message next to; an error about any other is shown above the button. */
const SHOWN_FIELDS = new Set<string>([...TEXT_FIELDS, 'networkAllowlist', 'testValueSecretRefs', 'evidenceProbeRefs', 'pullRequests']);

export function ConnectForm({ onConnected }: { onConnected: (repositoryId: string) => void }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState<Record<TextField, string>>({ providerInstallationId: '', owner: '', name: '', defaultBranch: 'main', cloneUrl: '', baseUrl: '', revision: '' });
  const [allowlist, setAllowlist] = useState('');
  const [secrets, setSecrets] = useState('');
  const [probes, setProbes] = useState('');
  const [pullRequests, setPullRequests] = useState<PullRequestForm>(DEFAULT_PULL_REQUEST_FORM);
  const [formErrors, setFormErrors] = useState<FieldErrors>({});
  const connect = useMutation({
    mutationFn: (body: Record<string, unknown>) => api(repositoryConnectedSchema, '/api/repositories', { method: 'POST', body }),
    onSuccess: async (answer) => {
      await queryClient.invalidateQueries({ queryKey: ['repositories'] });
      onConnected(answer.repositoryId);
    },
  });
  const errors = { ...fieldErrorsOf(connect.error), ...formErrors };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const secretRefs = parseSecretRefs(secrets);
    const probeRefs = parseProbeRefs(probes);
    const local: FieldErrors = {};
    if (secretRefs.problems.length > 0) local.testValueSecretRefs = secretRefs.problems.join('; ');
    if (probeRefs.problems.length > 0) local.evidenceProbeRefs = probeRefs.problems.join('; ');
    setFormErrors(local);
    if (Object.keys(local).length > 0) return;
    connect.mutate({
      provider: 'codehost',
      providerInstallationId: text.providerInstallationId.trim(),
      owner: text.owner.trim(),
      name: text.name.trim(),
      defaultBranch: text.defaultBranch.trim(),
      cloneUrl: text.cloneUrl.trim(),
      baseUrl: text.baseUrl.trim(),
      networkAllowlist: parseLines(allowlist),
      testValueSecretRefs: secretRefs.value,
      evidenceProbeRefs: probeRefs.value,
      ...(text.revision.trim() ? { revision: text.revision.trim() } : {}),
      pullRequests: {
        waitForDeployment: pullRequests.waitForDeployment,
        runDrafts: pullRequests.runDrafts,
        runForks: pullRequests.runForks,
        ...(pullRequests.previewUrlTemplate.trim() ? { previewUrlTemplate: pullRequests.previewUrlTemplate.trim() } : {}),
        ...(pullRequests.deploymentEnvironment.trim() ? { deploymentEnvironment: pullRequests.deploymentEnvironment.trim() } : {}),
      },
    });
  };
  const input = (field: TextField, label: string, options: { help?: string; type?: string; required?: boolean; placeholder?: string } = {}) => (
    <Field label={label} error={errorFor(errors, field)} help={options.help}>
      {(props) => (
        <input
          {...props}
          className="wide"
          type={options.type ?? 'text'}
          required={options.required ?? true}
          placeholder={options.placeholder}
          value={text[field]}
          onChange={(event) => setText({ ...text, [field]: event.target.value })}
        />
      )}
    </Field>
  );
  const unnamed = Object.keys(errors).filter((field) => !SHOWN_FIELDS.has(field.split('.')[0]!));
  return (
    <form onSubmit={submit} aria-label="Connect a repository" className="connect-form" noValidate>
      <p className="muted">
        The code host's installation must be connected to this organization first (an admin does that under Installations), and live and AI execution must be on: onboarding
        explores the site.
      </p>
      {input('providerInstallationId', 'Installation id', { help: "The code host's installation id (digits).", placeholder: '42' })}
      <div className="row">
        {input('owner', 'Owner', { placeholder: 'acme' })}
        {input('name', 'Name', { placeholder: 'shop' })}
      </div>
      {input('defaultBranch', 'Default branch')}
      {input('cloneUrl', 'Clone URL', { type: 'url', help: 'An https URL.', placeholder: 'https://code.example/acme/shop.git' })}
      {input('baseUrl', 'Base URL', { type: 'url', help: 'Where runs open the site by default.', placeholder: 'https://shop.example' })}
      <Field label="Network allowlist" error={errorFor(errors, 'networkAllowlist')} help="Other hosts runs may reach, one a line (host, host:port or [IPv6]:port).">
        {(props) => <textarea {...props} value={allowlist} onChange={(event) => setAllowlist(event.target.value)} />}
      </Field>
      <Field label="Test-value secrets" error={errorFor(errors, 'testValueSecretRefs')} help="One a line: name=ENV_NAME. Only the environment variable's name is stored, never its value.">
        {(props) => <textarea {...props} value={secrets} placeholder={'email=SHOP_EMAIL\npassword=SHOP_PASSWORD'} onChange={(event) => setSecrets(event.target.value)} />}
      </Field>
      <Field label="Evidence probes" error={errorFor(errors, 'evidenceProbeRefs')} help="Optional, one a line: criterion=urlValueRef,tokenValueRef (both test-value names above).">
        {(props) => <textarea {...props} value={probes} onChange={(event) => setProbes(event.target.value)} />}
      </Field>
      {input('revision', 'Revision', { required: false, help: 'Optional: the commit to index first.' })}
      <PullRequestFields value={pullRequests} onChange={setPullRequests} errors={errors} prefix="pullRequests" />
      {connect.isError && (Object.keys(fieldErrorsOf(connect.error)).length === 0 || unnamed.length > 0) ? <ErrorNotice error={connect.error} /> : null}
      {connect.isError && Object.keys(fieldErrorsOf(connect.error)).length > 0 ? (
        <p role="alert" className="field-error">
          Some fields need a change: see the messages next to them.
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" className="primary" disabled={connect.isPending}>
          {connect.isPending ? 'Connecting…' : 'Connect repository'}
        </button>
      </div>
    </form>
  );
}
