import { describe, expect, it } from '@jest/globals';
import { buildProgressView, comparisonLines, expectedAndActual } from '../../../src/notify/progress-view.js';
import { failedRun, JOB_ID, jobForNotification } from './job-fixtures.js';

const settings = { publicBaseUrl: 'https://qa.example.com/service/' };

describe('buildProgressView', () => {
  it('shows a queued job with its task, no step and links under the public address', () => {
    const view = buildProgressView(jobForNotification(), settings);
    expect(view).toMatchObject({
      jobId: JOB_ID,
      status: 'queued',
      finished: false,
      subject: { kind: 'task', text: 'Check that the pricing page lists three plans' },
      step: null,
      durationMs: null,
      questions: [],
      answer: null,
      firstFailureScreenshot: null,
      links: { job: `https://qa.example.com/service/jobs/${JOB_ID}`, artifacts: [] },
      lastSeq: 1,
    });
  });

  it('shows the running step as k of n with its text, and whether it has ended', () => {
    const running = jobForNotification(
      { status: 'running' },
      {
        events: [
          { type: 'job.created', data: {} },
          { type: 'job.started', data: {} },
          { type: 'step.started', data: { index: 0, description: 'Open /pricing' } },
          { type: 'step.passed', data: { index: 0 } },
          { type: 'step.started', data: { index: 1, description: 'Click "Plans"' } },
        ],
      },
    );
    expect(buildProgressView(running, settings).step).toEqual({ number: 2, total: 3, text: 'Click "Plans"', state: 'running' });
  });

  it('starts the step count over when a resumed run starts again at step 1', () => {
    const resumed = jobForNotification(
      { status: 'running' },
      {
        stepCount: null,
        events: [
          { type: 'step.started', data: { index: 0, description: 'Open /pricing' } },
          { type: 'step.passed', data: { index: 0 } },
          { type: 'step.started', data: { index: 1, description: 'Click "Plans"' } },
          { type: 'job.resumed', data: {} },
          { type: 'step.started', data: { index: 0, description: 'Open /pricing' } },
        ],
      },
    );
    expect(buildProgressView(resumed, settings).step).toEqual({ number: 1, total: null, text: 'Open /pricing', state: 'running' });
  });

  it('sums up a failed run: duration, findings by severity (errors first, with expected and actual), the failing step\'s screenshot', () => {
    const view = buildProgressView(failedRun(), settings);
    expect(view.finished).toBe(true);
    expect(view.durationMs).toBe(12_345);
    expect(view.step).toMatchObject({ number: 2, state: 'failed' });
    expect(view.findings.counts).toEqual({ error: 1, warning: 1 });
    expect(view.findings.first[0]).toEqual({
      kind: 'assertion_failed',
      severity: 'error',
      title: 'Step 2 failed: Expect 3 plan cards',
      expected: '3 of "Plan"',
      actual: '2',
    });
    expect(view.findings.first[1]).toEqual({ kind: 'console_error', severity: 'warning', title: 'The page logged an error' });
    expect(view.firstFailureScreenshot).toEqual({ artifactId: 'a-2', stepIndex: 1, url: `https://qa.example.com/service/jobs/${JOB_ID}/artifacts/a-2` });
    // The failure's screenshot first, then the trace.
    expect(view.links.artifacts.map((link) => link.name).slice(0, 2)).toEqual(['step-2.png', 'trace.zip']);
  });

  it('lists a review_required job\'s questions, and a single side-effect question is answered yes or no', () => {
    const question = 'Should the run really delete or remove this data? It cannot be undone: is it disposable test data, or should the run stop at the confirmation step?';
    const review = jobForNotification({ status: 'review_required', resolution: { kind: 'needs_clarification', questions: [question], ambiguities: [], assumptions: [] } });
    expect(buildProgressView(review, settings)).toMatchObject({ finished: true, questions: [question], answer: 'yes_no' });
    const two = jobForNotification({ status: 'review_required', resolution: { kind: 'needs_clarification', questions: ['Which plan?', 'Which account?'], ambiguities: [], assumptions: [] } });
    expect(buildProgressView(two, settings)).toMatchObject({ questions: ['Which plan?', 'Which account?'], answer: 'text' });
  });

  it('names a replay by its check\'s task, says why an errored job errored, and points to the child that carries answers on', () => {
    const replay = jobForNotification(
      { status: 'errored', task: null },
      { checkTask: 'Sign in and see the invoices', events: [{ type: 'job.answered', data: { childJobId: 'child-1' } }, { type: 'job.errored', data: { reason: 'browser unavailable' } }] },
    );
    expect(buildProgressView(replay, settings)).toMatchObject({ subject: { kind: 'check', text: 'Sign in and see the invoices' }, error: 'browser unavailable', childJobId: 'child-1' });
  });
});

describe('comparisons of failed expectations', () => {
  it('prefers the stored comparison: the expected text, and what the page shows (several candidates quoted)', () => {
    const headings = { kind: 'assertion_failed', detail: 'No heading shows "Gadgets Galore"', expected: 'Gadgets Galore', actual: ['Welcome to Demo Shop', 'Featured'] };
    expect(expectedAndActual(headings, 'Expect a heading to show "Gadgets Galore"')).toEqual({ expected: 'Gadgets Galore', actual: '"Welcome to Demo Shop", "Featured"' });
    expect(expectedAndActual({ ...headings, actual: ['Welcome to Demo Shop'] }, undefined)).toEqual({ expected: 'Gadgets Galore', actual: 'Welcome to Demo Shop' });
  });

  it('says an empty value, an empty candidate list, and how many candidates it leaves out; long texts are cut on one line', () => {
    expect(comparisonLines('x@y.test', [''])).toEqual({ expected: 'x@y.test', actual: '(empty)' });
    expect(comparisonLines('', ['a@b.test'])).toEqual({ expected: '(empty)', actual: 'a@b.test' });
    expect(comparisonLines('Refund issued', [])).toEqual({ expected: 'Refund issued', actual: '(nothing like it on the page)' });
    expect(comparisonLines('Plans', ['A', 'B', 'C', 'D', 'E']).actual).toBe('"A", "B", "C" and 2 more');
    const long = comparisonLines(`Expected ${'x'.repeat(400)}`, [`line one\n${'y'.repeat(400)}`]);
    expect(long.expected).toHaveLength(200);
    expect(long.expected.endsWith('…')).toBe(true);
    expect(long.actual).toHaveLength(80);
    expect(long.actual).not.toContain('\n');
  });

  it('lists a failed expectation of a run with its comparison', () => {
    const run = failedRun();
    run.findings[1] = { ...run.findings[1]!, expected: '3 items', actual: ['2 items: "Starter", "Pro"'] };
    expect(buildProgressView(run, settings).findings.first[0]).toEqual({
      kind: 'assertion_failed',
      severity: 'error',
      title: 'Step 2 failed: Expect 3 plan cards',
      expected: '3 items',
      actual: '2 items: "Starter", "Pro"',
    });
  });
});

describe('expectedAndActual', () => {
  it('reads the step runner\'s wordings, and otherwise takes the step\'s text against the detail of a failed assertion', () => {
    expect(expectedAndActual({ kind: 'assertion_failed', detail: 'Expected 2 listitem item(s) in "Cart", found 0' }, 'x')).toEqual({ expected: '2 listitem item(s) in "Cart"', actual: '0' });
    expect(expectedAndActual({ kind: 'assertion_failed', detail: '"Error banner" is visible, expected hidden' }, 'x')).toEqual({ expected: '"Error banner" hidden', actual: '"Error banner" visible' });
    expect(expectedAndActual({ kind: 'assertion_failed', detail: 'The page does not show "Thank you"' }, 'Expect the text "Thank you"')).toEqual({
      expected: 'Expect the text "Thank you"',
      actual: 'The page does not show "Thank you"',
    });
    expect(expectedAndActual({ kind: 'console_error', detail: 'TypeError' }, 'Open /')).toEqual({});
  });
});
