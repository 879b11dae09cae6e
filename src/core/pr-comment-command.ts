import type { ConversationCommand } from './conversation-command.js';
import { wellFormedText } from './storable-json.js';

/**
 * What a pull-request comment asks the service, read from its Markdown body: the commands of the one `/qa`
 * conversation (src/core/conversation-command.ts) that a pull request offers. Pure: no payload types, no I/O. The
 * words follow the chat bot's (bot/conversation/commands.ts) where the two channels do the same thing: `/qa <task>`,
 * `/qa answer` with numbered answers (or one on the same line), `/qa replay <check id or fragment of its task>` (also
 * `/qa rerun <…>`, as in chat), `/qa rerun` (what the pull request's latest job ran, again, at the current head).
 */
export type PullRequestCommand = Extract<ConversationCommand, { kind: 'help' | 'task' | 'answer' | 'replay' | 'rerun' | 'invalid' }>;

/** The longest task read from a comment (the chat bot's bound: a comment is not a specification). */
export const MAX_COMMENT_TASK_LENGTH = 4_000;
/** The API's bounds on answers (src/api/jobs.router.ts `answersBody`). */
export const MAX_ANSWER_LENGTH = 2_000;
export const MAX_ANSWERS = 20;
/** A check is named by its id or a fragment of its task; a longer "fragment" is a paste, not a name. */
export const MAX_CHECK_REFERENCE = 200;

/**
 * C0 and C1 controls other than tab and newline, and the bidirectional overrides and isolates ("Trojan Source": text
 * that reads differently from how it is stored). Carriage returns are folded into newlines before this runs.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNWANTED = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

/** A comment body as text to read: well formed (lone surrogates become U+FFFD), newlines as `\n`, no controls. */
export function cleanCommentText(body: string): string {
  return wellFormedText(body).replace(/\r\n?/g, '\n').replace(UNWANTED, '');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The text after the address when the comment speaks to the service, else null. A comment addresses it when it
 * starts (after blank space) with `/qa` or `@<botName>` (also `@<botName>[bot]`), ignoring case, followed by space,
 * a line end, `:`/`,` or nothing. A quoted command (`> /qa …`) or one in the middle of a sentence does not count.
 */
export function addressedText(cleanBody: string, botName: string | undefined): string | null {
  const names = ['/qa', ...(botName ? [`@${botName}[bot]`, `@${botName}`] : [])].map(escapeRegExp);
  const match = new RegExp(`^\\s*(?:${names.join('|')})(?:[:,]|(?=\\s)|$)`, 'i').exec(cleanBody);
  return match ? cleanBody.slice(match[0].length) : null;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Reads a comment body; null when it does not address the service (`botName`: CODEHOST_BOT_NAME, if set). */
export function parsePullRequestComment(body: string, botName: string | undefined): PullRequestCommand | null {
  const rest = addressedText(cleanCommentText(body), botName);
  if (rest === null) return null;
  const text = oneLine(rest);
  if (text === '' || /^(help|\?|-h|--help)$/i.test(text)) return { kind: 'help' };
  const first = /^\S+/.exec(text)![0];
  // `answer:` reads as `answer`.
  const word = first.toLowerCase().replace(/:$/, '');
  const after = text.slice(first.length).trim();
  switch (word) {
    case 'answer':
    case 'answers':
      return answerOf(rest);
    case 'replay':
      return replayOf(after);
    case 'rerun':
      return after === '' ? { kind: 'rerun' } : replayOf(after);
    default:
      break;
  }
  // One word is not a task (`/qa status`, `/qa checks`: words of the chat bot that mean nothing here): the help says what does.
  if (after === '') return { kind: 'help' };
  if (text.length > MAX_COMMENT_TASK_LENGTH) {
    return { kind: 'invalid', message: `That task is ${text.length} characters long; the most is ${MAX_COMMENT_TASK_LENGTH}.` };
  }
  return { kind: 'task', task: text };
}

function replayOf(check: string): PullRequestCommand {
  if (check === '') return { kind: 'invalid', message: 'Say which check: `/qa replay <check id or words of its task>`.' };
  if (check.length > MAX_CHECK_REFERENCE) {
    return { kind: 'invalid', message: `A check is named by its id or a few words of its task (at most ${MAX_CHECK_REFERENCE} characters); this is ${check.length}.` };
  }
  return { kind: 'replay', check };
}

/** The lines after `answer`: the rest of its own line (a single answer, or the first numbered one), then each line below. */
function answerOf(rest: string): PullRequestCommand {
  const [first = '', ...below] = rest.split('\n');
  const lines = [first.replace(/^\s*answers?\b\s*:?/i, ''), ...below].map(oneLine).filter((line) => line !== '');
  if (lines.length === 0) {
    return { kind: 'invalid', message: 'Give the answers after `/qa answer`: one per line, numbered like the questions (`1. yes`), or a single answer on the same line.' };
  }
  if (lines.length > MAX_ANSWERS) return { kind: 'invalid', message: `That is ${lines.length} answer lines; a job asks at most ${MAX_ANSWERS} questions.` };
  const long = lines.find((line) => line.length > MAX_ANSWER_LENGTH);
  if (long) return { kind: 'invalid', message: `An answer is ${long.length} characters long; the most is ${MAX_ANSWER_LENGTH}.` };
  return { kind: 'answer', lines };
}
