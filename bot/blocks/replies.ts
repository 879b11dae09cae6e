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

/**
 * No job with that id in the caller's organization. The same words for an id nobody has and for another
 * organization's job, so a reply never tells whether an id exists elsewhere.
 */
export function unknownJob(jobId: string): MessageContent {
  return plain(`I can’t find job \`${escapeMrkdwn(jobId)}\`. Check the id: each job’s progress message shows it.`);
}

/** A job that has already finished (or was cancelled) cannot be cancelled again. */
export function notCancellable(jobId: string, status: string): MessageContent {
  return plain(`Job \`${escapeMrkdwn(jobId)}\` is already *${escapeMrkdwn(status)}*, so there is nothing to cancel; only a queued, running or waiting job can be.`);
}

/** Words where a job id was expected. */
export function notAJobId(text: string): MessageContent {
  return plain(`\`${escapeMrkdwn(text)}\` is not a job id (ids look like \`6f1c2a9e-…\`).`);
}

/** `use owner/name` of a repository the organization has not connected (another organization's looks the same). */
export function unknownRepository(repository: string): MessageContent {
  const name = escapeMrkdwn(repository);
  return plain(`I don’t know the repository *${name}* in this organization. Connect it first (\`qa repos connect\`), then bind it with \`@qa use ${name}\`.`);
}

/** No check of the organization fits the words or id given. */
export function unknownCheck(wanted: string): MessageContent {
  return plain(`No check matches “${escapeMrkdwn(wanted)}”. \`@qa checks\` lists them.`);
}

/** A check that never passed has no compiled steps to replay. */
export function checkNotReplayable(task: string): MessageContent {
  return plain(`The check “${escapeMrkdwn(task)}” has not passed yet, so there is nothing to replay.`);
}

/** The job core refused (a paused capability, a limit): its message is safe to show (`user` and `operational` kinds). */
export function refused(message: string): MessageContent {
  return plain(`Sorry, I couldn’t do that: ${escapeMrkdwn(message.replace(/\.$/, ''))}.`);
}
