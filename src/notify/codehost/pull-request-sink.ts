/**
 * The code host's ProgressSink: a job's progress on its pull request as one PR comment, posted once and then edited,
 * and one check run on the head commit, created once and then updated until it completes. Calls go through
 * @octokit/rest as the installation, which neither retries nor waits on its own: a failure becomes a DeliveryFailed
 * and the notify-delivery queue job decides when to try again, so no webhook request and no browser run waits on
 * the code host.
 */
import type { Octokit } from '@octokit/rest';
import type { CodehostClient } from '../../codehost/codehost-client.js';
import type { CodehostChannelContext } from '../../core/channel-context.js';
import { DeliveryFailed } from '../errors.js';
import type { DeliveryTarget, ProgressSink } from '../progress-sink.js';
import type { ProgressView } from '../progress-view.js';
import { codehostDeliveryFailure } from './codehost-delivery-failure.js';
import { formatPullRequestHandle, parsePullRequestHandle, type PullRequestHandle } from './pull-request-handle.js';
import { checkRunName, checkRunOutput, checkRunState, commentMarker, pullRequestComment } from './pull-request-markdown.js';

type Target = DeliveryTarget<CodehostChannelContext>;

export interface PullRequestSinkOptions {
  /** The code host's API as the app (src/codehost): installation clients. */
  client: Pick<CodehostClient, 'forInstallation'>;
  /**
   * Why the job's installation may not post for it, or null when it may: the installation must be connected to the
   * job's organization, active, and connected to the repository (a channelContext can name any installation).
   */
  refusal(target: Target): Promise<string | null>;
  /**
   * The app's bot login (`<CODEHOST_BOT_NAME>[bot]`): recovery trusts only its comments. Unset: any bot account's
   * (a person cannot post as a bot, so a marker typed into a person's comment is never taken for ours).
   */
  botLogin?: string;
  /** The app's id: recovery lists only this app's check runs (`app_id`). */
  appId?: number;
  /**
   * The repository files the job's check covers, for annotations on a failed check. Coverage links are not built
   * yet (onboarding's own issue): until then nothing is passed and a failed check run has no annotations.
   */
  coveredFiles?(target: Target, jobId: string): Promise<readonly string[]>;
  /** One request may take this long before it counts as the code host being unavailable (retried). */
  timeoutMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/** Pages read to find a lost comment or check run (100 a page). */
const RECOVER_PAGES = 30;

interface ListedComment {
  id: number;
  body?: string;
  user: { login: string; type: string } | null;
}

export class PullRequestSink implements ProgressSink<CodehostChannelContext> {
  readonly #options: PullRequestSinkOptions;

  constructor(options: PullRequestSinkOptions) {
    this.#options = options;
  }

  async deliver(target: Target, view: ProgressView, handle: string | null): Promise<{ handle: string }> {
    const octokit = await this.#client(target);
    const { owner, repo, pullNumber, headSha } = target.context;
    let ids: PullRequestHandle = { commentId: null, checkRunId: null };
    if (handle !== null) {
      const parsed = parsePullRequestHandle(handle);
      if (!parsed) throw new DeliveryFailed(`The stored handle "${handle.slice(0, 40)}" is not a pull-request comment and check run`, { retryable: false });
      // A handle recovered with one part only: the other may have been posted too, just before the crash.
      ids = {
        commentId: parsed.commentId ?? (await this.#call('find the job comment', () => this.#findComment(octokit, target, view.jobId))),
        checkRunId: parsed.checkRunId ?? (await this.#call('find the job check run', () => this.#findCheckRun(octokit, target, view.jobId))),
      };
    }

    const body = pullRequestComment(view, target.context);
    const commentId = await this.#call(ids.commentId === null ? 'post the PR comment' : 'edit the PR comment', async () =>
      ids.commentId === null
        ? (await octokit.rest.issues.createComment({ owner, repo, issue_number: pullNumber, body })).data.id
        : (await octokit.rest.issues.updateComment({ owner, repo, comment_id: ids.commentId, body })).data.id,
    );

    const state = checkRunState(view);
    const covered = state.status === 'completed' && this.#options.coveredFiles ? await this.#options.coveredFiles(target, view.jobId) : [];
    const fields = { owner, repo, name: checkRunName(view), details_url: view.links.job, external_id: view.jobId, ...state, output: checkRunOutput(view, target.context, covered) };
    const checkRunId = await this.#call(ids.checkRunId === null ? 'create the check run' : 'update the check run', async () =>
      ids.checkRunId === null
        ? (await octokit.rest.checks.create({ ...fields, head_sha: headSha })).data.id
        : (await octokit.rest.checks.update({ ...fields, check_run_id: ids.checkRunId })).data.id,
    );
    return { handle: formatPullRequestHandle({ commentId, checkRunId }) };
  }

  async recover(target: Target, jobId: string): Promise<string | null> {
    const octokit = await this.#client(target);
    const commentId = await this.#call('find the job comment', () => this.#findComment(octokit, target, jobId));
    const checkRunId = await this.#call('find the job check run', () => this.#findCheckRun(octokit, target, jobId));
    return commentId === null && checkRunId === null ? null : formatPullRequestHandle({ commentId, checkRunId });
  }

  /** The bot's comment on the PR that starts with the job's marker (the PR's comments, oldest first). */
  async #findComment(octokit: Octokit, target: Target, jobId: string): Promise<number | null> {
    const { owner, repo, pullNumber } = target.context;
    const marker = commentMarker(jobId);
    const ours = (user: ListedComment['user']) => (this.#options.botLogin ? user?.login === this.#options.botLogin : user?.type === 'Bot');
    let pages = 0;
    for await (const page of octokit.paginate.iterator(octokit.rest.issues.listComments, { owner, repo, issue_number: pullNumber, per_page: 100 })) {
      const found = (page.data as ListedComment[]).find((comment) => ours(comment.user) && comment.body?.startsWith(marker));
      if (found) return found.id;
      if ((pages += 1) >= RECOVER_PAGES) break;
    }
    return null;
  }

  /** The app's check run on the head commit whose `external_id` is the job's. */
  async #findCheckRun(octokit: Octokit, target: Target, jobId: string): Promise<number | null> {
    const { owner, repo, headSha } = target.context;
    const appId = this.#options.appId;
    let pages = 0;
    // `filter: all`: the default (`latest`) hides an earlier run of the same name, e.g. the job before a `/qa rerun`.
    for await (const page of octokit.paginate.iterator(octokit.rest.checks.listForRef, { owner, repo, ref: headSha, filter: 'all', per_page: 100, ...(appId !== undefined ? { app_id: appId } : {}) })) {
      const found = page.data.find((run) => run.external_id === jobId);
      if (found) return found.id;
      if ((pages += 1) >= RECOVER_PAGES) break;
    }
    return null;
  }

  async #client(target: Target): Promise<Octokit> {
    const refusal = await this.#options.refusal(target);
    if (refusal !== null) throw new DeliveryFailed(`Not posting on ${target.context.owner}/${target.context.repo}#${target.context.pullNumber}: ${refusal}`, { retryable: false });
    const octokit = await this.#call(`a token for installation ${target.context.installationId}`, () => this.#options.client.forInstallation(target.context.installationId));
    // Octokit waits as long as the server does; a stalled answer would hold the delivery's queue job until its lock
    // expires. Each request (each page too) gets its own deadline; a request cut off may still have been taken, which
    // the posting_since recovery covers.
    const timeoutMs = this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    octokit.hook.before('request', (options) => {
      options.request = { ...options.request, signal: AbortSignal.timeout(timeoutMs) };
    });
    return octokit;
  }

  async #call<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw codehostDeliveryFailure(error, what);
    }
  }
}
