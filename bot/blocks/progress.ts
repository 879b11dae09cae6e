/**
 * Block Kit for a job's progress message: one message per job in its thread, edited as the job moves. Built from
 * the channel-neutral ProgressView (src/notify), so the message says what `GET /api/jobs/:id` says. Every message
 * has a `text` too: it is what notifications, screen readers and clients without blocks show.
 * Limits: https://api.slack.com/reference/block-kit/blocks (section text 3000 characters, 50 blocks).
 */
import type { FindingLine, ProgressView } from '../../src/notify/progress-view.js';
import { ANSWER_NO, ANSWER_YES } from './actions.js';
import { escapeMrkdwn } from './mrkdwn.js';

export interface ProgressMessage {
  text: string;
  blocks: Record<string, unknown>[];
}


const SECTION_MAX = 3_000;
const LINE_MAX = 300;


function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Text from outside, safe and bounded for one line of a message. */
const quoted = (text: string, max = LINE_MAX) => escapeMrkdwn(clip(text.replace(/\s+/g, ' ').trim(), max));

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text: clip(text, SECTION_MAX) } });
const context = (text: string) => ({ type: 'context', elements: [{ type: 'mrkdwn', text: clip(text, SECTION_MAX) }] });
const link = (url: string, label: string) => `<${url}|${escapeMrkdwn(label).replace(/\|/g, '¦')}>`;

/** `12.3 s`, `2 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
const shortId = (jobId: string) => jobId.slice(0, 8);

/** `2 errors, 1 warning`, or `no findings`. */
export function findingCounts(view: ProgressView): string {
  const { error, warning } = view.findings.counts;
  const parts = [...(error > 0 ? [plural(error, 'error')] : []), ...(warning > 0 ? [plural(warning, 'warning')] : [])];
  return parts.length > 0 ? parts.join(', ') : 'no findings';
}

function stepLine(view: ProgressView): string {
  if (!view.step) return 'starting';
  const of = view.step.total !== null ? ` of ${view.step.total}` : '';
  return `step ${view.step.number}${of}: ${quoted(view.step.text)}`;
}

/** The one-line state of the job, in mrkdwn (the headline) and in plain text (the fallback). */
function headline(view: ProgressView): { mrkdwn: string; plain: string } {
  const duration = view.durationMs !== null ? formatDuration(view.durationMs) : null;
  switch (view.status) {
    case 'queued':
      return { mrkdwn: ':hourglass_flowing_sand: *Queued*: waiting for a browser', plain: 'queued' };
    case 'running':
      return { mrkdwn: `:arrows_counterclockwise: *Running* ${stepLine(view)}`, plain: `running ${view.step ? `step ${view.step.number}${view.step.total !== null ? ` of ${view.step.total}` : ''}: ${view.step.text}` : ''}`.trim() };
    case 'passed':
      return { mrkdwn: `:white_check_mark: *Passed*${duration ? ` in ${duration}` : ''} (${findingCounts(view)})`, plain: `passed${duration ? ` in ${duration}` : ''}, ${findingCounts(view)}` };
    case 'failed':
      return { mrkdwn: `:x: *Failed*${duration ? ` after ${duration}` : ''}: ${findingCounts(view)}`, plain: `failed${duration ? ` after ${duration}` : ''}: ${findingCounts(view)}` };
    case 'errored':
      return { mrkdwn: `:warning: *Errored*: ${quoted(view.error ?? 'the job could not run')}`, plain: `errored: ${view.error ?? 'the job could not run'}` };
    case 'cancelled':
      return { mrkdwn: ':no_entry_sign: *Cancelled*', plain: 'cancelled' };
    case 'review_required':
      return { mrkdwn: `:question: *Questions before I run this* (${plural(view.questions.length, 'question')})`, plain: `needs answers to ${plural(view.questions.length, 'question')}` };
    default:
      return { mrkdwn: `*${quoted(view.status)}*`, plain: view.status };
  }
}

function findingText(finding: FindingLine): string {
  const lines = [`• *${finding.severity}* \`${finding.kind}\`: ${quoted(finding.title)}`];
  if (finding.expected !== undefined) lines.push(`    expected: ${quoted(finding.expected)}`);
  if (finding.actual !== undefined) lines.push(`    actual: ${quoted(finding.actual)}`);
  return lines.join('\n');
}

function questionBlocks(view: ProgressView): Record<string, unknown>[] {
  const numbered = view.questions.map((question, i) => `${i + 1}. ${quoted(question, 1_000)}`).join('\n');
  const how =
    view.answer === 'yes_no'
      ? 'Answer with the buttons, or reply in this thread.'
      : 'Reply in this thread with one answer per line, or numbered (`1. …`), in the same order.';
  const blocks: Record<string, unknown>[] = [section(numbered)];
  if (view.answer !== null) blocks.push(context(how));
  if (view.answer === 'yes_no') {
    blocks.push({
      type: 'actions',
      block_id: `qa_answer:${view.jobId}`,
      elements: [
        { type: 'button', action_id: ANSWER_YES, value: view.jobId, style: 'primary', text: { type: 'plain_text', text: 'Yes, go ahead' } },
        { type: 'button', action_id: ANSWER_NO, value: view.jobId, text: { type: 'plain_text', text: 'No, stop before it' } },
      ],
    });
  }
  return blocks;
}

/** The job's progress message. */
export function progressMessage(view: ProgressView): ProgressMessage {
  const head = headline(view);
  const subject = `${view.subject.kind === 'check' ? 'Replay of' : 'Task:'} ${quoted(view.subject.text, 500)}`;
  const blocks: Record<string, unknown>[] = [section(`${head.mrkdwn}\n${subject}`)];

  if (view.findings.first.length > 0 && view.finished) {
    const more = view.findings.counts.error + view.findings.counts.warning - view.findings.first.length;
    blocks.push(section([...view.findings.first.map(findingText), ...(more > 0 ? [`…and ${more} more`] : [])].join('\n')));
  }
  if (view.firstFailureScreenshot) {
    const shot = view.firstFailureScreenshot;
    blocks.push(section(`:camera: ${link(shot.url, `Screenshot of step ${shot.stepIndex + 1}`)}, where it failed`));
  }
  if (view.status === 'review_required' && view.questions.length > 0) blocks.push(...questionBlocks(view));
  if (view.childJobId) blocks.push(context(`Answered: continues as job \`${shortId(view.childJobId)}\` in this thread.`));

  const links = [link(view.links.job, `Job ${shortId(view.jobId)}`), ...view.links.artifacts.map((artifact) => link(artifact.url, artifact.name))];
  blocks.push(context(links.join(' · ')));

  const questions = view.status === 'review_required' ? ` ${view.questions.map((question, i) => `${i + 1}. ${question}`).join(' ')}` : '';
  const text = clip(`QA job ${shortId(view.jobId)} ${head.plain} (${view.subject.kind}: ${view.subject.text})${questions}`, SECTION_MAX);
  return { text, blocks };
}
