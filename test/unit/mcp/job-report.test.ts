import { describe, expect, it } from '@jest/globals';
import { createdText, jobReport, reportText, stepsOf } from '../../../src/mcp/job-report.js';
import type { Artifact, Finding, JobEvent, JobView } from '../../../src/mcp/port.js';

const AT = '2026-12-07T04:00:00.000Z';
const event = (index: number, type: string, data: Record<string, unknown> = {}): JobEvent => ({ index, type, at: AT, data });
const finding = (fields: Partial<Finding>): Finding => ({
  id: 'f1', kind: 'assertion_failed', severity: 'error', title: 'The total is wrong', detail: '', stepIndex: 1, expected: '$30', actual: ['$25', '$0'],
  artifactIds: [], createdAt: AT, disputedAt: null, disputedBy: null, disputeReason: null, ...fields,
});
const artifact = (id: string, kind: string, stepIndex: number | null): Artifact => ({
  id, kind, name: id, contentType: 'image/png', sizeBytes: 1, sha256: '00', stepIndex, createdAt: AT, downloadPath: `/api/jobs/j1/artifacts/${id}`,
});

function view(fields: Partial<JobView['job']>, parts: Partial<Omit<JobView, 'job'>> = {}): JobView {
  return {
    job: {
      jobId: 'j1', status: 'failed', projectId: 'p1', testId: 't1', parentJobId: null, childJobIds: [], naturalLanguageTask: 'Check the cart total',
      baseUrl: 'https://shop.example', trigger: 'cli', createdAt: AT, startedAt: AT, finishedAt: AT, ...fields,
    },
    events: [], artifacts: [], findings: [], ...parts,
  };
}

describe('what the MCP tools say about a job', () => {
  it('reads the steps from the run\'s events: a retried step\'s last attempt wins, other events are not steps', () => {
    expect(stepsOf([
      event(0, 'job.started'),
      event(1, 'step.started', { index: 0, action: 'navigate', description: 'Open the cart' }),
      event(2, 'step.passed', { index: 0, ms: 5 }),
      event(3, 'step.started', { index: 1, action: 'assert', description: 'The total is $30' }),
      event(4, 'step.failed', { index: 1, message: 'timeout' }),
      event(5, 'step.started', { index: 1, action: 'assert', description: 'The total is $30' }),
      event(6, 'step.failed', { index: 1, message: 'expected $30' }),
      event(7, 'step.started', { index: 2, action: 'click', description: 'Check out' }),
    ])).toEqual([
      { index: 0, action: 'navigate', description: 'Open the cart', status: 'passed', message: null },
      { index: 1, action: 'assert', description: 'The total is $30', status: 'failed', message: 'expected $30' },
      { index: 2, action: 'click', description: 'Check out', status: 'running', message: null },
    ]);
  });

  it('links the failing step\'s screenshot and the trace, and lists what was expected and what the page showed', () => {
    const report = jobReport(view({}, {
      events: [event(0, 'step.started', { index: 1, description: 'The total is $30' }), event(1, 'step.failed', { index: 1, message: 'expected $30' })],
      artifacts: [artifact('s0', 'screenshot', 0), artifact('s1', 'screenshot', 1), artifact('s2', 'screenshot', 2), artifact('tr', 'trace', null)],
      findings: [finding({}), finding({ id: 'f2', title: 'Not a bug', disputedAt: AT })],
    }), 'https://qa.example');
    expect(report.links).toEqual({
      job: 'https://qa.example/jobs/j1', screenshot: 'https://qa.example/api/jobs/j1/artifacts/s1', trace: 'https://qa.example/api/jobs/j1/artifacts/tr',
    });
    expect(report.finished).toBe(true);
    expect(reportText(report).split('\n')).toEqual([
      'Job j1: failed — Check the cart total',
      'Steps: 0 of 1 passed',
      'Step 2 failed: The total is $30 (expected $30)',
      'Finding: The total is wrong',
      '  expected: $30',
      '  actual: $25 | $0',
      'Job page: https://qa.example/jobs/j1',
      'Screenshot: https://qa.example/api/jobs/j1/artifacts/s1',
      'Trace: https://qa.example/api/jobs/j1/artifacts/tr',
    ]);
  });

  it('relays a review_required job\'s questions in order, as an answer to pass on', () => {
    const resolution = { kind: 'needs_clarification' as const, questions: ['Which card?', 'May it place a real order?'], ambiguities: [], assumptions: [] };
    const expected = [
      'Job j1 needs answers before it can run (review_required). Ask the user, then call answer_questions with the answers in this order:',
      '1. Which card?',
      '2. May it place a real order?',
    ].join('\n');
    expect(createdText({ jobId: 'j1', status: 'review_required', resolution })).toBe(expected);
    expect(reportText(jobReport(view({ status: 'review_required', resolution }), 'https://qa.example'))).toBe(expected);
    expect(createdText({ jobId: 'j2', workflowIdentity: 'w', testId: 't', parentJobId: 'j1' })).toBe(
      'Job j2 is queued (answering job j1) for test t. Call wait_for_job with this jobId to follow it to its verdict.',
    );
  });
});
