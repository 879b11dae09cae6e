/** How a repository's pull requests run (src/core/pull-request-settings.ts): the fields, shared by connect and edit. */
import { errorFor, type FieldErrors } from '../api/field-errors.js';
import { Field } from './field.js';

export interface PullRequestForm {
  previewUrlTemplate: string;
  waitForDeployment: boolean;
  deploymentEnvironment: string;
  runDrafts: boolean;
  runForks: boolean;
}

export const DEFAULT_PULL_REQUEST_FORM: PullRequestForm = { previewUrlTemplate: '', waitForDeployment: false, deploymentEnvironment: '', runDrafts: false, runForks: false };

export function pullRequestFormOf(settings: { previewUrlTemplate?: string; waitForDeployment: boolean; deploymentEnvironment?: string; runDrafts: boolean; runForks: boolean }): PullRequestForm {
  return { ...settings, previewUrlTemplate: settings.previewUrlTemplate ?? '', deploymentEnvironment: settings.deploymentEnvironment ?? '' };
}

export function PullRequestFields({
  value,
  onChange,
  errors,
  prefix,
}: {
  value: PullRequestForm;
  onChange: (next: PullRequestForm) => void;
  errors: FieldErrors;
  /** Where the API names these fields: `pullRequests`. */
  prefix: string;
}) {
  const set = <K extends keyof PullRequestForm>(key: K, item: PullRequestForm[K]) => onChange({ ...value, [key]: item });
  const check = (key: 'waitForDeployment' | 'runDrafts' | 'runForks', label: string) => (
    <label className="inline check">
      <input type="checkbox" checked={value[key]} onChange={(event) => set(key, event.target.checked)} /> {label}
    </label>
  );
  return (
    <fieldset>
      <legend>Pull requests</legend>
      <Field label="Preview URL template" error={errorFor(errors, `${prefix}.previewUrlTemplate`)} help="Optional: the address of each pull request's preview, with {number} and {sha}.">
        {(props) => <input {...props} className="wide" value={value.previewUrlTemplate} placeholder="https://pr-{number}.preview.example.com" onChange={(event) => set('previewUrlTemplate', event.target.value)} />}
      </Field>
      {check('waitForDeployment', "Wait for the head commit's deployment and run at its URL")}
      <Field label="Deployment environment" error={errorFor(errors, `${prefix}.deploymentEnvironment`)} help="Optional: only deployments of this environment count.">
        {(props) => <input {...props} value={value.deploymentEnvironment} onChange={(event) => set('deploymentEnvironment', event.target.value)} />}
      </Field>
      {check('runDrafts', 'Run draft pull requests too')}
      {check('runForks', 'Run pull requests from forks too (their code is untrusted)')}
    </fieldset>
  );
}
