/**
 * The model planner gets the page too (issue 25, part 1), end to end in real Chromium: a target the rule grounding
 * cannot resolve ("the plus button" on a button that says "+") is shown to the model with the page's accessibility
 * snapshot, bounded and masked; the model behind the local fake endpoint answers by reading that snapshot; the run
 * passes, the check compiles the exact locator, and its replay asks no model. A model that chooses badly is still
 * held: a button that deletes is stopped by the side-effect guard, a link to another origin is not followed, a step
 * other than the one planned is refused, and a model that is down fails the step clearly.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { TRUNCATION_NOTE } from '../../../src/core/page-snapshot.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { MODEL_SNAPSHOT_MAX_CHARS } from '../../../src/browser/model-ground.js';
import { createOpenAiPlanner } from '../../../src/planner/openai-planner.js';
import { CheckVersion } from '../../../src/store/entities/check-version.entity.js';
import { callApi, startTestApi, type TestApi } from '../../support/api-server.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { useTestStore } from '../../support/dialects.js';
import { startFakeChatCompletions, type FakeChatCompletions } from '../../support/fake-chat-completions.js';
import { pageModel, pageQuestionOf, type PageQuestion } from '../../support/fake-page-model.js';
import { startNotesSite, type NotesSite } from '../../support/notes-site.js';
import { startTestWorker, type TestWorker } from '../../support/qa-worker.js';

const TOKEN = 'tok-4f9a-notes-secret';
const WRITER = 'Ada Lovelace-Secret';
const MODEL = 'gpt-4o-mini';
const API_KEY = 'sk-test-page-steps';

interface Finding {
  kind: string;
  severity: string;
  detail: string;
  stepIndex: number | null;
}

const target = (by: string, name: string, role: string | null = null) => ({ by, role, name, exact: false });
const planAnswer = (steps: object[], criteria: object[] = []) => ({ content: { kind: 'plan', plan: { steps, successCriteria: criteria }, questions: [], assumptions: [] } });
const open = { action: 'navigate', description: 'Open the notes', url: '/' };
const clickPlus = { action: 'click', description: 'Click the plus button', target: target('description', 'the plus button', 'button') };

describe('the model planner resolves a step on the live page', () => {
  let site: NotesSite;
  let fake: FakeChatCompletions;
  let worker: TestWorker;
  let api: TestApi;
  let key: string;
  let repositoryId: string;

  afterAll(async () => {
    await api?.close();
    await worker?.stop();
    await fake?.close();
    await site?.close();
  });
  const store = useTestStore('mysql');

  beforeAll(async () => {
    site = await startNotesSite(TOKEN);
    fake = await startFakeChatCompletions();
    const planner = { kind: 'openai', url: fake.url, model: MODEL, apiKey: API_KEY, timeoutMs: 5_000 } as const;
    // The worker is composed with the model planner from its configuration, as `qa worker` is.
    worker = await startTestWorker(store(), { stepTimeoutMs: 3_000, planner, secrets: { NOTES_TOKEN: TOKEN, NOTES_WRITER: WRITER } });
    api = await startTestApi(store(), { artifacts: worker.artifacts, planner: createOpenAiPlanner({ ...planner, sleep: async () => undefined }) });
  });
  beforeEach(async () => {
    fake.reset();
    const created = await createApiKey(store(), 'acme');
    key = created.key;
    repositoryId = await insertRepository(store(), created.organization.id, {
      baseUrl: site.url,
      networkAllowlist: [],
      testValueSecretRefs: { writer: 'NOTES_WRITER', token: 'NOTES_TOKEN' },
    });
  });

  const create = (task: string) =>
    callApi(api.base, 'POST', '/api/jobs', { projectId: repositoryId, naturalLanguageTask: task, baseUrl: site.url, networkAllowlist: [], trigger: 'cli' }, key);

  async function finish(collection: 'jobs' | 'runs', id: string) {
    const stream = await fetch(`${api.base}/api/${collection}/${id}/events`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(90_000) });
    await stream.text();
    return (await callApi(api.base, 'GET', `/api/${collection}/${id}`, undefined, key)).body;
  }

  /**
   * Creates the job and runs it to the end. A task that saves something the app keeps (a note) is a real side effect
   * of the class `create` (issue 28), asked about first: the answer consents, and the linked job runs.
   */
  async function run(task: string) {
    let created = await create(task);
    if (created.body.status === 'review_required') {
      const questions = created.body.resolution.questions as string[];
      expect(questions.length).toBeGreaterThan(0);
      created = await callApi(api.base, 'POST', `/api/jobs/${created.body.jobId as string}/clarifications`, { answers: questions.map(() => 'Yes, go ahead: the notes are test data') }, key);
    }
    expect([created.status, created.body.status]).toEqual([202, undefined]);
    const body = await finish('jobs', created.body.jobId as string);
    return { body, status: body.job.status as string, findings: body.findings as Finding[], events: body.events as { type: string; data: Record<string, unknown> }[] };
  }

  const pageQuestions = (): PageQuestion[] => fake.requests.map((request) => pageQuestionOf(request.body)).filter((question): question is PageQuestion => question !== undefined);

  it('a button the rule cannot name is found by the model on the page; the check replays it with no model', async () => {
    // Saving a note is asked about first (class create): the model plans the asked job and, once answered, its child.
    const notePlan = () =>
      planAnswer(
        [
          open,
          { action: 'fill', description: 'Type my name', target: target('label', 'Your name'), value: { kind: 'testValue', name: 'writer' } },
          clickPlus,
          { action: 'fill', description: 'Write the title', target: target('placeholder', 'Title'), value: { kind: 'literal', text: 'Buy bread' } },
          { action: 'click', description: 'Save it', target: target('role', 'Save', 'button') },
          { action: 'expectItems', description: "Today's notes show it", target: target('role', "Today's notes", 'list'), itemRole: 'listitem', texts: ['Buy bread'], only: true, ordered: false, criterion: 'saved' },
        ],
        [{ key: 'saved', description: "Today's notes show Buy bread" }],
      );
    fake.script(notePlan(), notePlan());
    fake.respond(pageModel());

    const done = await run("Type my name, click the plus button, write a note titled 'Buy bread', save it and check that today's notes show 'Buy bread'");

    expect([done.status, done.findings.filter((finding) => finding.severity === 'error')]).toEqual(['passed', []]);
    // The page reached the model, once, for the one step the rule could not resolve: bounded, values hidden, secrets masked.
    const questions = pageQuestions();
    expect(questions.map((question) => [question.step.action, question.step.description, question.find])).toEqual([['click', 'Click the plus button', 'target']]);
    const { page } = questions[0]!;
    expect(page.snapshot).toMatch(/- button "\+" \[ref=e\d+\]/);
    expect(page.snapshot.length).toBeLessThanOrEqual(MODEL_SNAPSHOT_MAX_CHARS);
    expect([page.truncated, page.snapshot.split('\n').at(-1)!.startsWith(TRUNCATION_NOTE)]).toEqual([true, true]);
    expect(page.snapshot).toMatch(/- text: Account token:\n +- code \[ref=e\d+\]: \[secret\]/);
    expect(page.snapshot).toMatch(/textbox "Your name" (?:\[active\] )?\[ref=e\d+\]: \[value hidden\]/);
    for (const request of fake.requests) for (const secret of [TOKEN, WRITER, API_KEY]) expect(request.raw.includes(secret)).toBe(false);
    // Its call is in the job's history, on the step it resolved.
    expect(done.events.filter((event) => event.type === 'planner.called').map((event) => [event.data.stepIndex, event.data.outcome])).toEqual([
      [undefined, 'ok'],
      [2, 'ok'],
    ]);

    // The step's history says the model chose its element, and which.
    const passed = done.events.find((event) => event.type === 'step.passed' && event.data.index === 2);
    expect(passed?.data.model).toBe('chosen by the model (role button named "+"): The button "+" is what the step means.');

    // The compiled check holds the exact locator the model's choice resolved to.
    const checkId = done.body.job.testId as string;
    const version = await store().getRepository(CheckVersion).findOneByOrFail({ checkId, version: 1 });
    expect((version.compiled as { steps: { locator?: object }[] }).steps[2]!.locator).toEqual({ strategy: 'role', role: 'button', name: '+', exact: true });
    expect(version.source).toContain('page.getByRole("button", { name: "+", exact: true })');

    // The replay runs that locator: no request reaches the model.
    const before = fake.requests.length;
    const replay = await callApi(api.base, 'POST', '/api/runs', { repositoryId, scenarioId: checkId, baseUrl: site.url, networkAllowlist: [], trigger: 'schedule' }, key);
    const replayed = await finish('runs', replay.body.runId as string);
    expect([replayed.run.status, replayed.reports]).toEqual(['passed', []]);
    expect(fake.requests.length).toBe(before);
  });

  it('a model that picks a button that deletes is stopped by the side-effect guard before the click', async () => {
    fake.script(planAnswer([open, { action: 'click', description: 'Tidy the list', target: target('description', 'the button that tidies the list', 'button') }]));
    fake.respond(pageModel({ pick: (elements) => elements.find((element) => element.name === 'Delete all notes')?.ref }));

    const done = await run('Click the button that tidies the list');

    expect(done.status).toBe('failed');
    expect(done.findings.filter((finding) => finding.severity === 'error')).toEqual([
      expect.objectContaining({ kind: 'side_effect_blocked', stepIndex: 1, detail: expect.stringContaining('its name "Delete all notes" names a real side effect (delete)') }),
    ]);
    expect(site.wipes()).toBe(0);
    expect(done.events.find((event) => event.type === 'step.failed')?.data.model).toMatch(/^chosen by the model \(role button named "Delete all notes"\)/);
    expect(done.events.map((event) => event.type)).not.toContain('check.compiled');
  });

  it('a model that picks a link to another origin is refused before anything is clicked', async () => {
    fake.script(planAnswer([open, { action: 'click', description: 'Open the page with answers', target: target('description', 'the page with answers', 'link') }]));
    fake.respond(pageModel({ pick: (elements) => elements.find((element) => element.name === 'Help')?.ref }));

    const done = await run('Open the page with answers');

    expect(done.status).toBe('failed');
    expect(done.findings.filter((finding) => finding.severity === 'error')).toEqual([
      expect.objectContaining({ kind: 'navigation_blocked', stepIndex: 1, detail: expect.stringContaining('The model chose the link "Help", which leads where the run may not go; nothing was clicked') }),
    ]);
    expect(site.helpVisits()).toBe(0);
  });

  it('a model that proposes another step than the one planned is refused', async () => {
    fake.script(planAnswer([open, clickPlus]));
    fake.respond(pageModel({ rewrite: (step) => ({ action: 'navigate', description: step.description, url: site.helpUrl, page: null }) }));

    const done = await run('Click the plus button');

    expect(done.status).toBe('failed');
    expect(done.findings.filter((finding) => finding.severity === 'error')).toEqual([
      expect.objectContaining({ kind: 'step_unresolvable', stepIndex: 1, detail: expect.stringContaining('the model proposed a step the task did not say (navigate instead of click), which was refused') }),
    ]);
    expect(site.helpVisits()).toBe(0);
  });

  it('a model that is down fails the step as step_unresolvable, saying so', async () => {
    fake.script(planAnswer([open, clickPlus]));
    fake.respond(() => ({ status: 503, errorCode: 'overloaded' }));

    const done = await run('Click the plus button');

    expect(done.status).toBe('failed');
    expect(done.findings.filter((finding) => finding.severity === 'error')).toEqual([
      expect.objectContaining({ kind: 'step_unresolvable', stepIndex: 1, detail: expect.stringMatching(/Nothing on the page matches .*Shown the page, the model could not be asked: the planner endpoint answered HTTP 503 \(overloaded\) twice/) }),
    ]);
    expect(done.events.filter((event) => event.type === 'planner.called' && event.data.stepIndex === 1).map((event) => event.data.outcome)).toEqual(['failed', 'failed']);
  });
});
