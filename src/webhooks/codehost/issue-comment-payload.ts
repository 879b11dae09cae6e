import { z } from 'zod';
import { webhookPayloadInvalid } from '../../core/webhook-receipt.js';

/**
 * The parts of an `issue_comment` delivery the `/qa` handler reads (GitHub's shape:
 * https://docs.github.com/en/webhooks/webhook-events-and-payloads#issue_comment). Only what is read is checked, so a
 * field GitHub adds or drops elsewhere changes nothing.
 */
// Read loosely: a login this service cannot put in a job's context (an enterprise-managed `name_short`) is refused later, in a reply.
const login = z.string().min(1).max(100);
const issueCommentPayload = z.object({
  action: z.string(),
  comment: z.object({
    id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    // GitHub sends an empty string for an empty comment; null is read the same way.
    body: z.string().nullable().optional(),
    created_at: z.iso.datetime({ offset: true }),
    user: z.object({ login, type: z.string() }),
  }),
  issue: z.object({
    number: z.number().int().positive().max(2_147_483_647),
    // Present (an object of links) exactly when the issue is a pull request.
    pull_request: z.object({}).loose().nullable().optional(),
    user: z.object({ login }),
  }),
  repository: z.object({
    name: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/),
    owner: z.object({ login }),
  }),
  installation: z.object({ id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) }).optional(),
});

/** A comment as the handler sees it. */
export interface IssueComment {
  action: string;
  commentId: number;
  body: string;
  createdAt: Date;
  /** The commenter. */
  login: string;
  /** `User`, `Bot` or `Organization`, as the code host says. */
  userType: string;
  /** The pull request's number; null for a comment on a plain issue. */
  pullNumber: number | null;
  pullAuthor: string;
  owner: string;
  repo: string;
  /** Null for a delivery that names no installation (a repository webhook, not the app's). */
  installationId: number | null;
}

/** The comment a delivery reports; a payload of another shape is `webhook.payload_invalid` (the receipt fails). */
export function readIssueComment(payload: unknown): IssueComment {
  const parsed = issueCommentPayload.safeParse(payload);
  if (!parsed.success) throw webhookPayloadInvalid('issue_comment', parsed.error);
  const { action, comment, issue, repository, installation } = parsed.data;
  return {
    action,
    commentId: comment.id,
    body: comment.body ?? '',
    createdAt: new Date(comment.created_at),
    login: comment.user.login,
    userType: comment.user.type,
    pullNumber: issue.pull_request ? issue.number : null,
    pullAuthor: issue.user.login,
    owner: repository.owner.login,
    repo: repository.name,
    installationId: installation?.id ?? null,
  };
}

/** A comment that may be a request: new, on a pull request, by a person, through an installation. */
export type PullRequestComment = IssueComment & { pullNumber: number; installationId: number };

/**
 * The comment as a possible request, or why it is left alone before anything is looked up: only new comments (an
 * edit or a deletion asks nothing new), only on pull requests, never from a bot (ours included: its replies quote
 * commands), only through an installation.
 */
export function triageComment(comment: IssueComment, botName: string | undefined): { request: PullRequestComment } | { ignored: string } {
  const { pullNumber, installationId } = comment;
  if (comment.action !== 'created') return { ignored: `the comment was ${comment.action}, not created` };
  if (pullNumber === null) return { ignored: 'a comment on an issue, not a pull request' };
  if (comment.userType === 'Bot' || (botName !== undefined && comment.login.toLowerCase() === `${botName.toLowerCase()}[bot]`)) return { ignored: 'a comment by a bot' };
  if (installationId === null) return { ignored: 'a delivery that names no installation' };
  return { request: { ...comment, pullNumber, installationId } };
}
