import { ErrorCode, type AppError } from '../../core/errors.js';
import { quoteUntrusted } from '../../core/markdown-quote.js';

/**
 * The bot's own short replies to `/qa` comments, in GitHub-flavoured Markdown (a job's progress is the progress
 * sink's comment, not one of these). Every reply that refuses or explains carries its code, so a person can search
 * for it, and echoes what people typed only through `quoteUntrusted`.
 */

/**
 * The hidden first line of the reply to comment `commentId`: before posting, the handler looks for it among the pull
 * request's comments since the command, so a redelivered comment (a new delivery id, or a receipt retried after its
 * post) is answered once.
 */
export function replyMarker(commentId: number): string {
  return `<!-- qa-reply:${commentId} -->`;
}

const coded = (text: string, code: ErrorCode) => `${text}\n\n<sub>\`${code}\`</sub>`;

export function help(botName: string | undefined): string {
  const mention = botName ? ` (or \`@${botName}\`)` : '';
  return [
    `**What I can do on this pull request** — start a comment with \`/qa\`${mention}:`,
    '- `/qa <task>`: check something in a real browser at this pull request’s head, e.g. `/qa sign in as the demo user and check the invoices are listed`',
    '- `/qa answer` and one numbered answer per line (`1. yes`, `2) the demo user`), or `/qa answer <answer>` for a single question: answer the questions of the latest job',
    '- `/qa replay <check id or words of its task>`: replay one of this repository’s checks, no AI involved',
    '- `/qa rerun`: run again what the latest job of this pull request ran, at the current head',
    '- `/qa help`: this list',
    'The pull request’s author and collaborators with write access can ask.',
  ].join('\n');
}

export function notAllowed(): string {
  return coded(
    'Sorry, I only take `/qa` requests from this pull request’s author and from collaborators with write access to the repository. Ask one of them to comment instead.',
    ErrorCode.PrCommentNotAllowed,
  );
}

export function invalid(message: string): string {
  return coded(`${message} \`/qa help\` lists what I can do.`, ErrorCode.PrCommentInvalid);
}

export function pullRequestClosed(merged: boolean): string {
  const state = merged ? 'was merged' : 'is closed';
  return coded(`This pull request ${state}, so I start nothing on it. Reopen it to run checks here, or ask on an open pull request.`, ErrorCode.PrCommentPullRequestClosed);
}

export function nothingToAnswer(): string {
  return coded('No job of this pull request is waiting for answers, so there is nothing to answer. Start one with `/qa <task>`.', ErrorCode.PrCommentNothingToAnswer);
}

/** What is wrong with the answers, with the questions again (stored questions are the planner's, still quoted as untrusted). */
export function answerProblem(problem: string, questions: string[], fault: 'count' | 'malformed'): string {
  const numbered = questions.map((question, index) => `${index + 1}. ${quoteUntrusted(question, 300)}`).join('\n');
  const example = questions.map((_question, index) => `${index + 1}. …`).join('\n');
  return coded(
    `${problem}\n\nThe questions:\n${numbered}\n\nReply with \`/qa answer\` and one numbered answer per line:\n\`\`\`\n/qa answer\n${example}\n\`\`\``,
    fault === 'count' ? ErrorCode.ClarificationAnswerCount : ErrorCode.PrCommentAnswerInvalid,
  );
}

export interface CheckLine {
  id: string;
  task: string;
}

/** No check of the repository fits: the same words for an id nobody has and another organization's. */
export function unknownCheck(wanted: string): string {
  return coded(`No check of this repository matches ${quoteUntrusted(wanted)}. Name it by its id or by words of its task.`, ErrorCode.PrCommentCheckUnknown);
}

export function ambiguousCheck(wanted: string, candidates: CheckLine[]): string {
  const lines = candidates.map((check) => `- ${quoteUntrusted(check.task)}: \`/qa replay ${check.id}\``);
  return coded(`More than one check matches ${quoteUntrusted(wanted)}; say which by id:\n${lines.join('\n')}`, ErrorCode.PrCommentCheckAmbiguous);
}

export function checkNotReplayable(task: string): string {
  return coded(`The check ${quoteUntrusted(task)} has not passed yet, so there is nothing to replay.`, ErrorCode.PrCommentCheckNotReplayable);
}

export function nothingToRerun(): string {
  return coded('This pull request has no job yet, so there is nothing to run again. Start one with `/qa <task>` or `/qa replay <check>`.', ErrorCode.PrCommentNothingToRerun);
}

/**
 * The job core refused (a paused capability, a limit, an unknown id): its message is written for people (`user` and
 * `operational` kinds) and carries no secret; it is still bounded and made inert, as it may quote a stored name.
 */
export function refused(error: AppError): string {
  const message = error.message.replace(/[\r\n]+/g, ' ').slice(0, 500).replace(/\.$/, '');
  // A backslash keeps `<` and a backtick literal; a zero-width space after `@` keeps a name from notifying anyone.
  const inert = message.replace(/[`<>]/g, (char) => `\\${char}`).replace(/@/g, '@\u200b');
  return coded(`Sorry, I couldn’t do that: ${inert}.`, error.code);
}
