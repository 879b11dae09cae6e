import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { DEFAULT_ACCOUNT, DEFAULT_PROBE_TOKEN, startDemoApp, type DemoApp } from '../../fixtures/demo-app/index.js';
import { createTestCertificates, type TestCertificates } from '../../fixtures/tls/test-certificates.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { callApi, startTestApi, type TestApi } from '../../support/api-server.js';
import { useTestStore } from '../../support/dialects.js';
import { startTestWorker, type TestWorker } from '../../support/qa-worker.js';

const TASK =
  'Sign in as the demo user, add the Desk Lamp to the cart, apply the coupon SAVE10, check that the total shows $90, ' +
  'check out and place the order, and verify the order through the probe';

/** The probe as a customer would host it: HTTPS (a test CA), in front of the shop's own probe endpoint. */
async function startHttpsProbe(demo: DemoApp, certificates: TestCertificates): Promise<{ origin: string; server: Server }> {
  const server = createHttpsServer({ key: certificates.key, cert: certificates.cert }, (req, res) => {
    const upstream = httpRequest(`${demo.url}${req.url ?? '/'}`, { headers: { authorization: req.headers.authorization ?? '' } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, { 'content-type': answer.headers['content-type'] ?? 'application/json' });
      answer.pipe(res);
    });
    upstream.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `https://localhost:${(server.address() as AddressInfo).port}`, server };
}

describe('the demo shop journey, end to end (issue 4, done when)', () => {
  let demo: DemoApp;
  let certificates: TestCertificates;
  let probe: Awaited<ReturnType<typeof startHttpsProbe>>;
  let worker: TestWorker;
  let api: TestApi;
  let secrets: Record<string, string>;

  afterAll(async () => {
    await api?.close();
    await worker?.stop();
    probe?.server.close();
    await demo?.close();
    await certificates?.remove();
  });
  const store = useTestStore('mysql');

  beforeAll(async () => {
    demo = await startDemoApp();
    certificates = await createTestCertificates();
    probe = await startHttpsProbe(demo, certificates);
    secrets = {
      DEMO_EMAIL: DEFAULT_ACCOUNT.email,
      DEMO_PASSWORD: DEFAULT_ACCOUNT.password,
      PROBE_URL: `${probe.origin}/probe/orders?email=${encodeURIComponent(DEFAULT_ACCOUNT.email)}`,
      PROBE_TOKEN: DEFAULT_PROBE_TOKEN,
    };
    worker = await startTestWorker(store(), { secrets, probeCa: certificates.ca, stepTimeoutMs: 5_000 });
    api = await startTestApi(store(), { artifacts: worker.artifacts });
  });

  async function finish(collection: 'jobs' | 'runs', id: string, key: string) {
    const stream = await fetch(`${api.base}/api/${collection}/${id}/events`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(90_000) });
    await stream.text();
    return callApi(api.base, 'GET', `/api/${collection}/${id}`, undefined, key);
  }

  it('asks first, then signs in, uses the coupon, orders, verifies through the probe, compiles a check whose replay passes; no secret is stored anywhere', async () => {
    const { key, organization } = await createApiKey(store(), 'acme');
    const repositoryId = await insertRepository(store(), organization.id, {
      baseUrl: demo.url,
      networkAllowlist: ['localhost'],
      testValueSecretRefs: { demoEmail: 'DEMO_EMAIL', demoPassword: 'DEMO_PASSWORD', probeUrl: 'PROBE_URL', probeToken: 'PROBE_TOKEN' },
      evidenceProbeRefs: { order_created: { urlValueRef: 'probeUrl', tokenValueRef: 'probeToken' } },
    });

    // It would place a real order: it asks before anything runs.
    const asked = await callApi(api.base, 'POST', '/api/jobs', { projectId: repositoryId, naturalLanguageTask: TASK, baseUrl: demo.url, networkAllowlist: ['localhost'], trigger: 'chat' }, key);
    expect(asked.body).toMatchObject({ status: 'review_required' });
    expect(demo.orders()).toEqual([]);

    const answered = await callApi(api.base, 'POST', `/api/jobs/${asked.body.jobId as string}/clarifications`, { answers: asked.body.resolution.questions.map(() => 'Yes, place the order; it is a test store') }, key);
    expect(answered.status).toBe(202);
    const run = await finish('jobs', answered.body.jobId as string, key);
    const failures = (run.body.findings as { title: string; detail: string }[]).map((finding) => `${finding.title}: ${finding.detail}`);
    expect([run.body.job.status, failures]).toEqual(['passed', []]);
    expect(demo.orders()).toHaveLength(1);
    expect(demo.orders()[0]).toMatchObject({ email: DEFAULT_ACCOUNT.email, totalCents: 9_000, coupon: 'SAVE10' });
    const types = (run.body.events as { type: string }[]).map((event) => event.type);
    expect(types.filter((type) => type === 'step.passed').length).toBeGreaterThanOrEqual(10);
    expect(types.slice(-2)).toEqual(['check.compiled', 'job.passed']);
    const probeStep = (run.body.events as { type: string; data: { evidence?: string } }[]).find((event) => event.type === 'step.passed' && event.data.evidence);
    expect(probeStep?.data.evidence).toMatch(/^Order ORD-1001 for \[secret\]: 1 item, total \$90 with coupon SAVE10/);

    // The replay runs the compiled steps with no planner, and orders again.
    const checkId = run.body.job.testId as string;
    const replay = await callApi(api.base, 'POST', '/api/runs', { repositoryId, scenarioId: checkId, baseUrl: demo.url, networkAllowlist: ['localhost'], trigger: 'schedule' }, key);
    const replayed = await finish('runs', replay.body.runId as string, key);
    expect([replayed.body.run.status, replayed.body.reports]).toEqual(['passed', []]);
    expect(demo.orders()).toHaveLength(2);

    const source = await (await fetch(`${api.base}/api/checks/${checkId}/source`, { headers: { authorization: `Bearer ${key}` } })).text();
    for (const name of ['DEMO_EMAIL', 'DEMO_PASSWORD', 'PROBE_URL', 'PROBE_TOKEN']) expect(source).toContain(name);

    // No secret value in any stored row, any artifact file, or the generated source.
    const values = Object.values(secrets);
    for (const value of values) expect(source).not.toContain(value);
    for (const { tableName } of store().entityMetadatas) {
      const rows = JSON.stringify(await store().query(`SELECT * FROM \`${tableName}\``));
      for (const value of values) expect([tableName, rows.includes(value)]).toEqual([tableName, false]);
    }
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else files.push(path);
      }
    };
    walk(worker.artifactsDir);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const bytes = readFileSync(file);
      for (const value of values) expect([file, bytes.includes(value)]).toEqual([file, false]);
    }
  });
});
