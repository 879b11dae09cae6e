import type { ConversationCommand } from '../../src/core/conversation-command.js';

/**
 * What a person asked the bot, read from the text of a mention or a `/qa` slash command. Pure: no Slack types, no
 * I/O. The words are the same in both places (`@qa status <id>` and `/qa status <id>`). All but `use` (binding the
 * channel) are commands of the one `/qa` conversation (src/jobs/conversation/); answers come as thread replies.
 */
export type ChatCommand =
  | Extract<ConversationCommand, { kind: 'help' | 'checks' | 'status' | 'cancel' | 'replay' | 'dispute' | 'invalid' }>
  | { kind: 'task'; task: string; baseUrl: string | null }
  | { kind: 'use'; repository: string; baseUrl: string | null };

/** Slack's markup for mentions and links: `<@U123>`, `<@U123|name>`, `<https://x|x>`, `<mailto:a@b|a@b>`. */
const MENTION = /<@[A-Z0-9]+(?:\|[^>]*)?>/g;
const LINK = /<((?:https?|mailto):[^|>]+)(?:\|[^>]*)?>/g;

/**
 * The text a person typed, without the bot's mention and with Slack's link markup turned back into what they typed
 * (Slack wraps URLs and e-mail addresses it recognises; a task must see `demo@acme.test`, not `<mailto:…>`).
 */
export function plainText(text: string): string {
  return text
    .replace(MENTION, ' ')
    .replace(LINK, (_all, target: string) => (target.startsWith('mailto:') ? target.slice('mailto:'.length) : target))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

const URL_PATTERN = /^https?:\/\/[^\s]+$/i;
const REPOSITORY_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,99})\/[A-Za-z0-9._-]{1,100}$/;

/** An address a job may run against, or what is wrong with the text given as one. */
type Address = { url: string } | { problem: string };

/**
 * An http(s) address without credentials. A `user:pass@` address is refused: the base URL is shown in the job, its
 * events, links and the thread, so a password in it would be published; sign-in secrets belong in the
 * repository's test values. The refusal shows only the address's scheme and host.
 */
function httpAddress(text: string): Address {
  const notHttp = { problem: `\`${text}\` is not an http(s) address.` };
  if (!URL_PATTERN.test(text)) return notHttp;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return notHttp;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return notHttp;
  if (url.username !== '' || url.password !== '') {
    const masked = `${url.protocol}//***@${url.host}`;
    return {
      problem: `\`${masked}\` carries a user name or password, and I don’t take credentials in chat: the address shows in the job and in this thread. Give it without them; sign-in secrets belong in the repository’s test values.`,
    };
  }
  return { url: text };
}

/** The longest task text accepted from chat (the API's bound on naturalLanguageTask is larger; a message is not). */
export const MAX_TASK_LENGTH = 4_000;

/** Reads a command from the text of a mention or slash command (the bot's own mention may still be in it). */
export function parseCommand(raw: string): ChatCommand {
  const text = plainText(raw);
  if (text === '' || /^(help|\?)$/i.test(text)) return { kind: 'help' };
  const [word = '', ...restWords] = text.split(' ');
  const rest = restWords.join(' ').trim();
  switch (word.toLowerCase()) {
    case 'checks':
    case 'tests':
      return rest === '' ? { kind: 'checks' } : { kind: 'task', task: text, baseUrl: null };
    case 'status':
    case 'cancel':
      if (rest === '') return { kind: 'invalid', message: `Say which job: \`${word.toLowerCase()} <job id>\`.` };
      if (rest.includes(' ')) return { kind: 'task', task: text, baseUrl: null };
      return { kind: word.toLowerCase() as 'status' | 'cancel', jobId: rest };
    case 'replay':
    case 'rerun':
      if (rest === '') return { kind: 'invalid', message: 'Say which check: `replay <check name or id>` (`checks` lists them).' };
      return { kind: 'replay', check: rest };
    case 'use':
      return parseUse(rest);
    default:
      break;
  }
  const dispute = /^not a bug\s*[:,-]?\s*(.*)$/i.exec(text);
  if (dispute) {
    const reason = dispute[1]!.trim();
    return reason === '' ? { kind: 'invalid', message: 'Say why it is not a bug: `not a bug: <reason>`.' } : { kind: 'dispute', reason };
  }
  const inline = /^on\s+(\S+?)\s*:\s+(.+)$/i.exec(text);
  if (inline) {
    const address = httpAddress(inline[1]!);
    if ('problem' in address) return { kind: 'invalid', message: `${address.problem} Try \`on https://staging.example.com: <task>\`.` };
    return task(inline[2]!.trim(), address.url);
  }
  return task(text, null);
}

function task(text: string, baseUrl: string | null): ChatCommand {
  if (text.length > MAX_TASK_LENGTH) return { kind: 'invalid', message: `That task is ${text.length} characters long; the most is ${MAX_TASK_LENGTH}.` };
  return { kind: 'task', task: text, baseUrl };
}

function parseUse(rest: string): ChatCommand {
  const usage = 'Say which repository, and optionally where it runs: `use <owner>/<name> [at <url>]`.';
  const match = /^(\S+)(?:\s+at\s+(\S+))?$/i.exec(rest);
  if (!match || !REPOSITORY_PATTERN.test(match[1]!)) return { kind: 'invalid', message: usage };
  if (match[2] === undefined) return { kind: 'use', repository: match[1]!, baseUrl: null };
  const address = httpAddress(match[2]);
  if ('problem' in address) return { kind: 'invalid', message: `${address.problem} ${usage}` };
  return { kind: 'use', repository: match[1]!, baseUrl: address.url };
}

/**
 * The lines of a thread reply as a person typed them: no mentions, Slack's markup undone, one line each. Numbered
 * answers are then read from them by the rule shared with `/qa answer` on pull requests
 * (src/core/clarification-answers.ts).
 */
export function answerLines(raw: string): string[] {
  return raw
    .replace(MENTION, ' ')
    .split(/\r?\n/)
    .map((line) => plainText(line));
}
