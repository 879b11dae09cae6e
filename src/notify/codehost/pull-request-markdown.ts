/**
 * What a job shows on its pull request, from the channel-neutral ProgressView (so it tells what the chat thread and
 * `GET /api/jobs/:id` tell): the PR comment's body and the check run's state and output. Every text that came from
 * outside goes through `inert` (safe-markdown.ts); sizes stay under the code host's limits
 * (https://docs.github.com/en/rest/issues/comments, https://docs.github.com/en/rest/checks/runs).
 */
import type { CodehostChannelContext } from '../../core/channel-context.js';
import type { FindingLine, ProgressView } from '../progress-view.js';
import { boundedMarkdown, inert, oneLine, ownLink } from './safe-markdown.js';

/** The code host refuses a comment body over 65,536 characters and a check-run summary over 65,535. */
export const COMMENT_BODY_MAX = 65_536;
export const CHECK_SUMMARY_MAX = 65_535;
/** Shown in the checks list beside the commit: kept short. */
export const CHECK_NAME_MAX = 100;
export const CHECK_TITLE_MAX = 120;
/** The code host takes at most 50 annotations per request. */
export const ANNOTATIONS_MAX = 50;

/** Characters of an outside text shown per line (before escaping). */
const LINE_MAX = 300;
const SUBJECT_MAX = 500;
const QUESTION_MAX = 1_000;
/** Questions listed one by one; the planner asks a handful, so more is a planner gone wrong. */
const QUESTIONS_MAX = 20;
/**
 * Characters the questions may take, escaped: with the findings (a few, each bounded) and the links, a comment stays
 * well under COMMENT_BODY_MAX, so the final cut (which would drop the links at the end) never happens in practice.
 */
const QUESTIONS_BUDGET = 30_000;

/** The hidden line that marks a job's comment, so a worker that lost the comment's id can find it again. */
export function commentMarker(jobId: string): string {
  return `<!-- qa-job:${jobId} -->`;
}

const shortId = (jobId: string) => jobId.slice(0, 8);
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** `12.3 s`, `2 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** `2 errors, 1 warning`, or `no findings`. */
function findingCounts(view: ProgressView): string {
  const { error, warning } = view.findings.counts;
  const parts = [...(error > 0 ? [plural(error, 'error')] : []), ...(warning > 0 ? [plural(warning, 'warning')] : [])];
  return parts.length > 0 ? parts.join(', ') : 'no findings';
}

/** The job's state in a few plain words (the check run's title, the comment's headline). */
export function stateLine(view: ProgressView): string {
  const duration = view.durationMs !== null ? formatDuration(view.durationMs) : null;
  switch (view.status) {
    case 'queued':
      return 'Queued: waiting for a browser';
    case 'running':
      return view.step ? `Running step ${view.step.number}${view.step.total !== null ? ` of ${view.step.total}` : ''}` : 'Running';
    case 'passed':
      return `Passed${duration ? ` in ${duration}` : ''} (${findingCounts(view)})`;
    case 'failed':
      return `Failed${duration ? ` after ${duration}` : ''}: ${findingCounts(view)}`;
    case 'errored':
      return 'Errored: the job could not run';
    case 'cancelled':
      return view.cancelReason ? `Cancelled: ${oneLine(view.cancelReason, 120)}` : 'Cancelled';
    case 'review_required':
      return `Needs answers to ${plural(view.questions.length, 'question')} before it runs`;
    default:
      return oneLine(view.status, 40);
  }
}

const ICONS: Record<string, string> = { queued: '⏳', running: '🔄', passed: '✅', failed: '❌', errored: '⚠️', cancelled: '🚫', review_required: '❓' };

function subjectLine(view: ProgressView): string {
  return `${view.subject.kind === 'check' ? 'Replay of' : 'Task:'} ${inert(view.subject.text, SUBJECT_MAX)}`;
}

function findingLines(finding: FindingLine): string[] {
  const lines = [`- **${inert(finding.severity, 20)}** \`${oneLine(finding.kind, 40).replace(/[^a-z0-9_.-]/gi, '')}\`: ${inert(finding.title, LINE_MAX)}`];
  if (finding.expected !== undefined) lines.push(`  - expected: ${inert(finding.expected, LINE_MAX)}`);
  if (finding.actual !== undefined) lines.push(`  - actual: ${inert(finding.actual, LINE_MAX)}`);
  return lines;
}

/** The findings listed one by one (errors first), and how many more there are. */
function findingsSection(view: ProgressView): string[] {
  if (view.findings.first.length === 0) return [];
  const more = view.findings.counts.error + view.findings.counts.warning - view.findings.first.length;
  return ['#### Findings', ...view.findings.first.flatMap(findingLines), ...(more > 0 ? [`- …and ${more} more (see the job)`] : []), ''];
}

/** The `/qa answer` comment that answers the questions (the `/qa` comment handler reads it). */
export function answerTemplate(questions: readonly string[]): string {
  return ['/qa answer', ...questions.slice(0, QUESTIONS_MAX).map((_, i) => `${i + 1}. …`)].join('\n');
}

function questionsSection(view: ProgressView): string[] {
  if (view.status !== 'review_required' || view.questions.length === 0) return [];
  const numbered: string[] = [];
  let size = 0;
  for (const [i, question] of view.questions.slice(0, QUESTIONS_MAX).entries()) {
    const line = `${i + 1}. ${inert(question, QUESTION_MAX)}`;
    if (size + line.length > QUESTIONS_BUDGET) break;
    numbered.push(line);
    size += line.length + 1;
  }
  const lines = ['#### Questions before I run this', ...numbered];
  if (view.questions.length > numbered.length) lines.push(`…and ${view.questions.length - numbered.length} more (see the job)`);
  if (view.answer !== null) {
    const yesNo = view.answer === 'yes_no' ? ' (`yes` or `no`)' : '';
    lines.push('', `To answer${yesNo}, comment on this pull request with \`/qa answer\` and one numbered answer per line, in the same order:`, '', '```', answerTemplate(view.questions), '```');
  }
  return [...lines, ''];
}

/**
 * Why a run the pull request started was chosen: the check's own reasons (a changed flow, always-run, not linked to a
 * flow yet), or why every check ran; and how many of the repository's checks ran and were skipped. Flow names and
 * paths come from the repository: shown inert.
 */
function selectionSection(context: CodehostChannelContext): string[] {
  const note = context.selection;
  if (!note) return [];
  const reasons = note.mode === 'all' ? [note.reason] : note.why;
  const lines = reasons.length === 1 ? [`**Why it ran:** ${inert(reasons[0]!, LINE_MAX)}`] : ['**Why it ran:**', ...reasons.map((reason) => `- ${inert(reason, LINE_MAX)}`)];
  const tally = note.mode === 'all' ? `${plural(note.ran, 'check')} ran on this pull request, none skipped.` : `${inert(note.reason, LINE_MAX)}.`;
  return [...lines, `<sub>${tally}</sub>`, ''];
}

function stepSection(view: ProgressView): string[] {
  if (view.finished || !view.step) return [];
  const of = view.step.total !== null ? ` of ${view.step.total}` : '';
  return [`Step ${view.step.number}${of}: ${inert(view.step.text, LINE_MAX)}`, ''];
}

function linksLine(view: ProgressView): string {
  const links = [ownLink(`Job ${shortId(view.jobId)}`, view.links.job)];
  if (view.firstFailureScreenshot) links.push(ownLink(`Screenshot of step ${view.firstFailureScreenshot.stepIndex + 1}`, view.firstFailureScreenshot.url));
  for (const artifact of view.links.artifacts) {
    if (artifact.url !== view.firstFailureScreenshot?.url) links.push(ownLink(artifact.name, artifact.url));
  }
  return links.join(' · ');
}

/** The Markdown both the comment and the check run's summary show: state, subject, step, findings, questions, links. */
function details(view: ProgressView, context: CodehostChannelContext): string[] {
  return [
    subjectLine(view),
    '',
    ...selectionSection(context),
    ...stepSection(view),
    ...(view.status === 'errored' ? [`Why: ${inert(view.error ?? 'the job could not run', LINE_MAX)}`, ''] : []),
    ...findingsSection(view),
    ...questionsSection(view),
    ...(view.childJobId ? [`Answered: continues as job \`${shortId(view.childJobId)}\`.`, ''] : []),
    linksLine(view),
    '',
    // requestedBy is a login the channelContext schema checked: mentioning who asked is meant.
    `<sub>QA job \`${shortId(view.jobId)}\` at commit \`${context.headSha.slice(0, 7)}\`${context.requestedBy ? ` · asked by @${context.requestedBy}` : ''}</sub>`,
  ];
}

/** The PR comment's body: the marker, a headline, then the details. At most COMMENT_BODY_MAX characters. */
export function pullRequestComment(view: ProgressView, context: CodehostChannelContext): string {
  const icon = ICONS[view.status];
  const body = [commentMarker(view.jobId), `### ${icon ? `${icon} ` : ''}QA: ${stateLine(view)}`, '', ...details(view, context)].join('\n');
  return boundedMarkdown(body, COMMENT_BODY_MAX);
}

/** The check run's name: what it checks, plain and short (names are not Markdown). */
export function checkRunName(view: ProgressView): string {
  return oneLine(`QA: ${view.subject.text}`, CHECK_NAME_MAX);
}

export type CheckRunState =
  | { status: 'queued' | 'in_progress' }
  | { status: 'completed'; conclusion: 'success' | 'failure' | 'neutral' | 'cancelled' };

/**
 * The check run's status from the job's (src/core/job-lifecycle.ts): queued and running are under way; a finished
 * job completes it. review_required is `neutral` (nothing failed; a person answers first); errored is `failure` (the
 * check did not pass, and a merge rule must not take it for a pass).
 */
export function checkRunState(view: ProgressView): CheckRunState {
  switch (view.status) {
    case 'queued':
      return { status: 'queued' };
    case 'running':
      return { status: 'in_progress' };
    case 'passed':
      return { status: 'completed', conclusion: 'success' };
    case 'failed':
    case 'errored':
      return { status: 'completed', conclusion: 'failure' };
    case 'review_required':
      return { status: 'completed', conclusion: 'neutral' };
    case 'cancelled':
      return { status: 'completed', conclusion: 'cancelled' };
    default:
      // A status a newer deploy wrote: under way until it finishes, then neutral rather than a guess.
      return view.finished ? { status: 'completed', conclusion: 'neutral' } : { status: 'in_progress' };
  }
}

export interface CheckRunAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: 'failure';
  title: string;
  message: string;
}

export interface CheckRunOutput {
  title: string;
  summary: string;
  annotations?: CheckRunAnnotation[];
}

/**
 * One annotation per file the failing check covers (at most ANNOTATIONS_MAX), at the file's first line: coverage
 * links say which files a check covers, not which lines.
 */
export function coverageAnnotations(view: ProgressView, coveredFiles: readonly string[]): CheckRunAnnotation[] {
  if (view.status !== 'failed' || coveredFiles.length === 0) return [];
  const first = view.findings.first[0];
  const message = oneLine(
    [`This file is covered by the failing QA check "${view.subject.text}".`, ...(first ? [`${first.title}${first.expected !== undefined ? ` (expected: ${first.expected}; actual: ${first.actual ?? ''})` : ''}`] : []), view.links.job].join(' '),
    1_000,
  );
  return [...new Set(coveredFiles)].slice(0, ANNOTATIONS_MAX).map((path) => ({ path, start_line: 1, end_line: 1, annotation_level: 'failure', title: oneLine(`QA: ${view.subject.text}`, 100), message }));
}

/** The check run's output: a short plain title, and the summary in Markdown (at most CHECK_SUMMARY_MAX characters). */
export function checkRunOutput(view: ProgressView, context: CodehostChannelContext, coveredFiles: readonly string[] = []): CheckRunOutput {
  const annotations = coverageAnnotations(view, coveredFiles);
  return {
    title: oneLine(stateLine(view), CHECK_TITLE_MAX),
    summary: boundedMarkdown(details(view, context).join('\n'), CHECK_SUMMARY_MAX),
    ...(annotations.length > 0 ? { annotations } : {}),
  };
}
