import { describe, expect, it } from '@jest/globals';
import { ANSWER_NO, ANSWER_YES } from '../../../bot/blocks/actions.js';
import { escapeMrkdwn } from '../../../bot/blocks/mrkdwn.js';
import { formatDuration, progressMessage } from '../../../bot/blocks/progress.js';
import { buildProgressView } from '../../../src/notify/progress-view.js';
import { failedRun, JOB_ID, jobForNotification } from '../notify/job-fixtures.js';

const settings = { publicBaseUrl: 'https://qa.example.com' };
const view = (input: Parameters<typeof buildProgressView>[0]) => buildProgressView(input, settings);
/** Every mrkdwn text of a message's blocks, joined: what a person reads. */
const shown = (blocks: Record<string, unknown>[]) => JSON.stringify(blocks);
const actionsOf = (blocks: Record<string, unknown>[]) => blocks.find((block) => block.type === 'actions') as { elements: { action_id: string; value: string }[] } | undefined;

describe('progressMessage', () => {
  it('says a job is queued, in the blocks and in the text fallback, with a link to the job', () => {
    const message = progressMessage(view(jobForNotification()));
    expect(message.text).toBe('QA job 6f1c2d3e queued (task: Check that the pricing page lists three plans)');
    expect(shown(message.blocks)).toContain('*Queued*');
    expect(shown(message.blocks)).toContain(`<https://qa.example.com/jobs/${JOB_ID}|Job 6f1c2d3e>`);
    expect(actionsOf(message.blocks)).toBeUndefined();
  });

  it('shows the running step, k of n, with its text', () => {
    const running = jobForNotification({ status: 'running' }, { events: [{ type: 'step.started', data: { index: 1, description: 'Click "Plans"' } }] });
    const message = progressMessage(view(running));
    expect(message.text).toBe('QA job 6f1c2d3e running step 2 of 3: Click "Plans" (task: Check that the pricing page lists three plans)');
    expect(shown(message.blocks)).toContain('*Running* step 2 of 3: Click \\"Plans\\"');
  });

  it('sums up a failure: duration, counts by severity, expected and actual, the failing step\'s screenshot and the artifacts', () => {
    const message = progressMessage(view(failedRun()));
    expect(message.text).toBe('QA job 6f1c2d3e failed after 12.3 s: 1 error, 1 warning (task: Check that the pricing page lists three plans)');
    const text = shown(message.blocks);
    expect(text).toContain('*Failed* after 12.3 s: 1 error, 1 warning');
    expect(text).toContain('expected: 3 of \\"Plan\\"');
    expect(text).toContain('actual: 2');
    expect(text).toContain(`<https://qa.example.com/jobs/${JOB_ID}/artifacts/a-2|Screenshot of step 2>`);
    expect(text).toContain(`<https://qa.example.com/jobs/${JOB_ID}/artifacts/a-trace|trace.zip>`);
  });

  it('shows a failed expectation as expected / actual lines: the heading it wanted and the headings the page has', () => {
    const run = failedRun();
    run.findings[1] = {
      ...run.findings[1]!,
      title: 'Step 2 failed: Expect a heading to show "Gadgets Galore"',
      detail: 'No heading shows "Gadgets Galore"; the page\'s headings show "Welcome to Demo Shop"',
      expected: 'Gadgets Galore',
      actual: ['Welcome to Demo Shop', 'Featured <deals>'],
    };
    const text = shown(progressMessage(view(run)).blocks);
    expect(text).toContain('\\n    expected: Gadgets Galore\\n    actual: \\"Welcome to Demo Shop\\", \\"Featured &lt;deals&gt;\\"');
  });

  it('says a passed job passed, and how long it took', () => {
    const passed = jobForNotification({ status: 'passed', startedAt: new Date(0), finishedAt: new Date(125_000) });
    expect(progressMessage(view(passed)).text).toBe('QA job 6f1c2d3e passed in 2 min 5 s, no findings (task: Check that the pricing page lists three plans)');
  });

  it('numbers a review_required job\'s questions; a yes/no side-effect question gets two buttons that carry the job id', () => {
    const question = 'Should the run really buy or pay (place an order or charge a payment method), or stop before the final payment step?';
    const message = progressMessage(view(jobForNotification({ status: 'review_required', resolution: { kind: 'needs_clarification', questions: [question], ambiguities: [], assumptions: [] } })));
    expect(message.text).toContain(`1. ${question}`);
    expect(shown(message.blocks)).toContain(`1. ${question}`);
    expect(actionsOf(message.blocks)?.elements.map((button) => [button.action_id, button.value])).toEqual([
      [ANSWER_YES, JOB_ID],
      [ANSWER_NO, JOB_ID],
    ]);
    const open = progressMessage(view(jobForNotification({ status: 'review_required', resolution: { kind: 'needs_clarification', questions: ['Which plan?', 'Which account?'], ambiguities: [], assumptions: [] } })));
    expect(shown(open.blocks)).toContain('1. Which plan?\\n2. Which account?');
    expect(actionsOf(open.blocks)).toBeUndefined();
  });

  it('drops the buttons once the questions are answered, and points to the job that carries on', () => {
    const question = 'Should the run really delete or remove this data?';
    const answered = jobForNotification(
      { status: 'review_required', resolution: { kind: 'needs_clarification', questions: [question], ambiguities: [], assumptions: [] } },
      { events: [{ type: 'job.review_required', data: {} }, { type: 'job.answered', data: { childJobId: '0a1b2c3d-0000-4000-8000-000000000000' } }] },
    );
    const message = progressMessage(view(answered));
    expect(actionsOf(message.blocks)).toBeUndefined();
    expect(shown(message.blocks)).toContain('continues as job `0a1b2c3d` in this thread');
    expect(shown(message.blocks)).not.toContain('Reply in this thread');
  });

  it('escapes text from outside, so a task cannot mention everyone or forge a link', () => {
    const message = progressMessage(view(jobForNotification({ task: 'Check <!channel> & <https://evil.example|the bank>' })));
    expect(shown(message.blocks)).toContain('Check &lt;!channel&gt; &amp; &lt;https://evil.example|the bank&gt;');
    expect(shown(message.blocks)).not.toContain('<!channel>');
  });

  it('keeps every section inside Slack\'s 3000 characters', () => {
    const message = progressMessage(view(jobForNotification({ status: 'errored' }, { events: [{ type: 'job.errored', data: { reason: 'x'.repeat(10_000) } }] })));
    for (const block of message.blocks) {
      const text = (block as { text?: { text: string } }).text?.text;
      if (text !== undefined) expect(text.length).toBeLessThanOrEqual(3000);
    }
    expect(message.text.length).toBeLessThanOrEqual(3000);
  });
});

describe('helpers', () => {
  it('formats durations and escapes mrkdwn', () => {
    expect(formatDuration(900)).toBe('0.9 s');
    expect(formatDuration(61_000)).toBe('1 min 1 s');
    expect(escapeMrkdwn('a < b & c > d')).toBe('a &lt; b &amp; c &gt; d');
  });
});
