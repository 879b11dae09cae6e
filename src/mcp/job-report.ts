import { FINISHED } from '../core/job-lifecycle.js';
import type { Finding, JobCreated, JobEvent, JobView } from './port.js';

/** What the tools answer about a job: the parts an agent acts on, and short text it can read out. */

export interface StepReport {
  index: number;
  action: string | null;
  description: string | null;
  status: 'running' | 'passed' | 'failed';
  /** A failed step's reason. */
  message: string | null;
}

export interface JobLinks {
  /** The job's page in the dashboard. */
  job: string;
  /** The screenshot of the first failing step, else the last one. */
  screenshot: string | null;
  trace: string | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The steps as the run's events tell them (`step.started`, then `step.passed` or `step.failed`); a retried step's last attempt wins. */
export function stepsOf(events: readonly JobEvent[]): StepReport[] {
  const steps = new Map<number, StepReport>();
  for (const { type, data } of events) {
    const index = data.index;
    if (typeof index !== 'number' || !type.startsWith('step.')) continue;
    if (type === 'step.started') {
      steps.set(index, { index, action: text(data.action), description: text(data.description), status: 'running', message: null });
    } else if (type === 'step.passed' || type === 'step.failed') {
      const step = steps.get(index) ?? { index, action: null, description: null, status: 'running', message: null };
      steps.set(index, { ...step, status: type === 'step.passed' ? 'passed' : 'failed', message: text(data.message) });
    }
  }
  return [...steps.values()].sort((a, b) => a.index - b.index);
}

/** The findings that make a job fail: errors nobody marked "not a bug". */
export function failingFindings(findings: readonly Finding[]): Finding[] {
  return findings.filter((finding) => finding.severity === 'error' && finding.disputedAt === null);
}

export function linksOf(view: JobView, publicBase: string): JobLinks {
  const failedStep = failingFindings(view.findings)[0]?.stepIndex;
  const screenshots = view.artifacts.filter((artifact) => artifact.kind === 'screenshot');
  const screenshot = screenshots.find((artifact) => artifact.stepIndex === failedStep) ?? screenshots.at(-1);
  const trace = view.artifacts.find((artifact) => artifact.kind === 'trace');
  return {
    job: `${publicBase}/jobs/${encodeURIComponent(view.job.jobId)}`,
    screenshot: screenshot ? `${publicBase}${screenshot.downloadPath}` : null,
    trace: trace ? `${publicBase}${trace.downloadPath}` : null,
  };
}

/** A job as get_job and wait_for_job answer it. */
export function jobReport(view: JobView, publicBase: string) {
  const { job } = view;
  return {
    jobId: job.jobId,
    status: job.status,
    finished: FINISHED.has(job.status),
    projectId: job.projectId,
    testId: job.testId,
    naturalLanguageTask: job.naturalLanguageTask,
    baseUrl: job.baseUrl,
    parentJobId: job.parentJobId,
    childJobIds: job.childJobIds,
    ...(job.resolution ? { questions: job.resolution.questions } : {}),
    createdAt: job.createdAt,
    startedAt: job.startedAt,
    finishedAt: job.finishedAt,
    steps: stepsOf(view.events),
    findings: view.findings.map((finding) => ({
      id: finding.id,
      kind: finding.kind,
      severity: finding.severity,
      title: finding.title,
      detail: finding.detail,
      stepIndex: finding.stepIndex,
      expected: finding.expected,
      actual: finding.actual,
      disputed: finding.disputedAt !== null,
    })),
    links: linksOf(view, publicBase),
  };
}
export type JobReport = ReturnType<typeof jobReport>;

/** The questions of a review_required job, and how to answer them: an answer to relay, not an error. */
export function questionsText(jobId: string, questions: readonly string[]): string {
  return [
    `Job ${jobId} needs answers before it can run (review_required). Ask the user, then call answer_questions with the answers in this order:`,
    ...questions.map((question, i) => `${i + 1}. ${question}`),
  ].join('\n');
}

/** A created (or answered) job in a sentence or two. */
export function createdText(created: JobCreated): string {
  if (created.status === 'review_required') return questionsText(created.jobId, created.resolution.questions);
  const from = created.parentJobId ? ` (answering job ${created.parentJobId})` : '';
  return `Job ${created.jobId} is queued${from} for test ${created.testId}. Call wait_for_job with this jobId to follow it to its verdict.`;
}

/** A job report in a few lines: the status, the failing findings with expected and actual, the links. */
export function reportText(report: JobReport): string {
  if (report.status === 'review_required') return questionsText(report.jobId, report.questions ?? []);
  const lines = [`Job ${report.jobId}: ${report.status}${report.naturalLanguageTask ? ` — ${report.naturalLanguageTask}` : ''}`];
  const passed = report.steps.filter((step) => step.status === 'passed').length;
  if (report.steps.length > 0) lines.push(`Steps: ${passed} of ${report.steps.length} passed`);
  for (const step of report.steps.filter((one) => one.status === 'failed')) {
    lines.push(`Step ${step.index + 1} failed: ${step.description ?? step.action ?? ''}${step.message ? ` (${step.message})` : ''}`);
  }
  for (const finding of report.findings.filter((one) => one.severity === 'error' && !one.disputed)) {
    lines.push(`Finding: ${finding.title}`);
    if (finding.expected !== null) lines.push(`  expected: ${finding.expected}`);
    if (finding.actual !== null && finding.actual.length > 0) lines.push(`  actual: ${finding.actual.join(' | ')}`);
  }
  lines.push(`Job page: ${report.links.job}`);
  if (report.links.screenshot) lines.push(`Screenshot: ${report.links.screenshot}`);
  if (report.links.trace) lines.push(`Trace: ${report.links.trace}`);
  return lines.join('\n');
}
