import { pullRequestKey, type CodehostChannelContext } from '../../core/channel-context.js';
import { AppError, ErrorCode } from '../../core/errors.js';
import { parsePullRequestComment, type PullRequestCommand } from '../../core/pr-comment-command.js';
import { codehostPrincipal, type Principal } from '../../core/principal.js';
import { createConversation, type ConversationDeps, type ConversationPlace, type JobTarget, type Outcome } from '../../jobs/conversation/conversation.js';
import type { JobService } from '../../jobs/job-service.js';
import type { NotificationOutbox } from '../../jobs/notification-outbox.js';
import type { CodehostEventHandler, CodehostHandlerContext } from './codehost-handler.js';
import { targetFor, type DeploymentLookup, type TargetRepository } from './comment-target.js';
import { readIssueComment, triageComment, type PullRequestComment } from './issue-comment-payload.js';
import * as replies from './issue-comment-replies.js';

/** The repository an event names, as src/repos/codehost-repositories.ts `findCodehostRepository` answers. */
export type CommentRepositoryLookup = (coordinates: { installationId: number; owner: string; name: string }) => Promise<
  | { kind: 'connected'; organizationId: string; repository: TargetRepository }
  | { kind: 'installation_inactive'; status: string }
  | { kind: 'not_connected'; reason: string }
>;

export interface PullRequestRef {
  owner: string;
  repo: string;
  pullNumber: number;
}

/** A pull request as the code host has it now. */
export interface PullRequestNow {
  headSha: string;
  /** False once it was closed, merged or not. */
  open: boolean;
  merged: boolean;
}

/**
 * The code-host calls a `/qa` conversation makes, as the installation (src/codehost/pull-request-conversation.ts).
 * Each throws a coded `codehost.*` error on failure; a 429 or 5xx thrown from here fails the receipt, which is retried
 * with back-off.
 */
export interface PullRequestConversation {
  /** The pull request's head commit and state; null when the code host no longer has the pull request (404). */
  pull(installationId: number, ref: PullRequestRef): Promise<PullRequestNow | null>;
  /** The user's permission on the repository: GitHub's legacy `permission` and its finer `role_name`. */
  permission(installationId: number, ref: PullRequestRef, login: string): Promise<{ permission: string; roleName: string | null }>;
  /** Whether a comment on the pull request, updated at or after `since`, contains `marker`. */
  hasComment(installationId: number, ref: PullRequestRef, marker: string, since: Date): Promise<boolean>;
  comment(installationId: number, ref: PullRequestRef, body: string): Promise<void>;
}

export interface IssueCommentDeps {
  /** CODEHOST_BOT_NAME: `@<botName> <task>` addresses the service, and `<botName>[bot]`'s comments are its own. */
  botName: string | undefined;
  findRepository: CommentRepositoryLookup;
  pullRequests: PullRequestConversation;
  threads: Pick<NotificationOutbox, 'inThread'>;
  jobs: ConversationDeps['jobs'] & Pick<JobService, 'madeFor'>;
  checks: ConversationDeps['checks'];
  /** Preview deployments the code host reported (`deployment_status`), for repositories that run against them. */
  deployments: DeploymentLookup;
}

/** The source key of what a comment starts: a redelivered comment (any delivery id) finds the job it made. */
export function commentJobKey(commentId: number): string {
  return `codehost-comment:${commentId}`;
}

/** Roles that may start runs from a comment; GitHub's legacy `permission` folds maintain into write. */
const WRITE_ROLES: ReadonlySet<string> = new Set(['admin', 'maintain', 'write']);

export function hasWriteAccess(access: { permission: string; roleName: string | null }): boolean {
  return WRITE_ROLES.has(access.permission) || (access.roleName !== null && WRITE_ROLES.has(access.roleName));
}

/** One `/qa` comment being handled: who asked, where, and as whom the service acts. */
interface Request {
  comment: PullRequestComment;
  ref: PullRequestRef;
  principal: Principal;
  repository: TargetRepository;
  deps: IssueCommentDeps;
  logger: CodehostHandlerContext['logger'];
}

/**
 * `issue_comment`, the pull request's adapter of the `/qa` conversation (src/jobs/conversation/): a `/qa` (or `@<bot>`)
 * comment on a pull request starts, answers, replays or reruns a job, as the pull request's author or a collaborator
 * with write access. The job's progress (its questions included) is the
 * progress sink's comment and check run; this handler posts only its own short replies (help, refusals, what is
 * wrong with a command), each once per comment. Steps: read the comment, skip what is not a request, find the
 * connected repository, skip a comment whose job exists (a redelivery), check who asked, do the command, reply.
 */
export function issueCommentHandler(deps: IssueCommentDeps): CodehostEventHandler {
  return async (receipt, context) => {
    const comment = readIssueComment(receipt.payload);
    const logger = context.logger;
    const about = { commentId: comment.commentId, pullNumber: comment.pullNumber, repository: `${comment.owner}/${comment.repo}` };
    const triaged = triageComment(comment, deps.botName);
    if ('ignored' in triaged) {
      logger.info({ ...about, reason: triaged.ignored }, 'issue comment that asks nothing of the service; completed without effect');
      return;
    }
    const { request } = triaged;
    const command = parsePullRequestComment(request.body, deps.botName);
    if (!command) {
      logger.info(about, 'pull-request comment not addressed to the service; completed without effect');
      return;
    }
    const found = await deps.findRepository({ installationId: request.installationId, owner: comment.owner, name: comment.repo });
    if (found.kind !== 'connected') {
      // Nothing can be said on the pull request: an inactive installation's tokens no longer work, and an unconnected
      // one belongs to no organization yet.
      logger.warn({ ...about, command: command.kind, lookup: found }, '/qa comment on a repository that is not connected (or an inactive installation); completed without effect');
      return;
    }
    const principal = codehostPrincipal(found.organizationId, request.installationId, request.login);
    // A job made for this comment before (a redelivery, a retried receipt) is its answer: its progress is on the pull request.
    if (await deps.jobs.madeFor(principal, commentJobKey(request.commentId))) {
      logger.info({ ...about, command: command.kind }, '/qa comment handled before (its job exists); completed without effect');
      return;
    }
    const ref: PullRequestRef = { owner: request.owner, repo: request.repo, pullNumber: request.pullNumber };
    const handling: Request = { comment: request, ref, principal, repository: found.repository, deps, logger };
    const reply = await decide(command, handling);
    logger.info({ ...about, command: command.kind, replied: reply !== null }, '/qa comment handled');
    if (reply !== null) await postReply(handling, reply);
  };
}

/** The reply to a command, or null when the job it started (or answered) speaks for itself. */
async function decide(command: PullRequestCommand, request: Request): Promise<string | null> {
  if (!(await mayRequest(request))) return replies.notAllowed();
  const outcome = await createConversation(request.deps).run(command, pullRequestPlace(request));
  return sayOutcome(outcome, request);
}

/**
 * The pull request's author may ask (a fork's author too: runs target the repository's configured address, not the
 * fork's code), and so may collaborators with write, maintain or admin permission, as the code host says now.
 */
async function mayRequest({ comment, ref, deps }: Request): Promise<boolean> {
  if (comment.login.toLowerCase() === comment.pullAuthor.toLowerCase()) return true;
  return hasWriteAccess(await deps.pullRequests.permission(comment.installationId, ref, comment.login));
}

/** What a pull request says in its own words when it refuses: a reply, or null for nothing to say. */
type Said = string | null;

/** The pull request as a place of the `/qa` conversation (src/jobs/conversation/): its repository, jobs and head. */
function pullRequestPlace(request: Request): ConversationPlace<Said> {
  const { comment, ref, deps, repository, principal } = request;
  let now: Promise<{ pull: PullRequestNow } | { reply: Said }> | undefined;
  const open = () => (now ??= openPull(request));
  return {
    principal,
    sourceKey: commentJobKey(comment.commentId),
    checkRepository: async () => repository.id,
    // An id of another repository's check is unknown here, in the same words as an id nobody has.
    idsWithinRepository: true,
    async jobs() {
      const jobs = await deps.threads.inThread(pullRequestKey(ref));
      return jobs.filter((job) => job.organizationId === principal.organizationId);
    },
    async closed() {
      const state = await open();
      return 'reply' in state ? { said: state.reply } : null;
    },
    async jobTarget(): Promise<JobTarget | { said: Said }> {
      // issue_comment payloads carry no head commit: the pull request says what it is now. A task's own address is
      // not taken here: a pull request's runs go where its repository's pull requests run.
      const state = await open();
      if ('reply' in state) return { said: state.reply };
      const { pull } = state;
      const target = await targetFor(repository, { number: ref.pullNumber, headSha: pull.headSha }, deps.deployments);
      const channelContext: CodehostChannelContext = {
        channel: 'codehost',
        provider: 'codehost',
        installationId: comment.installationId,
        owner: ref.owner,
        repo: ref.repo,
        pullNumber: ref.pullNumber,
        headSha: pull.headSha.toLowerCase(),
        requestedBy: comment.login,
      };
      return { repositoryId: repository.id, baseUrl: target.baseUrl, networkAllowlist: target.networkAllowlist, commitSha: channelContext.headSha, trigger: 'codehost', channelContext };
    },
  };
}

/**
 * The pull request as it is now, when a run may start on it; else the reply (`{ reply: null }`: nothing to say). A
 * closed pull request starts nothing: its code is merged or abandoned, and its preview deployment is often gone. The
 * comment's payload cannot say so (the issue's state may lag behind a close), so the code host is asked.
 */
async function openPull({ comment, ref, deps, logger }: Request): Promise<{ pull: PullRequestNow } | { reply: Said }> {
  const pull = await deps.pullRequests.pull(comment.installationId, ref);
  if (!pull) {
    logger.warn({ commentId: comment.commentId, pullNumber: ref.pullNumber }, 'the code host no longer has this pull request; nothing started');
    return { reply: null };
  }
  if (!pull.open) {
    logger.info({ commentId: comment.commentId, pullNumber: ref.pullNumber, merged: pull.merged }, 'a run asked for on a closed pull request; nothing started');
    return { reply: replies.pullRequestClosed(pull.merged) };
  }
  return { pull };
}

/** The outcome in the pull request's words (GitHub Markdown, coded); null where the job (or nobody) speaks. */
function sayOutcome(outcome: Outcome<Said>, request: Request): string | null {
  switch (outcome.kind) {
    case 'done':
      return null;
    case 'said':
      return outcome.said;
    case 'help':
      return replies.help(request.deps.botName);
    case 'invalid':
      return replies.invalid(outcome.message);
    case 'check_unknown':
      return replies.unknownCheck(outcome.wanted);
    case 'check_ambiguous':
      return replies.ambiguousCheck(outcome.wanted, outcome.candidates);
    case 'check_not_replayable':
      return replies.checkNotReplayable(outcome.task);
    case 'nothing_to_rerun':
      return replies.nothingToRerun();
    case 'nothing_to_answer':
      return replies.nothingToAnswer();
    case 'answer_problem':
      return replies.answerProblem(outcome.problem, outcome.questions, outcome.fault);
    case 'refused':
      return refusal(outcome.error);
    default:
      // The outcomes of commands a pull request's words do not offer (src/core/pr-comment-command.ts).
      throw new AppError({ kind: 'unexpected', code: ErrorCode.InternalUnexpected, status: 500, message: `a pull-request comment came to ${outcome.kind}, which its commands cannot` });
  }
}

/**
 * A refusal of the job core as the reply: a `user` error (an unknown check, a context it cannot deliver to) and a
 * paused capability (503). A planner that failed left an errored job, which reports itself on the pull request. Anything
 * else (the store, the queue) is thrown, so the receipt is retried.
 */
function refusal(error: AppError): string | null {
  if (error.code === ErrorCode.PlannerFailed) return null;
  if (error.kind === 'user' || error.code === ErrorCode.ExecutionPaused) return replies.refused(error);
  throw error;
}

/**
 * Posts the reply once: a comment that carries this command's marker, posted since the command was written, means an
 * earlier delivery of the same comment (a redelivery under a new id, or a receipt retried after its post) answered
 * it. Two deliveries handled at the very same moment can still both post; the code host's comments have no key to
 * make that impossible.
 */
async function postReply({ comment, ref, deps, logger }: Request, text: string): Promise<void> {
  const marker = replies.replyMarker(comment.commentId);
  if (await deps.pullRequests.hasComment(comment.installationId, ref, marker, comment.createdAt)) {
    logger.info({ commentId: comment.commentId }, 'this /qa comment was answered before; not answered twice');
    return;
  }
  await deps.pullRequests.comment(comment.installationId, ref, `${marker}\n${text}`);
}
