import { beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { organizationRoutes, type AppDeps } from '../../../src/api/app.js';
import { Session } from '../../../src/store/entities/session.entity.js';
import { callApi } from '../../support/api-server.js';
import { insertCheck, insertRepository, seedAcmeShop, type AcmeShop } from '../../support/check-fixtures.js';
import { useTestStore } from '../../support/dialects.js';
import { deactivateMembership, deleteDirectoryUser, putInDirectory } from '../../support/directory-rows.js';
import { signIn, usePeopleService } from '../../support/people-service.js';
import { TestBrowser } from '../../support/signed-in-browser.js';

const RUNNABLE = 'Check that the pricing page lists three plans';

/** MCP over streamable HTTP (`/mcp`, mounted beside the organization routers, behind the same authentication). */
const MCP_HEADERS = { accept: 'application/json, text/event-stream' };
const mcpCall = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
interface McpAnswer {
  result?: { isError?: boolean; structuredContent?: Record<string, unknown>; content?: Array<{ text: string }> };
}
/** The JSON-RPC message of an MCP answer: the `data:` line of its one server-sent event. */
function mcpMessage(text: string): McpAnswer {
  const data = text.split('\n').find((line) => line.startsWith('data: '));
  if (data === undefined) throw new Error(`no MCP message in ${JSON.stringify(text)}`);
  return JSON.parse(data.slice('data: '.length)) as McpAnswer;
}

/** What Express 5 keeps of a mounted route (router.stack: its layers). */
interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

/**
 * Every route of every organization router, read from the routers the app mounts (not a hand-kept sample): a
 * route added later is in this table without anyone remembering to add it.
 */
function everyOrganizationRoute(): Array<{ method: string; path: string }> {
  const unused = {} as Pick<AppDeps, 'dataSource' | 'jobs' | 'feed' | 'updates' | 'repositories' | 'checks' | 'schedules'>;
  return organizationRoutes(unused).flatMap(({ path, router }) =>
    (router as unknown as { stack: RouterLayer[] }).stack.flatMap(({ route }) =>
      route ? Object.keys(route.methods).map((method) => ({ method: method.toUpperCase(), path: `${path}${route.path === '/' ? '' : route.path}` })) : [],
    ),
  );
}

/** A route's path with its parameters filled in (`:version` a number, the rest a well-formed id). */
function concrete(path: string, ids: Record<string, string> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => ids[name] ?? (name === 'version' ? '1' : randomUUID()));
}

const ROUTES = everyOrganizationRoute();

describe('the table of organization routes', () => {
  it('covers jobs and runs with their streams and downloads, checks and scenarios, repositories and schedules', () => {
    const listed = ROUTES.map(({ method, path }) => `${method} ${path}`);
    for (const expected of [
      'POST /api/jobs', 'GET /api/jobs/:id', 'GET /api/jobs/:id/events', 'GET /api/jobs/:id/artifacts/:artifactId', 'POST /api/jobs/:id/cancel',
      'POST /api/jobs/:id/clarifications', 'POST /api/jobs/:id/findings/dispute', 'GET /api/runs/:id/events', 'GET /api/checks', 'GET /api/checks/:id/source',
      'POST /api/checks/:id/versions/:version/accept', 'GET /api/scenarios/:id', 'POST /api/repositories', 'PATCH /api/repositories/:id',
      'GET /api/schedules', 'DELETE /api/schedules/:id', 'POST /api/keys', 'PUT /api/execution-flags/:capability', 'POST /api/installations/:installationId/connect',
    ]) expect(listed).toContain(expected);
    // 7 job routes in each naming set, 4 check routes in each, 4 for repositories, 4 for schedules, 6 admin routes.
    expect(ROUTES.length).toBeGreaterThanOrEqual(36);
  });
});

// MySQL only: gating is HTTP behaviour over the session and directory reads, which run on both dialects in
// test/integration/identity/session-store.test.ts and identity/read-access.test.ts.
describe('sessions on organization routes', () => {
  const store = useTestStore('mysql');
  const service = usePeopleService(store);
  const base = () => service().base;
  let shop: AcmeShop;

  beforeEach(async () => {
    shop = await seedAcmeShop(store());
  });

  it.each(ROUTES)('a pending session gets 403 setup.required on $method $path, CSRF token and all', async ({ method, path }) => {
    const browser = new TestBrowser();
    await signIn(service(), browser, 'pending');
    const body = method === 'GET' || method === 'DELETE' ? undefined : {};
    const answer = await browser.call(base(), method, concrete(path), body);
    expect({ route: `${method} ${path}`, status: answer.status, code: answer.body?.error?.code }).toEqual({ route: `${method} ${path}`, status: 403, code: 'setup.required' });
    expect(answer.body.error.details.missing).toEqual(['user', 'organization', 'membership']);
  });

  it('a pending session gets 403 setup.required at the MCP endpoint too, CSRF token and all', async () => {
    const browser = new TestBrowser();
    await signIn(service(), browser, 'pending');
    const answer = await browser.call(base(), 'POST', '/mcp', mcpCall(1, 'list_checks', {}), MCP_HEADERS);
    expect([answer.status, answer.body?.error?.code, answer.body?.error?.details?.missing]).toEqual([403, 'setup.required', ['user', 'organization', 'membership']]);
  });

  describe('once ready', () => {
    let browser: TestBrowser;
    let otherJobId: string;
    let otherScheduleId: string;
    let otherCheckId: string;
    let otherRepositoryId: string;

    beforeEach(async () => {
      browser = new TestBrowser();
      await putInDirectory(store(), 'member_1', [{ serviceOrganizationId: shop.organizationId, name: 'Acme', role: 'member' }]);
      await signIn(service(), browser, 'member_1');
      otherRepositoryId = await insertRepository(store(), shop.otherOrganizationId);
      otherCheckId = await insertCheck(store(), shop.otherOrganizationId, otherRepositoryId, 'active');
      const job = await callApi(base(), 'POST', '/api/jobs', { projectId: otherRepositoryId, baseUrl: 'https://shop.example', trigger: 'cli', naturalLanguageTask: RUNNABLE }, shop.otherKey);
      expect(job.status).toBe(202);
      otherJobId = job.body.jobId as string;
      const schedule = await callApi(base(), 'POST', '/api/schedules', { testId: otherCheckId, baseUrl: 'https://shop.example', cron: '0 6 * * *', timezone: 'UTC' }, shop.otherKey);
      expect(schedule.status).toBe(201);
      otherScheduleId = schedule.body.scheduleId as string;
    });

    it('acts as a person of the organization in use: creates and reads jobs as a key does', async () => {
      const created = await browser.call(base(), 'POST', '/api/jobs', { projectId: shop.repositoryId, baseUrl: 'https://shop.example', trigger: 'cli', naturalLanguageTask: RUNNABLE });
      expect(created.status).toBe(202);
      const read = await browser.call(base(), 'GET', `/api/jobs/${created.body.jobId as string}`);
      expect(read.status).toBe(200);
      expect(read.body.job.startedBy).toEqual({ kind: 'person', actor: 'user:member_1' });
      const byKey = await callApi(base(), 'GET', `/api/jobs/${created.body.jobId as string}`, undefined, shop.key);
      expect(byKey.status).toBe(200);
      expect(byKey.body.job.startedBy).toEqual({ kind: 'person', actor: 'user:member_1' });
      const keyJob = await callApi(base(), 'GET', `/api/runs/${otherJobId}`, undefined, shop.otherKey);
      expect(keyJob.body.run.startedBy).toEqual({ kind: 'machine', actor: expect.stringMatching(/^api_key:[0-9a-f-]{36}$/) });
      expect(JSON.stringify(keyJob.body)).not.toContain(shop.otherKey);
      const checks = await browser.call(base(), 'GET', '/api/checks');
      expect(checks.status).toBe(200);
      expect(JSON.stringify(checks.body)).toContain(shop.checkId);
      expect(JSON.stringify(checks.body)).not.toContain(otherCheckId);
    });

    it("answers 404 for another organization's ids, as for a key", async () => {
      for (const [path, code] of [
        [`/api/jobs/${otherJobId}`, 'job.not_found'],
        [`/api/runs/${otherJobId}/events`, 'job.not_found'],
        [`/api/checks/${otherCheckId}`, 'check.not_found'],
        [`/api/repositories/${otherRepositoryId}`, 'repository.not_found'],
        [`/api/schedules/${otherScheduleId}`, 'schedule.not_found'],
      ] as const) {
        const bySession = await browser.call(base(), 'GET', path);
        const byKey = await callApi(base(), 'GET', path, undefined, shop.key);
        expect({ path, session: [bySession.status, bySession.body.error?.code], key: [byKey.status, byKey.body.error?.code] }).toEqual({ path, session: [404, code], key: [404, code] });
      }
      const cancel = await browser.call(base(), 'POST', `/api/jobs/${otherJobId}/cancel`);
      expect(cancel.status).toBe(404);
    });

    it('refuses a state-changing request without the CSRF token, with a wrong one, with another session’s, or from another origin', async () => {
      const other = new TestBrowser();
      await signIn(service(), other, 'member_1');
      const attempt = (headers: Record<string, string>, csrf = true) => browser.call(base(), 'POST', `/api/jobs/${otherJobId}/cancel`, undefined, headers, csrf);
      for (const [label, answer] of [
        ['none', await attempt({}, false)],
        ['wrong', await attempt({ 'x-csrf-token': 'A'.repeat(43) })],
        ["another session's", await attempt({ 'x-csrf-token': other.csrfToken! })],
        ['foreign origin', await attempt({ origin: 'https://evil.example' })],
      ] as const) {
        expect({ label, status: answer.status, code: answer.body.error?.code }).toEqual({ label, status: 403, code: 'csrf.refused' });
      }
      // With both right, the request reaches the route (and finds no such job in this organization).
      expect((await attempt({ origin: base() })).status).toBe(404);
      // A key needs neither.
      const byKey = await fetch(`${base()}/api/jobs/${otherJobId}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${shop.otherKey}`, origin: 'https://evil.example' } });
      expect(byKey.status).toBe(200);
    });

    it('reaches the MCP tools as the organization in use, only with the CSRF token, and gets 404 for another organization\'s job', async () => {
      const call = mcpCall(1, 'get_job', { jobId: otherJobId });
      const withoutToken = await browser.call(base(), 'POST', '/mcp', call, MCP_HEADERS, false);
      expect([withoutToken.status, withoutToken.body?.error?.code]).toEqual([403, 'csrf.refused']);
      const foreign = await browser.call(base(), 'POST', '/mcp', call, { ...MCP_HEADERS, origin: 'https://evil.example' });
      expect([foreign.status, foreign.body?.error?.code]).toEqual([403, 'csrf.refused']);

      const headers = { ...MCP_HEADERS, 'x-csrf-token': browser.csrfToken! };
      const other = await browser.request(`${base()}/mcp`, { method: 'POST', body: call, headers });
      expect(other.status).toBe(200);
      const refused = mcpMessage(other.text).result;
      expect(refused?.isError).toBe(true);
      expect(refused?.content?.[0]?.text).toContain('job.not_found');
      const checks = await browser.request(`${base()}/mcp`, { method: 'POST', body: mcpCall(2, 'list_checks', {}), headers });
      expect(checks.status).toBe(200);
      const listed = JSON.stringify(mcpMessage(checks.text).result?.structuredContent);
      expect(listed).toContain(shop.checkId);
      expect(listed).not.toContain(otherCheckId);
    });

    it('serves the job page the bot links to: sign-in first, then the page, with a 404 for a job of no organization of theirs', async () => {
      const created = await callApi(base(), 'POST', '/api/jobs', { projectId: shop.repositoryId, baseUrl: 'https://shop.example', trigger: 'cli', naturalLanguageTask: RUNNABLE }, shop.key);
      const jobId = created.body.jobId as string;
      const visitor = new TestBrowser();
      service().idp.signInAs({ sub: 'member_1' });
      const hops = await visitor.navigate(`${base()}/jobs/${jobId}`);
      expect(hops.map((hop) => hop.status)).toEqual([302, 302, 302, 302, 200]);
      expect(hops[0]!.location).toBe(`${base()}/auth/login?returnTo=${encodeURIComponent(`/jobs/${jobId}`)}`);
      expect(hops[3]!.location).toBe(`${base()}/jobs/${jobId}`);
      // The dashboard's page (web/), which reads the job from the API (test/web/ tries it in a browser).
      expect(hops[4]!.text).toContain('<div id="root"></div>');
      expect((await visitor.request(`${base()}/jobs/${otherJobId}`)).status).toBe(404);
      expect((await visitor.request(`${base()}/jobs/${randomUUID()}`)).status).toBe(404);
    });

    it('ends access at the next request when the membership is deactivated, and destroys the session', async () => {
      expect((await browser.call(base(), 'GET', '/api/repositories')).status).toBe(200);
      await deactivateMembership(store(), 'member_1', shop.organizationId);
      const next = await browser.call(base(), 'GET', '/api/repositories');
      expect(next.status).toBe(401);
      expect(await store().getRepository(Session).countBy({ userId: 'member_1' })).toBe(0);
    });

    it('ends access at the next request when the user is deleted', async () => {
      expect((await browser.call(base(), 'GET', '/api/session')).body.state).toBe('ready');
      await deleteDirectoryUser(store(), 'member_1');
      expect((await browser.call(base(), 'GET', '/api/schedules')).status).toBe(401);
      expect((await browser.call(base(), 'GET', '/api/session')).status).toBe(401);
    });
  });
});
