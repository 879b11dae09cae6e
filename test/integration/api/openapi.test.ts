import { describe, expect, it } from '@jest/globals';
import { createHmac, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { AccessState } from '../../../src/identity/access-state.js';
import { csrfTokenFor } from '../../../src/identity/secret-tokens.js';
import { createSessionStore } from '../../../src/identity/sessions.js';
import { NOT_IN_DOCUMENT } from '../../../src/api/openapi/not-in-document.js';
import { connectInstallation } from '../../../src/store/repository-admission.js';
import { seedAcmeShop } from '../../support/check-fixtures.js';
import { useTestStore } from '../../support/dialects.js';
import { expressRoutes } from '../../support/express-routes.js';
import { useTestApi } from '../../support/use-test-api.js';

const CODEHOST_SECRET = 'codehost-webhook-secret';

/** The document's paths as Express writes them: `{id}` → `:id`. */
const expressPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
  components: { schemas: Record<string, unknown> };
}

/**
 * The document's schema of one answer as a zod schema, built from the served JSON (z.fromJSONSchema), so what is
 * checked is what a client reads, not the zod objects it was generated from. Component refs become `$defs`.
 */
function answerSchema(document: OpenApiDocument, schema: unknown): z.ZodType {
  const json = JSON.stringify({ ...(schema as object), $defs: document.components.schemas }).replaceAll('"#/components/schemas/', '"#/$defs/');
  return z.fromJSONSchema(JSON.parse(json) as Parameters<typeof z.fromJSONSchema>[0], { defaultTarget: 'draft-2020-12' });
}

/** The document path that an actual request path is (a static segment wins over a parameter: `/updates` over `/{id}`). */
function documentedPath(document: OpenApiDocument, actual: string): string | undefined {
  const matches = Object.keys(document.paths).filter((template) =>
    new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`).test(actual),
  );
  return matches.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))[0];
}

describe('the OpenAPI document', () => {
  const store = useTestStore('mysql');
  let organizationId = '';
  /** A person the directory has as an admin of acme (the organization seeded in each test). */
  const readAccess = async (): Promise<AccessState> => ({
    state: 'ready',
    user: { id: 'ada', email: 'ada@acme.test', name: 'Ada' },
    organizations: [{ id: organizationId, name: 'acme', role: 'admin' }],
  });
  const api = useTestApi(store, {
    readAccess,
    // Every optional part on, so every route the service can have is mounted. Nothing here is contacted.
    identity: { issuerUrl: 'http://127.0.0.1:9/', clientId: 'qa', clientSecret: 'secret' },
    identityWebhooks: { signingSecret: 'identity-secret' },
    codehost: { webhookSecret: CODEHOST_SECRET },
    chat: { signingSecret: 'chat-secret', clientId: 'client', clientSecret: 'client-secret', stateSecret: 'state-secret' },
  });

  it('documents every route of the app, and nothing the app does not have', async () => {
    const document = (await (await fetch(`${api.base}/api/openapi.json`)).json()) as OpenApiDocument;
    const documented = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${expressPath(path)}`));
    const left = NOT_IN_DOCUMENT.map(({ method, path }) => `${method} ${path}`);
    const routes = expressRoutes(api.app).map(({ method, path }) => `${method} ${path}`);
    expect(routes.length).toBeGreaterThan(60);
    expect(routes.filter((route) => !documented.includes(route) && !left.includes(route))).toEqual([]);
    expect(documented.filter((route) => !routes.includes(route))).toEqual([]);
    expect(left.filter((route) => !routes.includes(route))).toEqual([]);
    expect(documented.filter((route) => left.includes(route))).toEqual([]);
  });

  it('describes the real answers: each status, media type and body is the one the document gives', async () => {
    const document = (await (await fetch(`${api.base}/api/openapi.json`)).json()) as OpenApiDocument;
    const acme = await seedAcmeShop(store());
    organizationId = acme.organizationId;
    const session = await createSessionStore(store(), { idleMs: 3_600_000, absoluteMs: 3_600_000 }).create('ada', new Date());
    const checked: string[] = [];

    /**
     * One request, its answer checked against the document: the path and method are documented, the status is one
     * of the operation's, and the body (every line of an NDJSON stream, up to `lines`) fits that status's schema.
     */
    async function call(
      method: string,
      path: string,
      options: { body?: unknown; auth?: 'key' | 'session' | 'none'; headers?: Record<string, string>; lines?: number } = {},
    ): Promise<{ status: number; body: Record<string, any> }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- read field by field
      const auth = options.auth ?? 'key';
      const response = await fetch(`${api.base}${path}`, {
        method,
        headers: {
          ...(auth === 'key' ? { authorization: `Bearer ${acme.key}` } : {}),
          ...(auth === 'session' ? { cookie: `qa_session=${session.id}`, 'x-csrf-token': csrfTokenFor(session.id) } : {}),
          ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
        },
        body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
      });
      const template = documentedPath(document, path.split('?')[0]!);
      const operation = template === undefined ? undefined : document.paths[template]![method.toLowerCase()];
      const what = `${method} ${path} → ${response.status}`;
      expect({ what, documented: operation !== undefined }).toEqual({ what, documented: true });
      const answer = operation!.responses[String(response.status)];
      expect({ what, statusDocumented: answer !== undefined }).toEqual({ what, statusDocumented: true });
      const mediaType = response.headers.get('content-type')?.split(';')[0];
      const content = answer!.content;
      if (content === undefined) {
        expect({ what, body: await response.text() }).toEqual({ what, body: '' });
        checked.push(what);
        return { status: response.status, body: {} };
      }
      expect({ what, mediaType: mediaType !== undefined && mediaType in content }).toEqual({ what, mediaType: true });
      const schema = answerSchema(document, content[mediaType!]!.schema);
      let body: unknown;
      if (mediaType === 'application/x-ndjson') {
        const lines = await readLines(response, options.lines ?? Infinity);
        expect(lines.length).toBeGreaterThan(0);
        for (const line of lines) expectFits(schema, JSON.parse(line), `${what}: ${line}`);
        body = lines.map((line) => JSON.parse(line) as unknown);
      } else {
        body = mediaType === 'application/json' ? await response.json() : await response.text();
        expectFits(schema, body, what);
      }
      checked.push(what);
      return { status: response.status, body: body as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    }

    // The public routes.
    expect((await call('GET', '/healthz', { auth: 'none' })).status).toBe(200);
    expect((await call('GET', '/readyz', { auth: 'none' })).status).toBe(200);
    expect((await call('GET', '/api/openapi.json', { auth: 'none' })).status).toBe(200);

    // An admin's session: a key made through the API, then the admin pages.
    expect((await call('GET', '/api/session', { auth: 'session' })).body.state).toBe('ready');
    const created = await call('POST', '/api/keys', { auth: 'session', body: { label: 'openapi' } });
    expect(created.status).toBe(201);
    const key = created.body.key as string;
    expect((await call('GET', '/api/keys', { auth: 'session' })).body.keys.length).toBe(2);
    expect((await call('GET', '/api/execution-flags', { auth: 'session' })).status).toBe(200);
    expect((await call('GET', '/api/installations', { auth: 'session' })).status).toBe(200);
    expect((await call('PUT', '/api/execution-flags/teleport', { auth: 'session', body: { paused: true } })).body.error.code).toBe('flags.unknown_capability');
    expect((await call('POST', '/api/keys', { body: {} })).body.error.code).toBe('role.forbidden');
    const withNewKey = await fetch(`${api.base}/api/repositories`, { headers: { authorization: `Bearer ${key}` } });
    expect(withNewKey.status).toBe(200);

    // A repository, connected through the API: its onboarding's ingestion run, its coverage.
    await connectInstallation(store(), 'codehost', '42', 'acme');
    const connected = await call('POST', '/api/repositories', {
      body: { provider: 'codehost', providerInstallationId: '42', owner: 'acme', name: 'shop', defaultBranch: 'main', cloneUrl: 'https://code.example/acme/shop.git', baseUrl: 'https://shop.example' },
    });
    expect(connected.status).toBe(202);
    await call('GET', '/api/repositories');
    await call('GET', `/api/repositories/${connected.body.repositoryId}`);
    await call('GET', `/api/repositories/${acme.repositoryId}/coverage`);
    await call('PATCH', `/api/repositories/${acme.repositoryId}`, { body: { pullRequests: { runDrafts: true } } });
    expect((await call('GET', `/api/ingestions/${connected.body.ingestionRunId}`)).body.status).toBe('queued');

    // Jobs in both naming sets: created, awaiting answers, listed, read, cancelled, followed to their end.
    const job = await call('POST', '/api/jobs', { body: { projectId: acme.repositoryId, naturalLanguageTask: 'Check that the pricing page lists three plans', baseUrl: 'https://shop.example', trigger: 'cli' } });
    expect(job.status).toBe(202);
    const review = await call('POST', '/api/runs', { body: { repositoryId: acme.repositoryId, naturalLanguageTask: 'Buy the cheapest item with the saved card', baseUrl: 'https://shop.example', trigger: 'cli' } });
    expect(review.body.status).toBe('review_required');
    await call('POST', '/api/runs', { body: { repositoryId: acme.repositoryId, scenarioId: acme.checkId, baseUrl: 'https://shop.example', trigger: 'cli' } });
    await call('GET', '/api/jobs?limit=2');
    await call('GET', '/api/runs?status=queued,review_required');
    await call('GET', `/api/jobs/${job.body.jobId}`);
    await call('GET', `/api/runs/${review.body.runId}`);
    expect((await call('POST', `/api/jobs/${job.body.jobId}/cancel`)).body.status).toBe('cancelled');
    await call('GET', `/api/jobs/${job.body.jobId}/events`);
    await call('GET', '/api/runs/updates', { lines: 1 });
    const answered = await call('POST', `/api/runs/${review.body.runId}/clarifications`, { body: { answers: review.body.resolution.questions.map(() => 'No: stop before paying') } });
    expect(answered.body.parentRunId).toBe(review.body.runId);

    // Checks and scenarios, and a schedule of one.
    await call('GET', '/api/checks');
    await call('GET', `/api/scenarios?repositoryId=${acme.repositoryId}`);
    await call('GET', `/api/checks/${acme.checkId}`);
    await call('GET', `/api/scenarios/${acme.checkId}/source`);
    const schedule = await call('POST', '/api/schedules', { body: { testId: acme.checkId, cron: '0 6 * * 1-5', baseUrl: 'https://shop.example' } });
    expect(schedule.status).toBe(201);
    await call('GET', '/api/schedules');
    await call('GET', `/api/schedules/${schedule.body.scheduleId}`);
    await call('PATCH', `/api/schedules/${schedule.body.scheduleId}`, { body: { enabled: false } });
    expect((await call('DELETE', `/api/schedules/${schedule.body.scheduleId}`)).status).toBe(204);

    // Errors: each code is one the document lists for that status.
    expect((await call('GET', '/api/jobs', { auth: 'none' })).status).toBe(401);
    expect((await call('GET', `/api/jobs/${randomUUID()}`)).body.error.code).toBe('job.not_found');
    expect((await call('GET', `/api/scenarios/${randomUUID()}`)).body.error.code).toBe('check.not_found');
    expect((await call('POST', '/api/jobs', { body: { projectId: acme.repositoryId } })).body.error.code).toBe('request.invalid');
    expect((await call('POST', '/api/runs', { body: '{not json' })).body.error.code).toBe('request.invalid_json');
    expect((await call('GET', '/api/jobs?cursor=nonsense')).body.error.code).toBe('request.invalid_cursor');
    expect((await call('POST', `/api/jobs/${job.body.jobId}/cancel`)).body.error.code).toBe('job.not_cancellable');
    expect((await call('DELETE', '/api/keys/000000000000', { auth: 'session' })).body.error.code).toBe('api_key.not_found');

    // A signed delivery of the code host, and one without its signature.
    const delivery = JSON.stringify({ action: 'opened', zen: 'openapi' });
    const signature = `sha256=${createHmac('sha256', CODEHOST_SECRET).update(delivery).digest('hex')}`;
    const delivered = await call('POST', '/api/webhooks/codehost', {
      auth: 'none', body: delivery, headers: { 'x-codehost-signature-256': signature, 'x-codehost-event': 'ping', 'x-codehost-delivery': randomUUID() },
    });
    expect(delivered.body.receipt).toBe('accepted');
    expect((await call('POST', '/api/webhooks/codehost', { auth: 'none', body: delivery })).body.error.code).toBe('webhook.signature_missing');

    expect(checked.length).toBeGreaterThan(45);
  });
});

/** The answer fits the schema exactly: parsing reports no issue. */
function expectFits(schema: z.ZodType, answer: unknown, what: string): void {
  const parsed = schema.safeParse(answer);
  expect({ what, issues: parsed.success ? [] : parsed.error.issues }).toEqual({ what, issues: [] });
}

/** The first `count` lines of an NDJSON answer (all of them when it ends sooner); then the stream is let go. */
async function readLines(response: Response, count: number): Promise<string[]> {
  const lines: string[] = [];
  let pending = '';
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  while (lines.length < count) {
    const { done, value } = await reader.read();
    if (done) break;
    pending += decoder.decode(value, { stream: true });
    const parts = pending.split('\n');
    pending = parts.pop()!;
    lines.push(...parts.filter(Boolean));
  }
  await reader.cancel();
  return lines.slice(0, count);
}
