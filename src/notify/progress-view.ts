import { isFinished } from '../core/job-lifecycle.js';
import type { JobForNotification } from '../jobs/job-for-notification.js';

/** One finding as a progress message lists it. */
export interface FindingLine {
  kind: string;
  severity: string;
  title: string;
  /** What the step expected and what the page showed, when the finding says so. */
  expected?: string;
  actual?: string;
}

/** A link a message shows. */
export interface ViewLink {
  name: string;
  url: string;
}

/**
 * A job's progress, channel-neutral: what any channel (a chat thread, a pull request) shows of it. Built from the
 * same rows as `GET …/:id` and its events, so every channel tells the same story.
 */
export interface ProgressView {
  jobId: string;
  status: string;
  /** No more events will come: the message is final once this is delivered. */
  finished: boolean;
  trigger: string;
  /** What the job checks: its task, or for a replay its check's task. */
  subject: { kind: 'task' | 'check'; text: string };
  /** The step running (or last run): number k of `total` (null when the step count is unknown), with its text. */
  step: { number: number; total: number | null; text: string; state: 'running' | 'passed' | 'failed' } | null;
  /** From start to finish, once finished; null before. */
  durationMs: number | null;
  findings: { counts: { error: number; warning: number }; first: FindingLine[] };
  /** A review_required job's questions, in order. */
  questions: string[];
  /** How the questions can be answered (a single yes/no side-effect question takes buttons); null once answered. */
  answer: 'yes_no' | 'text' | null;
  /** Why an errored job errored. */
  error: string | null;
  /** Why the service cancelled a cancelled job (a closed pull request, a newer push); null when a person did. */
  cancelReason: string | null;
  firstFailureScreenshot: { artifactId: string; stepIndex: number; url: string } | null;
  links: { job: string; artifacts: ViewLink[] };
  /** The job that carries this one's answers on (set once its questions were answered). */
  childJobId: string | null;
  /** The last event index the view shows (-1 for none). */
  lastSeq: number;
}

export interface ViewSettings {
  /** The service's public address: links in messages point under it. */
  publicBaseUrl: string;
  /** Findings listed one by one (the rest are counted). */
  maxFindings?: number;
}

const DEFAULT_MAX_FINDINGS = 3;
const MAX_ARTIFACT_LINKS = 5;
/** The planner's side-effect questions (src/planner/side-effects.ts) all open so, and are answered yes or no. */
const SIDE_EFFECT_QUESTION = /^Should the run really\b/i;

type NotifiedEvent = JobForNotification['events'][number];

export function buildProgressView(input: JobForNotification, settings: ViewSettings): ProgressView {
  const { job, events } = input;
  const base = settings.publicBaseUrl.replace(/\/+$/, '');
  // The job page (src/api/job-pages.router.ts): a person who clicks it signs in first.
  const jobUrl = `${base}/jobs/${job.id}`;
  const artifactUrl = (artifactId: string) => `${jobUrl}/artifacts/${artifactId}`;
  const stepTexts = stepTextsOf(events);
  const questions = job.status === 'review_required' ? (job.resolution?.questions ?? []) : [];
  const childJobId = lastData(events, 'job.answered', 'childJobId');
  const screenshot = firstFailureScreenshot(input);
  return {
    jobId: job.id,
    status: job.status,
    finished: isFinished(job.status),
    trigger: job.trigger,
    subject: job.task !== null ? { kind: 'task', text: job.task } : { kind: 'check', text: input.checkTask ?? job.checkId ?? 'a check' },
    step: currentStep(events, input.stepCount),
    durationMs: job.startedAt && job.finishedAt ? job.finishedAt.getTime() - job.startedAt.getTime() : null,
    findings: {
      counts: {
        error: input.findings.filter((finding) => finding.severity === 'error').length,
        warning: input.findings.filter((finding) => finding.severity === 'warning').length,
      },
      // Errors first: they are why a run failed.
      first: [...input.findings]
        .sort((a, b) => Number(b.severity === 'error') - Number(a.severity === 'error'))
        .slice(0, settings.maxFindings ?? DEFAULT_MAX_FINDINGS)
        .map((finding) => findingLine(finding, finding.stepIndex === null ? undefined : stepTexts.get(finding.stepIndex))),
    },
    questions,
    // Answered questions take no more answers.
    answer: questions.length === 0 || childJobId !== null ? null : questions.length === 1 && SIDE_EFFECT_QUESTION.test(questions[0]!) ? 'yes_no' : 'text',
    error: job.status === 'errored' ? errorReason(events) : null,
    cancelReason: job.status === 'cancelled' ? lastData(events, 'job.cancelled', 'message') : null,
    firstFailureScreenshot: screenshot ? { ...screenshot, url: artifactUrl(screenshot.artifactId) } : null,
    links: { job: jobUrl, artifacts: artifactLinks(input, screenshot?.artifactId).map(({ id, name }) => ({ name, url: artifactUrl(id) })) },
    childJobId,
    lastSeq: events.at(-1)?.seq ?? -1,
  };
}

/** The text of each step that started, by index (a resumed run's last start wins). */
function stepTextsOf(events: NotifiedEvent[]): Map<number, string> {
  const texts = new Map<number, string>();
  for (const event of events) {
    if (event.type !== 'step.started') continue;
    const { index, description } = event.data;
    if (typeof index === 'number' && typeof description === 'string') texts.set(index, description);
  }
  return texts;
}

/** The last step that started, and whether it ended. A run started again (resumed, retried) starts over at step 1. */
function currentStep(events: NotifiedEvent[], total: number | null): ProgressView['step'] {
  let step: NonNullable<ProgressView['step']> | undefined;
  for (const event of events) {
    const index = event.data.index;
    if (typeof index !== 'number') continue;
    if (event.type === 'step.started') {
      step = { number: index + 1, total, text: typeof event.data.description === 'string' ? event.data.description : '', state: 'running' };
    } else if (step && (event.type === 'step.passed' || event.type === 'step.failed') && step.number === index + 1) {
      step.state = event.type === 'step.passed' ? 'passed' : 'failed';
    }
  }
  return step ?? null;
}

/** How much of a comparison a message shows: the expected text, each candidate, and how many candidates. */
const EXPECTED_SHOWN_MAX = 200;
const CANDIDATE_SHOWN_MAX = 80;
const CANDIDATES_SHOWN = 3;

const clipped = (text: string, max: number) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
};

/**
 * A stored comparison as two short lines: `expected` as it is, `actual` one candidate as it is or several quoted
 * (`"Welcome to Demo Shop", "Featured" and 2 more`), an empty value as `(empty)`. Every channel shows the same.
 */
export function comparisonLines(expected: string, actual: readonly string[]): Required<Pick<FindingLine, 'expected' | 'actual'>> {
  const show = (text: string, max: number) => (text.trim() === '' ? '(empty)' : clipped(text, max));
  const shown = actual.slice(0, CANDIDATES_SHOWN).map((text) => show(text, CANDIDATE_SHOWN_MAX));
  const more = actual.length - shown.length;
  const listed = actual.length === 1 ? shown[0]! : shown.map((text) => (text === '(empty)' ? text : `"${text}"`)).join(', ');
  return {
    expected: show(expected, EXPECTED_SHOWN_MAX),
    actual: actual.length === 0 ? '(nothing like it on the page)' : `${listed}${more > 0 ? ` and ${more} more` : ''}`,
  };
}

/**
 * What a finding expected and found: its stored comparison (a failed expectation recorded with `expected` and
 * `actual`). A finding recorded without one is read from its wording: the step runner words its assertion failures
 * `Expected <n> …, found <m>` and `"<name>" is visible, expected hidden`; any other failed assertion expected what
 * its step says and found what the finding's detail says.
 */
export function expectedAndActual(
  finding: { kind: string; detail: string; expected?: string | null; actual?: readonly string[] | null },
  stepText: string | undefined,
): Pick<FindingLine, 'expected' | 'actual'> {
  if (typeof finding.expected === 'string' && Array.isArray(finding.actual)) return comparisonLines(finding.expected, finding.actual);
  const counted = /^Expected (.+), found (.+)$/s.exec(finding.detail);
  if (counted) return { expected: counted[1]!, actual: counted[2]! };
  const visible = /^(".+") is visible, expected hidden$/s.exec(finding.detail);
  if (visible) return { expected: `${visible[1]!} hidden`, actual: `${visible[1]!} visible` };
  if (finding.kind === 'assertion_failed' && stepText) return { expected: stepText, actual: finding.detail };
  return {};
}

function findingLine(finding: JobForNotification['findings'][number], stepText: string | undefined): FindingLine {
  return { kind: finding.kind, severity: finding.severity, title: finding.title, ...expectedAndActual(finding, stepText) };
}

/**
 * The screenshot of the first step that failed (the run's last attempt at it), or of the first error finding's step
 * when no step failed (a run-wide finding on a page).
 */
function firstFailureScreenshot(input: JobForNotification): { artifactId: string; stepIndex: number } | null {
  const failed = input.events.find((event) => event.type === 'step.failed' && typeof event.data.index === 'number');
  const stepIndex = failed ? (failed.data.index as number) : input.findings.find((finding) => finding.severity === 'error' && finding.stepIndex !== null)?.stepIndex;
  if (stepIndex === undefined || stepIndex === null) return null;
  const shot = input.artifacts.filter((artifact) => artifact.kind === 'screenshot' && artifact.stepIndex === stepIndex).at(-1);
  return shot ? { artifactId: shot.id, stepIndex } : null;
}

/** The artifacts worth a link: the failure's screenshot, then the trace, then the rest in run order. */
function artifactLinks(input: JobForNotification, screenshotId: string | undefined): { id: string; name: string }[] {
  const rank = (artifact: JobForNotification['artifacts'][number]) => (artifact.id === screenshotId ? 0 : artifact.kind === 'trace' ? 1 : 2);
  return input.artifacts
    .map((artifact, order) => ({ artifact, order }))
    .sort((a, b) => rank(a.artifact) - rank(b.artifact) || a.order - b.order)
    .slice(0, MAX_ARTIFACT_LINKS)
    .map(({ artifact }) => ({ id: artifact.id, name: artifact.name }));
}

function errorReason(events: NotifiedEvent[]): string {
  return lastData(events, 'job.errored', 'reason') ?? 'the job errored';
}

function lastData(events: NotifiedEvent[], type: string, key: string): string | null {
  const value = events.findLast((event) => event.type === type)?.data[key];
  return typeof value === 'string' ? value : null;
}
