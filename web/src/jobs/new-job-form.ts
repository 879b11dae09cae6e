/**
 * The New job form's values and what they become: the body of `POST /api/jobs` (trigger `web`, exactly one of a
 * task and a check), the allowlist read from text, and which form field an API error names.
 */
import type { z } from 'zod';
import type { repositorySchema } from '../../../src/api/schemas/repositories.js';

type Repository = z.output<typeof repositorySchema>;

export type JobKind = 'task' | 'check';

export interface NewJobValues {
  kind: JobKind;
  task: string;
  testId: string;
  projectId: string;
  baseUrl: string;
  /** Hosts, separated by commas, spaces or new lines. */
  allowlist: string;
  commitSha: string;
}

export type FormField = 'task' | 'testId' | 'projectId' | 'baseUrl' | 'allowlist' | 'commitSha';

/** The hosts of the allowlist text, in order, each once. */
export function parseAllowlist(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).map((host) => host.trim()).filter(Boolean))];
}

/** The request body: `{ projectId, naturalLanguageTask | testId, baseUrl, networkAllowlist, commitSha?, trigger: 'web' }`. */
export function createJobBody(values: NewJobValues): Record<string, unknown> {
  const commitSha = values.commitSha.trim();
  return {
    projectId: values.projectId,
    ...(values.kind === 'task' ? { naturalLanguageTask: values.task.trim() } : { testId: values.testId }),
    baseUrl: values.baseUrl.trim(),
    networkAllowlist: parseAllowlist(values.allowlist),
    ...(commitSha ? { commitSha } : {}),
    trigger: 'web',
  };
}

/** The form field an API error's field path names (`networkAllowlist.2` → the allowlist), if the form has it. */
export function formFieldOf(apiField: string): FormField | undefined {
  const head = apiField.split('.')[0];
  switch (head) {
    case 'naturalLanguageTask':
      return 'task';
    case 'testId':
    case 'checkId':
      return 'testId';
    case 'projectId':
    case 'repositoryId':
      return 'projectId';
    case 'baseUrl':
      return 'baseUrl';
    case 'networkAllowlist':
      return 'allowlist';
    case 'commitSha':
      return 'commitSha';
    default:
      return undefined;
  }
}

/** The repository's defaults for a job: its base URL and allowlist (one host a line). */
export function repositoryDefaults(repository: Repository): Pick<NewJobValues, 'baseUrl' | 'allowlist'> {
  return { baseUrl: repository.baseUrl, allowlist: repository.networkAllowlist.join('\n') };
}

/** What the form misses before it can be sent (the API checks the rest); {} when nothing. */
export function missingFields(values: NewJobValues): Partial<Record<FormField, string>> {
  const missing: Partial<Record<FormField, string>> = {};
  if (!values.projectId) missing.projectId = 'Choose a repository';
  if (values.kind === 'task' && values.task.trim() === '') missing.task = 'Say what to test';
  if (values.kind === 'check' && !values.testId) missing.testId = 'Choose a check to replay';
  if (values.baseUrl.trim() === '') missing.baseUrl = 'Give the URL the job starts from';
  return missing;
}
