import { z } from 'zod';
import { DEFAULT_SHARED_FILES, SHARED_FILES_MAX, sharedFilePatternProblem } from './check-selection.js';

/**
 * How a repository's pull requests are run (issue 14), stored on the repository (`repositories.pull_request_settings`,
 * null meaning all defaults) and set through `pullRequests` of `POST /api/repositories` and
 * `PATCH /api/repositories/:id`.
 */
export interface PullRequestSettings {
  /** A per-PR preview address, `{number}` and `{sha}` filled in (`https://pr-{number}.preview.example.com`). */
  previewUrlTemplate?: string;
  /** Runs wait for a successful `deployment_status` of the head commit and run at its `environment_url`. */
  waitForDeployment: boolean;
  /** Only deployments of this environment count (absent: any environment). */
  deploymentEnvironment?: string;
  /** Draft pull requests run too (default: they wait for `ready_for_review`). */
  runDrafts: boolean;
  /** Pull requests from forks run too (default: no, a fork's code is untrusted). */
  runForks: boolean;
  /** Checks (ids) every pull request replays, whatever it changed (src/core/check-selection.ts). */
  alwaysRun: string[];
  /**
   * Patterns of files every flow depends on: a change to one replays every check. Absent: DEFAULT_SHARED_FILES (kept
   * absent when stored, so a repository follows the default list as it improves); `[]`: no file is shared.
   */
  sharedFiles?: string[];
}

export const DEFAULT_PULL_REQUEST_SETTINGS: PullRequestSettings = Object.freeze({ waitForDeployment: false, runDrafts: false, runForks: false, alwaysRun: [] });

/** Check ids a repository may mark always-run. */
export const ALWAYS_RUN_MAX = 100;

/** The repository's shared-file patterns: its own list, or the default one. */
export function sharedFilePatterns(settings: Pick<PullRequestSettings, 'sharedFiles'>): readonly string[] {
  return settings.sharedFiles ?? DEFAULT_SHARED_FILES;
}

/** The longest URL a job's `baseUrl` holds (`jobs.base_url`), and so the longest filled template. */
export const MAX_TARGET_URL = 2048;

/** The placeholders a preview template may hold. */
const PLACEHOLDER = /\{([^{}]*)\}/g;
const KNOWN_PLACEHOLDERS = new Set(['number', 'sha']);

/** GitHub's bounds: PR numbers are positive 32-bit integers, head SHAs 40 hex characters. */
const EXTREME_PULL_REQUESTS = [
  { number: 1, headSha: '0'.repeat(40) },
  { number: 2_147_483_647, headSha: 'f'.repeat(40) },
];

/** A DNS hostname: labels of letters, digits and inner hyphens, at most 63 characters each. */
const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

export interface PullRequestRef {
  number: number;
  headSha: string;
}

/** The template with the pull request's number and head SHA in place of `{number}` and `{sha}`. */
export function fillPreviewTemplate(template: string, pullRequest: PullRequestRef): string {
  return template.replaceAll('{number}', String(pullRequest.number)).replaceAll('{sha}', pullRequest.headSha);
}

/**
 * Why an http(s) URL cannot be a run's target, or undefined when it can: an http or https URL on a DNS hostname or
 * IP literal, with no user name or password (credentials in a URL would be stored, shown and logged with it), that
 * fits a job's `baseUrl`.
 */
export function targetUrlProblem(url: string): string | undefined {
  if (url.length > MAX_TARGET_URL) return `must be at most ${MAX_TARGET_URL} characters`;
  if (!URL.canParse(url)) return 'must be an http(s) URL';
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an http(s) URL';
  if (parsed.username !== '' || parsed.password !== '') return 'may not carry a user name or password (user:pw@)';
  const host = parsed.hostname;
  if (!(host.startsWith('[') || HOSTNAME.test(host))) return 'must name a valid host name';
  return undefined;
}

/**
 * Why a preview template is refused, or undefined when it is sound: only `{number}` and `{sha}` placeholders, and
 * every pull request's filled URL (tried with the smallest and largest number and SHA) an http(s) URL on a valid
 * host with no credentials, that fits a job's `baseUrl`. So a stored template can always be filled.
 */
export function previewTemplateProblem(template: string): string | undefined {
  for (const [, name] of template.matchAll(PLACEHOLDER)) {
    if (!KNOWN_PLACEHOLDERS.has(name!)) return `may hold only the placeholders {number} and {sha}, not {${name}}`;
  }
  if (/[{}]/.test(template.replaceAll('{number}', '').replaceAll('{sha}', ''))) return 'has an unmatched { or }';
  for (const pullRequest of EXTREME_PULL_REQUESTS) {
    const problem = targetUrlProblem(fillPreviewTemplate(template, pullRequest));
    if (problem) return `${problem} once {number} and {sha} are filled in`;
  }
  return undefined;
}

/** An environment name as the code host spells it (GitHub: up to 255 characters, no control characters). */
const environmentName = z
  .string()
  .min(1)
  .max(255)
  .refine((name) => [...name].every((char) => char.charCodeAt(0) >= 0x20 && char.charCodeAt(0) !== 0x7f), 'must be an environment name');

const previewTemplate = z.string().max(MAX_TARGET_URL).superRefine((template, context) => {
  const problem = previewTemplateProblem(template);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

/** A check's id as the service makes them (a UUID); checks of other repositories or organizations never match one. */
const checkId = z.string().regex(/^[A-Za-z0-9-]{1,36}$/, 'must be a check id');

/** Repeated ids are kept once, in the order given. */
const alwaysRun = z
  .array(checkId)
  .max(ALWAYS_RUN_MAX)
  .transform((ids) => [...new Set(ids)]);

const sharedFilePattern = z.string().superRefine((pattern, context) => {
  const problem = sharedFilePatternProblem(pattern);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});
const sharedFiles = z
  .array(sharedFilePattern)
  .max(SHARED_FILES_MAX)
  .transform((patterns) => [...new Set(patterns)]);

/** The settings as a client gives them when connecting a repository; unknown fields rejected. */
export const pullRequestSettingsSchema = z.strictObject({
  previewUrlTemplate: previewTemplate.optional(),
  waitForDeployment: z.boolean().default(false),
  deploymentEnvironment: environmentName.optional(),
  runDrafts: z.boolean().default(false),
  runForks: z.boolean().default(false),
  alwaysRun: alwaysRun.default([]),
  sharedFiles: sharedFiles.optional(),
});

/** A change to stored settings (`PATCH`): fields given replace the stored ones; `null` removes an optional one. */
export const pullRequestSettingsChangeSchema = z.strictObject({
  previewUrlTemplate: previewTemplate.nullable().optional(),
  waitForDeployment: z.boolean().optional(),
  deploymentEnvironment: environmentName.nullable().optional(),
  runDrafts: z.boolean().optional(),
  runForks: z.boolean().optional(),
  alwaysRun: alwaysRun.optional(),
  /** `null`: back to the default list. */
  sharedFiles: sharedFiles.nullable().optional(),
});
export type PullRequestSettingsChange = z.infer<typeof pullRequestSettingsChangeSchema>;

/** Stored settings with a change applied. */
export function changePullRequestSettings(current: PullRequestSettings, change: PullRequestSettingsChange): PullRequestSettings {
  const next: PullRequestSettings = {
    waitForDeployment: change.waitForDeployment ?? current.waitForDeployment,
    runDrafts: change.runDrafts ?? current.runDrafts,
    runForks: change.runForks ?? current.runForks,
    alwaysRun: change.alwaysRun ?? current.alwaysRun ?? [],
  };
  const template = change.previewUrlTemplate === undefined ? current.previewUrlTemplate : (change.previewUrlTemplate ?? undefined);
  const environment = change.deploymentEnvironment === undefined ? current.deploymentEnvironment : (change.deploymentEnvironment ?? undefined);
  const shared = change.sharedFiles === undefined ? current.sharedFiles : (change.sharedFiles ?? undefined);
  if (template !== undefined) next.previewUrlTemplate = template;
  if (environment !== undefined) next.deploymentEnvironment = environment;
  if (shared !== undefined) next.sharedFiles = shared;
  return next;
}

/** The settings a repository row holds (null: never set), with the defaults filled in. */
export function pullRequestSettingsOf(stored: Partial<PullRequestSettings> | null | undefined): PullRequestSettings {
  return changePullRequestSettings(DEFAULT_PULL_REQUEST_SETTINGS, stored ?? {});
}

/**
 * Where a pull request's runs point the browser:
 * - `deployment`: the repository waits for deployments and one succeeded for the head commit (its `environment_url`);
 * - `awaiting_deployment`: the repository waits for deployments and none has succeeded yet: nothing runs now;
 * - `preview`: the repository's preview template, filled;
 * - `repository`: the repository's `baseUrl`.
 */
export type PullRequestTarget =
  | { source: 'deployment' | 'preview' | 'repository'; url: string }
  | { source: 'awaiting_deployment' };

/**
 * The browser target of a pull request's runs (the PR handlers, and the PR comment that says where runs go). Pure:
 * the caller reads the deployment URL (validated when stored) of the head commit.
 */
export function pullRequestTarget(
  settings: PullRequestSettings,
  repository: { baseUrl: string },
  pullRequest: PullRequestRef,
  deploymentUrl?: string,
): PullRequestTarget {
  if (settings.waitForDeployment) return deploymentUrl === undefined ? { source: 'awaiting_deployment' } : { source: 'deployment', url: deploymentUrl };
  if (settings.previewUrlTemplate !== undefined) return { source: 'preview', url: fillPreviewTemplate(settings.previewUrlTemplate, pullRequest) };
  return { source: 'repository', url: repository.baseUrl };
}
