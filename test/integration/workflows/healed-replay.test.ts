import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { DEFAULT_ACCOUNT, startDemoApp, type DemoApp } from '../../fixtures/demo-app/index.js';
import { callApi, startTestApi, type TestApi } from '../../support/api-server.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { useTestStore } from '../../support/dialects.js';
import { startTestWorker, type TestWorker } from '../../support/qa-worker.js';

const TASK = 'Sign in as the demo user, add the Desk Lamp to the cart, apply the coupon SAVE10 and check that the total shows $90';
const LAMP_STEP = 4;

interface FindingBody {
  id: string;
  kind: string;
  severity: string;
  title: string;
  detail: string;
  stepIndex: number | null;
  artifactIds: string[];
}
interface EventBody {
  type: string;
  data: Record<string, unknown>;
}
interface VersionBody {
  version: number;
  state: string;
  basedOn: number | null;
  acceptedBy: string | null;
  acceptedAt: string | null;
  steps: { step: { description: string }; locator?: Record<string, unknown>; healing?: unknown }[];
}

/**
 * Issue 13, part 4, end to end: a check compiled on the demo shop is replayed after the shop's markup changed
 * (markup.ts). Where the evidence disagrees the replay fails as before; where the button was only reworded the
 * replay passes healed, warns with the old and new locator and a screenshot, and proposes a version that replays
 * only after a person accepts it.
 * On MySQL only: what the store does here (a proposal, read back to find an open one; its acceptance) is tested on both
 * dialects where it is written (test/integration/workflows/run-recorder.test.ts, jobs/check-accept.test.ts); run on
 * SQLite too, this half-minute of browser work proved nothing more.
 */
describe('a replay that heals only with evidence (real browser, demo shop)', () => {
  let shop: DemoApp;
  let worker: TestWorker;
  let api: TestApi;

  afterAll(async () => {
    await api?.close();
    await worker?.stop();
    await shop?.close();
  });
  const store = useTestStore('mysql');

  beforeAll(async () => {
    shop = await startDemoApp();
    worker = await startTestWorker(store(), { secrets: { DEMO_EMAIL: DEFAULT_ACCOUNT.email, DEMO_PASSWORD: DEFAULT_ACCOUNT.password } });
    api = await startTestApi(store(), { artifacts: worker.artifacts });
  });

  async function finish(id: string, key: string) {
    const stream = await fetch(`${api.base}/api/jobs/${id}/events`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(90_000) });
    await stream.text();
    const view = await callApi(api.base, 'GET', `/api/jobs/${id}`, undefined, key);
    return { status: view.body.job.status as string, findings: view.body.findings as FindingBody[], events: view.body.events as EventBody[], artifacts: view.body.artifacts as { id: string; kind: string; stepIndex: number | null }[] };
  }

  it('fails where the evidence disagrees, heals a reworded button into a proposal, and replays the proposal only once accepted', async () => {
    const { key, principal, organization } = await createApiKey(store(), 'acme');
    const other = await createApiKey(store(), 'globex');
    const repositoryId = await insertRepository(store(), organization.id, { baseUrl: shop.url, testValueSecretRefs: { demoEmail: 'DEMO_EMAIL', demoPassword: 'DEMO_PASSWORD' } });

    const created = await callApi(api.base, 'POST', '/api/jobs', { projectId: repositoryId, naturalLanguageTask: TASK, baseUrl: shop.url, trigger: 'cli' }, key);
    expect(created.status).toBe(202);
    expect((await finish(created.body.jobId as string, key)).status).toBe('passed');
    const checkId = created.body.testId as string;
    const versions = async () => (await callApi(api.base, 'GET', `/api/checks/${checkId}`, undefined, key)).body as { check: { version: number }; versions: VersionBody[] };
    const compiled = await versions();
    const lampStep = compiled.versions[0]!.steps[LAMP_STEP]!;
    expect(lampStep.step.description).toBe('Click the button that adds "Desk Lamp" to the cart');
    // The "Add to cart" of the lamp's row, kept by its own name since the shop's button names the lamp itself.
    expect(lampStep.locator).toEqual({ strategy: 'role', role: 'button', name: 'Add Desk Lamp to cart', exact: true });
    expect(lampStep.healing).toMatchObject({ element: { tag: 'button', role: 'button', name: 'Add Desk Lamp to cart' } });
    expect(compiled.versions[0]).toMatchObject({ version: 1, state: 'compiled', basedOn: null, acceptedBy: null });

    const replay = async () => {
      const job = await callApi(api.base, 'POST', '/api/jobs', { projectId: repositoryId, testId: checkId, baseUrl: shop.url, trigger: 'cli' }, key);
      expect(job.status).toBe(202);
      return { jobId: job.body.jobId as string, ...(await finish(job.body.jobId as string, key)) };
    };

    // The test id and the CSS path point at different buttons: no heal, the step fails as before and says why.
    shop.setMarkup('swapped');
    const disagreeing = await replay();
    expect(disagreeing.status).toBe('failed');
    const failed = disagreeing.findings.filter((finding) => finding.severity === 'error');
    expect(failed).toEqual([expect.objectContaining({ kind: 'step_unresolvable', stepIndex: LAMP_STEP })]);
    expect(failed[0]!.detail).toMatch(/Not healed: the other recorded ways to find it disagree/);
    expect(disagreeing.findings.some((finding) => finding.kind === 'check.healed')).toBe(false);
    expect((await versions()).versions).toHaveLength(1);

    // Only the wording changed: the replay passes healed, with a warning and a proposal.
    shop.setMarkup('reworded');
    const healed = await replay();
    expect(healed.status).toBe('passed');
    const warning = healed.findings.find((finding) => finding.kind === 'check.healed');
    expect(warning).toMatchObject({ severity: 'warning', stepIndex: LAMP_STEP, title: 'Step 5 healed: Click the button that adds "Desk Lamp" to the cart' });
    expect(warning!.detail).toContain('The stored locator (role button named "Add Desk Lamp to cart") finds nothing now. testId "add-desk-lamp", css ');
    expect(warning!.detail).toContain('so the step ran with role button named "Add the lamp to cart"');
    const screenshot = healed.artifacts.find((artifact) => warning!.artifactIds.includes(artifact.id));
    expect(screenshot).toMatchObject({ kind: 'screenshot', stepIndex: LAMP_STEP });
    expect(healed.events.find((event) => event.type === 'step.passed' && event.data.index === LAMP_STEP)?.data.healed).toEqual({
      from: { strategy: 'role', role: 'button', name: 'Add Desk Lamp to cart', exact: true },
      to: { strategy: 'role', role: 'button', name: 'Add the lamp to cart', exact: true },
    });
    expect(healed.events.find((event) => event.type === 'check.proposed')?.data).toEqual({ checkId, version: 2, basedOn: 1, healedSteps: [LAMP_STEP], existing: false });
    const proposed = await versions();
    expect(proposed.check.version).toBe(1);
    expect(proposed.versions[1]).toMatchObject({ version: 2, state: 'proposed', basedOn: 1, acceptedBy: null, acceptedAt: null });
    expect(proposed.versions[1]!.steps[LAMP_STEP]!.locator).toEqual({ strategy: 'role', role: 'button', name: 'Add the lamp to cart', exact: true });

    // Not applied silently: the next replay still runs version 1, heals again, and points to the same proposal.
    const again = await replay();
    expect(again.status).toBe('passed');
    expect(again.findings.filter((finding) => finding.kind === 'check.healed')).toHaveLength(1);
    expect(again.events.find((event) => event.type === 'check.proposed')?.data).toEqual({ checkId, version: 2, basedOn: 1, healedSteps: [LAMP_STEP], existing: true });
    expect((await versions()).versions).toHaveLength(2);

    // Errors of the accept endpoint: unknown or foreign ids 404, a version that is not a proposal 409.
    const accept = (version: string | number, as = key, id = checkId, collection = 'checks') => callApi(api.base, 'POST', `/api/${collection}/${id}/versions/${version}/accept`, undefined, as);
    expect(await accept(9)).toMatchObject({ status: 404, body: { error: { code: 'check_version.not_found' } } });
    expect(await accept('02')).toMatchObject({ status: 404, body: { error: { code: 'check_version.not_found' } } });
    expect(await accept(2, other.key)).toMatchObject({ status: 404, body: { error: { code: 'check.not_found' } } });
    expect(await accept(2, key, '00000000-0000-4000-8000-000000000000')).toMatchObject({ status: 404, body: { error: { code: 'check.not_found' } } });
    expect(await accept(1)).toMatchObject({ status: 409, body: { error: { code: 'check_version.not_proposed', details: { state: 'compiled' } } } });

    // A person accepts it: the check replays version 2, which finds the reworded button with no healing.
    const accepted = await accept(2, key, checkId, 'scenarios');
    expect(accepted.status).toBe(200);
    const by = `api_key:${(principal.actor as { apiKeyId: string }).apiKeyId}`;
    expect(accepted.body).toMatchObject({ check: { scenarioId: checkId, version: 2, status: 'active' }, version: { version: 2, state: 'accepted', basedOn: 1, acceptedBy: by, acceptedAt: expect.any(String) } });
    expect(await accept(2)).toMatchObject({ status: 409, body: { error: { code: 'check_version.not_proposed', details: { state: 'accepted' } } } });
    const source = await fetch(`${api.base}/api/checks/${checkId}/source`, { headers: { authorization: `Bearer ${key}` } });
    expect(await source.text()).toContain('Add the lamp to cart');

    const clean = await replay();
    expect(clean.status).toBe('passed');
    expect(clean.findings.filter((finding) => finding.kind === 'check.healed')).toEqual([]);
    expect(clean.events.some((event) => event.type === 'check.proposed')).toBe(false);
  });
});
