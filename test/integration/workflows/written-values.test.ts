/**
 * Issue 13, part 1, end to end: tasks whose values are written in them run on the demo shop through the API, a
 * worker and Chromium. A literal is typed as written; a configured name is read from its secret at run time and is
 * never stored in clear; a field with no value is a question, and the answer's value is typed.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { callApi } from '../../support/api-server.js';
import { useDemoService } from '../../support/test-service.js';

const EMAIL = 'demo@acme.test';
const PASSWORD = 'acme-Pa55word!';
/** The issue's example as written; the shop greets with "Welcome back!" after sign-in. */
const ISSUE_TASK = 'enter demo@acme.test as the Email and the demoPassword as the Password, click "Sign in", and check that the page says "Welcome back"';

interface Event {
  type: string;
  data: Record<string, unknown>;
}

describe('values written in the task, end to end on the demo shop (issue 13, part 1)', () => {
  let key: string;
  let repositoryId: string;

  const shop = useDemoService('mysql', { demo: { account: { email: EMAIL, password: PASSWORD } }, worker: { secrets: { DEMO_PASSWORD: PASSWORD }, stepTimeoutMs: 5_000 } });
  const { store } = shop;

  // The store is emptied after each test: each test gets its key and its repository (the one value is demoPassword).
  beforeEach(async () => {
    const created = await createApiKey(store(), 'acme-literals');
    key = created.key;
    repositoryId = await insertRepository(store(), created.organization.id, { baseUrl: shop.demo.url, networkAllowlist: [], testValueSecretRefs: { demoPassword: 'DEMO_PASSWORD' } });
  });

  async function create(task: string, baseUrl = shop.demo.url) {
    return callApi(shop.api.base, 'POST', '/api/jobs', { projectId: repositoryId, naturalLanguageTask: task, baseUrl, networkAllowlist: [], trigger: 'cli' }, key);
  }

  async function finish(id: string) {
    const stream = await fetch(`${shop.api.base}/api/jobs/${id}/events`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(90_000) });
    await stream.text();
    const job = await callApi(shop.api.base, 'GET', `/api/jobs/${id}`, undefined, key);
    const failures = (job.body.findings as { title: string; detail: string }[]).map((finding) => `${finding.title}: ${finding.detail}`);
    return { status: job.body.job.status as string, failures, events: job.body.events as Event[], body: job.body };
  }

  /** What the steps that passed say they did, in order (a step.started event carries the description). */
  const passedSteps = (events: Event[]) => {
    const passed = new Set(events.filter((event) => event.type === 'step.passed').map((event) => event.data.index));
    return events.filter((event) => event.type === 'step.started' && passed.has(event.data.index)).map((event) => String(event.data.description));
  };

  it("runs the issue's example: the address typed as written, the password read from its secret, never stored", async () => {
    const created = await create(ISSUE_TASK, `${shop.demo.url}/login`);
    expect([created.status, created.body.resolution]).toEqual([202, undefined]);

    const run = await finish(created.body.jobId as string);
    expect([run.status, run.failures]).toEqual(['passed', []]);
    expect(passedSteps(run.events)).toEqual(
      expect.arrayContaining(['Fill the "Email" field with "demo@acme.test"', 'Fill the "Password" field with the test value demoPassword']),
    );

    // The secret's value is nowhere: not in a stored row, an artifact, or the compiled check's source.
    for (const { tableName } of store().entityMetadatas) {
      const rows = JSON.stringify(await store().query(`SELECT * FROM \`${tableName}\``));
      expect([tableName, rows.includes(PASSWORD)]).toEqual([tableName, false]);
    }
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else files.push(path);
      }
    };
    walk(shop.worker.artifactsDir);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect([file, readFileSync(file).includes(PASSWORD)]).toEqual([file, false]);
    const checkId = run.body.job.testId as string;
    const source = await (await fetch(`${shop.api.base}/api/checks/${checkId}/source`, { headers: { authorization: `Bearer ${key}` } })).text();
    expect(source).toContain('DEMO_PASSWORD');
    expect(source).toContain(EMAIL);
    expect(source).not.toContain(PASSWORD);
  });

  it.each([
    'sign in as demo@acme.test with password demoPassword, then check that the page says "Welcome back"',
    'sign in as demo@acme.test / demoPassword and check that the page says "Welcome back"',
    'go to /login, fill in Email with demo@acme.test and type demoPassword into the Password field, press Enter and verify the page says "Welcome back"',
    'open the sign in page, enter demo@acme.test and the demo password, click "Sign in" and make sure the page says "Welcome back"',
  ])('runs %j', async (task) => {
    const created = await create(task);
    expect([created.status, created.body.resolution]).toEqual([202, undefined]);
    const run = await finish(created.body.jobId as string);
    expect([run.status, run.failures]).toEqual(['passed', []]);
  });

  it('types a quoted literal as written, even a wrong password: the shop refuses it', async () => {
    const created = await create('sign in with email demo@acme.test and password "not-the-password", and check that the page says "Incorrect email or password"');
    expect([created.status, created.body.resolution]).toEqual([202, undefined]);
    const run = await finish(created.body.jobId as string);
    expect([run.status, run.failures]).toEqual(['passed', []]);
    expect(passedSteps(run.events)).toContain('Fill the "Password" field with "not-the-password"');
  });

  it('asks only about a field with no value, and types the value the answer gives', async () => {
    const task = 'go to /login, fill in the Email field, enter the demoPassword as the Password, click "Sign in" and check that the page says "Welcome back"';
    const asked = await create(task);
    expect(asked.body).toMatchObject({ status: 'review_required' });
    expect(asked.body.resolution.questions).toEqual([
      'What should the run type into the "Email" field? Give the value (in quotes if it has spaces) or the name of a configured test value.',
    ]);

    const answered = await callApi(shop.api.base, 'POST', `/api/jobs/${asked.body.jobId as string}/clarifications`, { answers: [EMAIL] }, key);
    expect(answered.status).toBe(202);
    const run = await finish(answered.body.jobId as string);
    expect([run.status, run.failures]).toEqual(['passed', []]);
    expect(passedSteps(run.events)).toContain('Fill the "Email" field with "demo@acme.test"');
  });
});
