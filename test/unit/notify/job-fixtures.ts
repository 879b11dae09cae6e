import type { JobForNotification } from '../../../src/jobs/job-for-notification.js';

export const JOB_ID = '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f';
const at = (second: number) => new Date(Date.UTC(2026, 10, 24, 9, 0, second));

type Event = JobForNotification['events'][number];

/** A job as readJobForNotification returns it, with the events given (indexes 0, 1, …). */
export function jobForNotification(
  overrides: Partial<JobForNotification['job']> = {},
  rest: { events?: Omit<Event, 'seq' | 'at'>[]; findings?: JobForNotification['findings']; artifacts?: JobForNotification['artifacts']; stepCount?: number | null; checkTask?: string | null } = {},
): JobForNotification {
  return {
    job: {
      id: JOB_ID,
      organizationId: 'org-1',
      status: 'queued',
      trigger: 'chat',
      task: 'Check that the pricing page lists three plans',
      checkId: 'check-1',
      resolution: null,
      startedAt: null,
      finishedAt: null,
      createdAt: at(0),
      ...overrides,
    },
    checkTask: rest.checkTask ?? null,
    stepCount: rest.stepCount === undefined ? 3 : rest.stepCount,
    events: (rest.events ?? [{ type: 'job.created', data: {} }, { type: 'job.queued', data: {} }]).map((event, seq) => ({ ...event, seq, at: at(seq) })),
    findings: rest.findings ?? [],
    artifacts: rest.artifacts ?? [],
  };
}

/** The history of a run that passed step 1 and failed step 2 (an assertion), with its screenshots and trace. */
export function failedRun(): JobForNotification {
  return jobForNotification(
    { status: 'failed', startedAt: at(1), finishedAt: new Date(at(1).getTime() + 12_345) },
    {
      events: [
        { type: 'job.created', data: {} },
        { type: 'job.queued', data: {} },
        { type: 'job.started', data: { attempt: 1 } },
        { type: 'step.started', data: { index: 0, action: 'goto', description: 'Open /pricing' } },
        { type: 'step.passed', data: { index: 0, ms: 300 } },
        { type: 'step.started', data: { index: 1, action: 'assertCount', description: 'Expect 3 plan cards' } },
        { type: 'step.failed', data: { index: 1, ms: 900, kind: 'assertion_failed', message: 'Expected 3 of "Plan", found 2' } },
        { type: 'job.failed', data: {} },
      ],
      findings: [
        { id: 'f-warn', kind: 'console_error', severity: 'warning', title: 'The page logged an error', detail: 'TypeError: x is undefined', stepIndex: 0, artifactIds: [] },
        { id: 'f-err', kind: 'assertion_failed', severity: 'error', title: 'Step 2 failed: Expect 3 plan cards', detail: 'Expected 3 of "Plan", found 2', stepIndex: 1, artifactIds: ['a-2'] },
      ],
      artifacts: [
        { id: 'a-1', kind: 'screenshot', name: 'step-1.png', stepIndex: 0 },
        { id: 'a-2', kind: 'screenshot', name: 'step-2.png', stepIndex: 1 },
        { id: 'a-2s', kind: 'accessibility_snapshot', name: 'step-2-accessibility.yaml', stepIndex: 1 },
        { id: 'a-trace', kind: 'trace', name: 'trace.zip', stepIndex: null },
      ],
    },
  );
}
