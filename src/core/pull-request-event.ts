import { z } from 'zod';
import { webhookPayloadInvalid } from './webhook-receipt.js';
import { targetUrlProblem, type PullRequestSettings } from './pull-request-settings.js';

/** The `pull_request` actions that run a repository's checks at the head commit. */
export const RUN_ACTIONS: ReadonlySet<string> = new Set(['opened', 'reopened', 'synchronize', 'ready_for_review']);
/** The actions whose head is recorded: those that run, and `closed` (a deployment of a closed one runs nothing). */
const RECORDED_ACTIONS: ReadonlySet<string> = new Set([...RUN_ACTIONS, 'closed']);

const sha = z.string().regex(/^[0-9a-fA-F]{40}$/).transform((value) => value.toLowerCase());
const name = z.string().regex(/^[A-Za-z0-9._-]{1,100}$/);
const timestamp = z.iso.datetime({ offset: true }).transform((value) => new Date(value));
const installation = z.object({ id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const repository = z.object({ name, owner: z.object({ login: name }) });

/** What the service reads of a `pull_request` delivery (GitHub's payload); the rest is ignored. */
const pullRequestEvent = z.object({
  action: z.string(),
  installation,
  repository,
  pull_request: z.object({
    number: z.number().int().positive().max(2_147_483_647),
    draft: z.boolean().optional(),
    updated_at: timestamp,
    head: z.object({ sha, repo: z.object({ full_name: z.string().min(3).max(200) }).nullable() }),
    base: z.object({ repo: z.object({ full_name: z.string().min(3).max(200) }) }),
  }),
});

/** What the service reads of a `deployment_status` delivery. */
const deploymentStatusEvent = z.object({
  action: z.string(),
  installation,
  repository,
  deployment: z.object({ sha, environment: z.string().min(1).max(255) }),
  deployment_status: z.object({
    state: z.string(),
    environment_url: z.string().nullish(),
    target_url: z.string().nullish(),
    environment: z.string().min(1).max(255).optional(),
    created_at: timestamp,
    updated_at: timestamp.optional(),
  }),
});

/** A `pull_request` event that may run checks. */
export interface PullRequestEvent {
  action: string;
  installationId: number;
  owner: string;
  repo: string;
  number: number;
  headSha: string;
  /** `pull_request.updated_at`: orders a pull request's events. */
  updatedAt: Date;
  draft: boolean;
  /** The head is in another repository than the base, or its repository was deleted (`head.repo` null). */
  fork: boolean;
}

/** A successful deployment announced by `deployment_status`. */
export interface DeploymentEvent {
  installationId: number;
  owner: string;
  repo: string;
  sha: string;
  environment: string;
  /** Whether `url` is usable: undefined when it is, else why not. */
  urlProblem: string | undefined;
  url: string;
  reportedAt: Date;
}


function actionOf(event: string, payload: unknown): string {
  const parsed = z.object({ action: z.string() }).safeParse(payload);
  if (!parsed.success) throw webhookPayloadInvalid(event, parsed.error);
  return parsed.data.action;
}

/**
 * The pull request a `pull_request` delivery reports, for an action that runs its checks (`RUN_ACTIONS`) or closes
 * it (`closed`); undefined for any other (`labeled`, `edited`, …). A payload of the wrong shape is a coded error
 * (`webhook.payload_invalid`).
 */
export function pullRequestEventOf(payload: unknown): PullRequestEvent | undefined {
  if (!RECORDED_ACTIONS.has(actionOf('pull_request', payload))) return undefined;
  const parsed = pullRequestEvent.safeParse(payload);
  if (!parsed.success) throw webhookPayloadInvalid('pull_request', parsed.error);
  const { action, installation: { id }, repository: { owner, name: repo }, pull_request: pr } = parsed.data;
  return {
    action,
    installationId: id,
    owner: owner.login,
    repo,
    number: pr.number,
    headSha: pr.head.sha,
    updatedAt: pr.updated_at,
    draft: pr.draft ?? false,
    fork: pr.head.repo === null || pr.head.repo.full_name.toLowerCase() !== pr.base.repo.full_name.toLowerCase(),
  };
}

/**
 * The successful deployment a `deployment_status` delivery announces, or undefined for any other state (`pending`,
 * `failure`, …). Its address is `environment_url`, else `target_url` (GitHub's older field); `urlProblem` says why
 * it cannot be a run's target (not http(s), credentials in it, none given). A payload of the wrong shape is a coded
 * error (`webhook.payload_invalid`).
 */
export function deploymentEventOf(payload: unknown): DeploymentEvent | undefined {
  actionOf('deployment_status', payload);
  const parsed = deploymentStatusEvent.safeParse(payload);
  if (!parsed.success) throw webhookPayloadInvalid('deployment_status', parsed.error);
  const { installation: { id }, repository: { owner, name: repo }, deployment, deployment_status: status } = parsed.data;
  if (status.state !== 'success') return undefined;
  const url = status.environment_url || status.target_url || '';
  return {
    installationId: id,
    owner: owner.login,
    repo,
    sha: deployment.sha,
    environment: status.environment ?? deployment.environment,
    url,
    urlProblem: url === '' ? 'no environment_url or target_url' : targetUrlProblem(url),
    reportedAt: status.updated_at ?? status.created_at,
  };
}

/** Why a pull request's head does not run under the repository's settings, or undefined when it runs. */
export function pullRequestSkipReason(settings: PullRequestSettings, head: { draft: boolean; fork: boolean }): 'draft' | 'fork' | undefined {
  if (head.fork && !settings.runForks) return 'fork';
  if (head.draft && !settings.runDrafts) return 'draft';
  return undefined;
}

/** Whether a deployment to `environment` counts for the repository (`deploymentEnvironment`, compared without case). */
export function deploymentCounts(settings: PullRequestSettings, environment: string): boolean {
  return settings.deploymentEnvironment === undefined || settings.deploymentEnvironment.toLowerCase() === environment.toLowerCase();
}

/**
 * The source key of the run of one check at one head of one pull request: a duplicated, redelivered or reopened
 * event for the same head, or a deployment and a pull request event racing, never start a second run. At most
 * 4 + 36 + 10 + 40 + 36 + 4 = 130 characters (`jobs.source_key` holds 200).
 */
export function pullRequestRunKey(run: { repositoryId: string; number: number; headSha: string; checkId: string }): string {
  return `${pullRequestRunKeyPrefix(run, run.headSha)}${run.checkId}`;
}

/**
 * What the source keys of a pull request's runs start with (`pullRequestRunKey`): of all its runs, or with `headSha`
 * of those at that head.
 */
export function pullRequestRunKeyPrefix(pull: { repositoryId: string; number: number }, headSha?: string): string {
  return `pr:${pull.repositoryId}:${pull.number}:${headSha === undefined ? '' : `${headSha}:`}`;
}
