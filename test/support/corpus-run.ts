/**
 * Runs one corpus task (test/corpus/) through the real service as a person would: the task is sent to the API as
 * written, the service's questions get the task's answers, the run must pass on the app as it is, its compiled check
 * must replay with no planner and its generated source must pass `npx playwright test`, and the task's bug switched
 * on must make the replay fail with what it expected and what the page showed.
 */
import type { CorpusApp, CorpusTask } from '../corpus/types.js';
import { createPlaywrightProject, type PlaywrightOutcome } from '../integration/checks/playwright-project.js';
import { callApi } from './api-server.js';

export interface CorpusService {
  /** The API's base URL and a key of the organization that owns `repositoryId`. */
  base: string;
  key: string;
  repositoryId: string;
}

/** How far a task got: each stage needs the one before it. */
export type CorpusStage = 'planned' | 'passed' | 'replayed' | 'source' | 'caught';
export const CORPUS_STAGES: readonly CorpusStage[] = ['planned', 'passed', 'replayed', 'source', 'caught'];

export interface CorpusOutcome {
  id: string;
  /** The stages reached, in order; all five make the task right. */
  reached: CorpusStage[];
  /** Why it stopped where it did (the question asked, the finding, the source's failure). */
  detail?: string;
  /** The questions the service asked before it ran (answered with the task's answers, or consent). */
  asked: string[];
  /** Milliseconds of the natural-language run, from creation to its end. */
  runMs?: number;
  /** The check the run compiled, once it passed. */
  checkId?: string;
}

interface JobView {
  status: string;
  checkId: string | null;
  findings: Array<{ kind: string; severity: string; title: string; detail: string; expected: string | null; actual: string[] | null }>;
  questions: string[];
}

/** What a person answers a question they did not expect on a practice app. */
export const CONSENT = 'Yes, go ahead.';
/** The question the service asks about a clause it cannot plan. */
const UNPLANNED = /^I could not turn /;

const TERMINAL = new Set(['passed', 'failed', 'errored', 'cancelled', 'review_required']);
const MAX_ROUNDS = 3;

export async function runCorpusTask(service: CorpusService, app: CorpusApp, task: CorpusTask, options: { source?: boolean } = {}): Promise<CorpusOutcome> {
  const reached: CorpusStage[] = [];
  const asked: string[] = [];
  const baseUrl = `${app.url}${task.path ?? ''}`;
  app.setBug(null);
  app.reset();
  const started = performance.now();
  let created = await callApi(service.base, 'POST', '/api/jobs', { projectId: service.repositoryId, naturalLanguageTask: task.task, baseUrl, networkAllowlist: [], trigger: 'cli' }, service.key);
  for (let round = 0; created.status === 202 && created.body.status === 'review_required'; round += 1) {
    const questions = (created.body.resolution as { questions: string[] }).questions;
    if (round >= MAX_ROUNDS) return { id: task.id, asked, reached, detail: `asked: ${questions.join(' | ')}` };
    asked.push(...questions);
    // The task's answers go to the questions a person expects (a side effect); anything else gets what the person
    // who tried the service answered: consent.
    const expected = questions.filter((question) => !UNPLANNED.test(question));
    const answers = questions.map((question) => (UNPLANNED.test(question) || task.answers === undefined ? CONSENT : task.answers[Math.min(expected.indexOf(question), task.answers.length - 1)]!));
    created = await callApi(service.base, 'POST', `/api/jobs/${created.body.jobId as string}/clarifications`, { answers }, service.key);
  }
  if (created.status !== 202) return { id: task.id, asked, reached, detail: `create answered ${created.status}: ${created.text.slice(0, 300)}` };
  reached.push('planned');

  const run = await finished(service, created.body.jobId as string);
  const runMs = Math.round(performance.now() - started);
  if (run.status !== 'passed') return { id: task.id, asked, reached, runMs, detail: `run ${run.status}: ${describeFindings(run)}` };
  reached.push('passed');
  const checkId = run.checkId!;

  const replay = await replayCheck(service, checkId, baseUrl);
  if (replay.status !== 'passed') return { id: task.id, asked, reached, runMs, checkId, detail: `replay ${replay.status}: ${describeFindings(replay)}` };
  reached.push('replayed');

  if (options.source !== false) {
    const outcome = await runGeneratedSources({ 'check.spec.ts': await checkSource(service, checkId) });
    if (outcome.code !== 0) return { id: task.id, asked, reached, runMs, checkId, detail: `generated source failed: ${firstError(outcome.output)}` };
    reached.push('source');
  }

  app.setBug(task.bug);
  try {
    const broken = await replayCheck(service, checkId, baseUrl);
    const failing = broken.findings.filter((finding) => finding.severity === 'error');
    if (broken.status !== 'failed') return { id: task.id, asked, reached, runMs, checkId, detail: `replay on the broken app (${task.bug}) ${broken.status}: a false pass` };
    reached.push('caught');
    const compared = failing.find((finding) => finding.expected !== null);
    return { id: task.id, asked, reached, runMs, checkId, detail: compared === undefined ? `caught by ${failing[0]?.kind ?? 'a failure'}: ${failing[0]?.detail ?? ''}` : `caught: expected ${compared.expected}, actual ${JSON.stringify(compared.actual)}` };
  } finally {
    app.setBug(null);
  }
}

/** The Playwright source the service generates for a check (the version replays run). */
export async function checkSource(service: CorpusService, checkId: string): Promise<string> {
  const source = await fetch(`${service.base}/api/checks/${checkId}/source`, { headers: { authorization: `Bearer ${service.key}` } });
  if (source.status !== 200) throw new Error(`the source of check ${checkId} answered ${source.status}`);
  return source.text();
}

/**
 * Runs generated sources (file name to source) with `npx playwright test` in one throwaway project, with no
 * QA_BASE_URL: each check runs against the address it was compiled on, its default.
 */
export async function runGeneratedSources(files: Record<string, string>): Promise<PlaywrightOutcome> {
  const project = await createPlaywrightProject(files);
  try {
    return await project.run({});
  } finally {
    await project.remove();
  }
}

/** The first error of a Playwright run's output, and what follows it. */
export function firstError(output: string): string {
  const error = output.indexOf('Error:');
  return output.slice(Math.max(0, error), Math.max(0, error) + 700);
}

async function replayCheck(service: CorpusService, checkId: string, baseUrl: string): Promise<JobView> {
  const created = await callApi(service.base, 'POST', '/api/jobs', { projectId: service.repositoryId, testId: checkId, baseUrl, networkAllowlist: [], trigger: 'cli' }, service.key);
  if (created.status !== 202) throw new Error(`replay answered ${created.status}: ${created.text}`);
  return finished(service, created.body.jobId as string);
}

/** Follows the job's event stream to its end, then reads the job. */
async function finished(service: CorpusService, jobId: string): Promise<JobView> {
  const stream = await fetch(`${service.base}/api/jobs/${jobId}/events`, { headers: { authorization: `Bearer ${service.key}` }, signal: AbortSignal.timeout(180_000) });
  await stream.text();
  for (;;) {
    const view = await callApi(service.base, 'GET', `/api/jobs/${jobId}`, undefined, service.key);
    const job = view.body.job as { status: string; testId: string | null; resolution?: { questions: string[] } };
    if (TERMINAL.has(job.status)) {
      return { status: job.status, checkId: job.testId, findings: view.body.findings as JobView['findings'], questions: job.resolution?.questions ?? [] };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function describeFindings(view: JobView): string {
  const errors = view.findings.filter((finding) => finding.severity === 'error');
  return errors.map((finding) => `${finding.title}: ${finding.detail}`).join(' | ').slice(0, 600) || view.questions.join(' | ');
}

/** `todomvc: 3 of 24 right (planned 10, passed 5, replayed 4, source 3, caught 3)`. */
export function summarize(suite: string, outcomes: readonly CorpusOutcome[]): string {
  const right = outcomes.filter((outcome) => outcome.reached.length === CORPUS_STAGES.length).length;
  const stages = CORPUS_STAGES.map((stage) => `${stage} ${outcomes.filter((outcome) => outcome.reached.includes(stage)).length}`).join(', ');
  return `${suite}: ${right} of ${outcomes.length} right (${stages})`;
}
