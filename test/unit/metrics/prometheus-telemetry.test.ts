import { describe, expect, it } from '@jest/globals';
import { createPrometheusTelemetry } from '../../../src/metrics/prometheus-telemetry.js';
import { countedCalls } from '../../../src/planner/counted-calls.js';
import type { ChatResult } from '../../../src/planner/openai-client.js';

const lines = async (render: () => Promise<string>) => (await render()).split('\n');

describe('the Prometheus telemetry', () => {
  it('counts what no service test drives: planner calls and tokens, deliveries, webhook failures, hand-backs', async () => {
    const { telemetry, render } = createPrometheusTelemetry();
    const answers: ChatResult[] = [
      { kind: 'answer', content: '{}', usage: { promptTokens: 120, completionTokens: 30, totalTokens: 150 } },
      { kind: 'invalid', problem: { key: 'length', reason: 'cut off', twice: 'cut off twice' }, usage: { promptTokens: 100, completionTokens: 5, totalTokens: 105 } },
      { kind: 'failed', problem: { key: 'timeout', reason: 'slow', twice: 'slow twice' }, retry: true },
    ];
    const client = countedCalls({ complete: async () => answers.shift()! }, telemetry);
    for (let call = 0; call < 3; call++) await client.complete({});
    telemetry.progressDelivery('chat', 'delivered');
    telemetry.progressDelivery('chat', 'retry');
    telemetry.progressDelivery('codehost', 'given_up');
    telemetry.webhookFailure('codehost', false);
    telemetry.webhookFailure('codehost', true);
    telemetry.queueHandBack('qa-run');
    telemetry.browserLaunch('failed');
    telemetry.browserContexts(1);
    telemetry.browserContexts(1);
    telemetry.browserContexts(-1);
    telemetry.httpRequest('/api/jobs', 'PROPFIND', 404, 0.01);
    expect(await lines(render)).toEqual(expect.arrayContaining([
      'qa_planner_calls_total{planner="openai",outcome="answer"} 1',
      'qa_planner_calls_total{planner="openai",outcome="invalid"} 1',
      'qa_planner_calls_total{planner="openai",outcome="failed"} 1',
      'qa_planner_tokens_total{planner="openai",kind="prompt"} 220',
      'qa_planner_tokens_total{planner="openai",kind="completion"} 35',
      'qa_progress_deliveries_total{channel="chat",outcome="delivered"} 1',
      'qa_progress_deliveries_total{channel="codehost",outcome="given_up"} 1',
      'qa_progress_delivery_retries_total{channel="chat"} 1',
      'qa_webhook_retries_total{provider="codehost"} 1',
      'qa_webhook_dead_letters_total{provider="codehost"} 1',
      'qa_queue_hand_backs_total{kind="qa-run"} 1',
      'qa_browser_launches_total{outcome="failed"} 1',
      'qa_browser_contexts_open 1',
      // A method outside HTTP's usual few is not a label value of its own.
      'qa_http_requests_total{route="/api/jobs",method="other",status="404"} 1',
    ]));
  });

  it('reads the backlog once per scrape, and shows nothing of it when the read fails', async () => {
    let reads = 0;
    let failing = false;
    const { render } = createPrometheusTelemetry({
      readBacklog: async () => {
        reads += 1;
        if (failing) throw new Error('database unreachable');
        return [{ kind: 'qa-run', due: 3, oldestDueSeconds: 12.5 }];
      },
    });
    expect(await lines(render)).toEqual(expect.arrayContaining(['qa_queue_depth{kind="qa-run"} 3', 'qa_queue_oldest_due_seconds{kind="qa-run"} 12.5']));
    expect(reads).toBe(1);
    failing = true;
    const after = await lines(render);
    expect(after.filter((line) => line.startsWith('qa_queue_depth{') || line.startsWith('qa_queue_oldest_due_seconds{'))).toEqual([]);
    expect(reads).toBe(2);
  });

  it("labels job counts by organization slug only when asked to, and never by the organization's id", async () => {
    const plain = createPrometheusTelemetry();
    plain.telemetry.jobCreated('cli', 'a6f0c1de-0000-4000-8000-000000000001');
    expect(await lines(plain.render)).toContain('qa_jobs_created_total{trigger="cli"} 1');

    const slugs: Record<string, string> = { 'a6f0c1de-0000-4000-8000-000000000001': 'acme' };
    const labelled = createPrometheusTelemetry({ organizationSlug: async (id) => slugs[id] });
    labelled.telemetry.jobCreated('cli', 'a6f0c1de-0000-4000-8000-000000000001');
    labelled.telemetry.jobFinished('cli', 'passed', 'a6f0c1de-0000-4000-8000-000000000001');
    labelled.telemetry.jobFinished('cli', 'passed', 'a6f0c1de-0000-4000-8000-00000000dead');
    await new Promise((resolve) => setImmediate(resolve));
    const text = await labelled.render();
    expect(text.split('\n')).toEqual(expect.arrayContaining([
      'qa_jobs_created_total{trigger="cli",organization="acme"} 1',
      'qa_jobs_finished_total{trigger="cli",outcome="passed",organization="acme"} 1',
      'qa_jobs_finished_total{trigger="cli",outcome="passed",organization="unknown"} 1',
    ]));
    expect(text).not.toContain('a6f0c1de');
  });
});
