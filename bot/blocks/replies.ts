/**
 * Block Kit for the bot's short answers (help, lists, refusals). The progress message of a job is built in
 * `progress.ts`. Every message has a plain `text` too: it is what notifications and screen readers show.
 */
export interface MessageContent {
  text: string;
  blocks?: Record<string, unknown>[];
}

import { escapeMrkdwn } from './mrkdwn.js';

export { escapeMrkdwn };

function section(text: string): Record<string, unknown> {
  return { type: 'section', text: { type: 'mrkdwn', text } };
}

export function plain(text: string): MessageContent {
  return { text, blocks: [section(text)] };
}

export const HELP_TEXT = [
  '*What I can do*',
  '• `@qa <task>`: check something in a real browser, e.g. `@qa sign in as the demo user and check the invoices are listed`',
  '• `@qa on https://staging.example.com: <task>`: the same, against that address',
  '• `@qa use <owner>/<name> [at <url>]`: the repository (and address) this channel checks by default',
  '• `@qa replay <check name or id>`: replay a compiled check, no AI involved',
  '• `@qa checks`: the checks of this channel’s repository',
  '• `@qa status <job id>`, `@qa cancel <job id>`',
  '• `@qa not a bug: <reason>` in a job’s thread: dispute its findings (the next replay does not fail for the same reason)',
  'When I ask questions, reply in the thread: one answer per line, or numbered (`1. yes`). `/qa` takes the same words.',
].join('\n');

export function help(): MessageContent {
  return { text: 'What I can do: @qa <task>, on <url>: <task>, use <owner>/<name>, replay <check>, checks, status <id>, cancel <id>, not a bug: <reason>', blocks: [section(HELP_TEXT)] };
}

export function notConnected(teamId: string): MessageContent {
  return plain(
    `This Slack workspace is not connected to a QA organization yet, so I can’t run anything here. An administrator of the service can connect it with \`qa chat connect --team ${teamId} --org <organization slug>\`.`,
  );
}

export function outsider(): MessageContent {
  return plain('Sorry, only members of the workspace this channel belongs to can ask me to run or answer things here.');
}

export function needsTarget(): MessageContent {
  return plain('Which app should I check? Bind this channel with `@qa use <owner>/<name> [at <url>]`, or say where: `@qa on https://staging.example.com: <task>`.');
}

export function bound(repository: string, baseUrl: string): MessageContent {
  return plain(`This channel now checks *${escapeMrkdwn(repository)}* at ${escapeMrkdwn(baseUrl)}.`);
}

export interface CheckLine {
  id: string;
  task: string;
  status: string;
  version: number;
}

export function checkList(checks: CheckLine[]): MessageContent {
  if (checks.length === 0) return plain('No checks yet. A task that passes becomes one: `@qa <task>`.');
  const lines = checks.map((check) => `• ${escapeMrkdwn(check.task)} (${check.status}, v${check.version}) \`${check.id}\``);
  return { text: `${checks.length} check(s)`, blocks: [section(`*Checks*\n${lines.join('\n')}`), section('Replay one with `@qa replay <name or id>`.')] };
}

export function ambiguousCheck(wanted: string, candidates: CheckLine[]): MessageContent {
  const lines = candidates.map((check) => `• ${escapeMrkdwn(check.task)} \`${check.id}\``);
  return plain(`More than one check matches “${escapeMrkdwn(wanted)}”; say which by id:\n${lines.join('\n')}`);
}

export function jobStatus(job: { id: string; status: string; task: string | null; findings: number; link: string }): MessageContent {
  const what = job.task ? ` “${escapeMrkdwn(job.task)}”` : '';
  return plain(`Job \`${job.id}\`${what} is *${job.status}*${job.findings > 0 ? `, with ${job.findings} finding(s)` : ''}. <${job.link}|Details>`);
}

export function answerProblem(problem: string, questions: string[]): MessageContent {
  const numbered = questions.map((question, index) => `${index + 1}. ${escapeMrkdwn(question)}`).join('\n');
  return plain(`${problem}\nThe questions:\n${numbered}`);
}
