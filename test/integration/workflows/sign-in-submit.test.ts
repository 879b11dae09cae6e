/**
 * "log in as X / Y" end to end on the demo shop, whose button says "Sign in": through the API, a worker and Chromium,
 * the run passes, records the button it resolved, and the compiled check replays that exact locator with no planner
 * (its generated Playwright file names the same one).
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { callApi } from '../../support/api-server.js';
import { useDemoService } from '../../support/test-service.js';

const EMAIL = 'demo@acme.test';
const PASSWORD = 'acme-Pa55word!';

interface Event {
  type: string;
  data: Record<string, unknown>;
}

describe('log in as … / … on a shop whose button says "Sign in" (issue 13)', () => {
  let key: string;
  let repositoryId: string;

  const shop = useDemoService('mysql', { demo: { account: { email: EMAIL, password: PASSWORD } }, worker: { secrets: { DEMO_PASSWORD: PASSWORD }, stepTimeoutMs: 5_000 } });
  const { store } = shop;

  beforeEach(async () => {
    const created = await createApiKey(store(), 'acme-sign-in');
    key = created.key;
    repositoryId = await insertRepository(store(), created.organization.id, { baseUrl: shop.demo.url, networkAllowlist: [], testValueSecretRefs: { demoPassword: 'DEMO_PASSWORD' } });
  });

  async function finish(kind: 'jobs' | 'runs', id: string) {
    const stream = await fetch(`${shop.api.base}/api/${kind}/${id}/events`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(90_000) });
    await stream.text();
    return callApi(shop.api.base, 'GET', `/api/${kind}/${id}`, undefined, key);
  }
  const failures = (body: { findings?: { title: string; detail: string }[] }) => (body.findings ?? []).map((finding) => `${finding.title}: ${finding.detail}`);

  it('passes, records the "Sign in" button, and the compiled check replays that locator', async () => {
    const created = await callApi(
      shop.api.base,
      'POST',
      '/api/jobs',
      { projectId: repositoryId, naturalLanguageTask: `log in as ${EMAIL} / demoPassword and check that the page says "Welcome back"`, baseUrl: shop.demo.url, networkAllowlist: [], trigger: 'cli' },
      key,
    );
    expect([created.status, created.body.resolution]).toEqual([202, undefined]);
    const run = await finish('jobs', created.body.jobId as string);
    expect([run.body.job.status, failures(run.body)]).toEqual(['passed', []]);

    const events = run.body.events as Event[];
    const started = events.filter((event) => event.type === 'step.started');
    const clickIndex = started.find((event) => String(event.data.description).startsWith('Click the sign-in button'))?.data.index;
    const clicked = events.find((event) => event.type === 'step.passed' && event.data.index === clickIndex);
    expect(clicked?.data.locator).toEqual({ strategy: 'role', role: 'button', name: 'Sign in', exact: true });

    const checkId = run.body.job.testId as string;
    const replay = await callApi(shop.api.base, 'POST', '/api/runs', { repositoryId, scenarioId: checkId, baseUrl: shop.demo.url, networkAllowlist: [], trigger: 'schedule' }, key);
    expect(replay.status).toBe(202);
    const replayed = await finish('runs', replay.body.runId as string);
    expect([replayed.body.run.status, replayed.body.reports]).toEqual(['passed', []]);
    const replayClick = (replayed.body.events as Event[]).find((event) => event.type === 'step.passed' && event.data.index === clickIndex);
    expect(replayClick?.data.locator).toEqual({ strategy: 'role', role: 'button', name: 'Sign in', exact: true });

    const source = await (await fetch(`${shop.api.base}/api/checks/${checkId}/source`, { headers: { authorization: `Bearer ${key}` } })).text();
    expect(source).toContain('page.getByRole("button", { name: "Sign in", exact: true })');
    expect(source).not.toContain(PASSWORD);
  });
});
