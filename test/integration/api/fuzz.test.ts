import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { Agent, request } from 'node:http';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { connectInstallation } from '../../../src/store/repository-admission.js';
import { callApi, startTestApi, type TestApi } from '../../support/api-server.js';
import { insertCheck, insertRepository } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

/**
 * Generated malformed requests against every route, with and without a valid key: no answer may be a 5xx, every
 * error the API itself writes has the error body, and the server still answers afterwards. Seeded, so a failure
 * replays (FUZZ_SEED=<seed> to try another sequence).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_124);
const REQUESTS_PER_DIALECT = 360;

/** mulberry32: small, fast and good enough to pick test cases. */
function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (below: number) => Math.floor(next() * below);
  return { next, int, pick: <T>(items: readonly T[]): T => items[int(items.length)]! };
}
type Random = ReturnType<typeof createRandom>;

const uuidFrom = (random: Random) =>
  Array.from({ length: 32 }, () => random.int(16).toString(16))
    .join('')
    .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

interface Fixtures {
  key: string;
  otherKey: string;
  repositoryId: string;
  checkId: string;
  jobId: string;
  scheduleId: string;
  otherJobId: string;
}

/** A route: method, path with `:id`/`:artifactId` placeholders, and a valid body to mutate (if it takes one). */
interface Route {
  method: string;
  path: string;
  body?: (f: Fixtures) => Record<string, unknown>;
}

const TASK = 'Check that the pricing page lists three plans';
const ROUTES: Route[] = [
  ...['jobs', 'runs'].flatMap((collection): Route[] => [
    {
      method: 'POST',
      path: `/api/${collection}`,
      body: (f) => ({ [collection === 'jobs' ? 'projectId' : 'repositoryId']: f.repositoryId, baseUrl: 'https://shop.example', trigger: 'cli', naturalLanguageTask: TASK }),
    },
    { method: 'POST', path: `/api/${collection}/:id/cancel` },
    { method: 'POST', path: `/api/${collection}/:id/clarifications`, body: () => ({ answers: ['yes'] }) },
    { method: 'POST', path: `/api/${collection}/:id/findings/dispute`, body: () => ({ reason: 'not a bug' }) },
    { method: 'GET', path: `/api/${collection}?limit=10&status=failed,errored` },
    { method: 'GET', path: `/api/${collection}/updates` },
    { method: 'GET', path: `/api/${collection}/:id/events?after=0` },
    { method: 'GET', path: `/api/${collection}/:id/artifacts/:artifactId` },
    { method: 'GET', path: `/api/${collection}/:id` },
  ]),
  ...['checks', 'scenarios'].flatMap((collection): Route[] => [
    { method: 'GET', path: `/api/${collection}?limit=10` },
    { method: 'GET', path: `/api/${collection}/:id/source` },
    { method: 'POST', path: `/api/${collection}/:id/versions/1/accept` },
    { method: 'GET', path: `/api/${collection}/:id` },
  ]),
  {
    method: 'POST',
    path: '/api/repositories',
    body: () => ({
      provider: 'codehost', providerInstallationId: '42', owner: 'acme', name: 'shop', defaultBranch: 'main',
      cloneUrl: 'https://code.example/acme/shop.git', baseUrl: 'https://shop.example', networkAllowlist: ['cdn.example'],
      testValueSecretRefs: { demoUser: 'DEMO_USER' }, evidenceProbeRefs: {},
    }),
  },
  { method: 'GET', path: '/api/repositories' },
  { method: 'GET', path: '/api/repositories/:id' },
  { method: 'POST', path: '/api/schedules', body: (f) => ({ testId: f.checkId, intervalMinutes: 60, baseUrl: 'https://shop.example' }) },
  { method: 'GET', path: '/api/schedules?limit=5' },
  { method: 'GET', path: '/api/schedules/:id' },
  { method: 'PATCH', path: '/api/schedules/:id', body: () => ({ enabled: false }) },
  { method: 'DELETE', path: '/api/schedules/:id' },
  { method: 'GET', path: '/api/installations' },
  { method: 'GET', path: '/healthz' },
  { method: 'GET', path: '/readyz' },
];

/** The id a route's `:id` names, for the caller's own resources. */
function ownId(route: Route, f: Fixtures): string {
  if (route.path.includes('/repositories/')) return f.repositoryId;
  if (route.path.includes('/schedules/')) return f.scheduleId;
  if (route.path.includes('/checks/') || route.path.includes('/scenarios/')) return f.checkId;
  return f.jobId;
}

/** Ways to spoil an id in a path (already percent-encoded where they need to be). */
const ID_FORMS: ((id: string, random: Random, f: Fixtures) => string)[] = [
  (id) => id,
  (id) => id.toUpperCase(),
  (id) => `${id}%20`,
  (id) => `%20${id}`,
  (id) => `${id}%00`,
  (id) => `${id}%0a`,
  () => '%ff',
  () => '%',
  () => '%zz',
  () => '%E0%A4%A',
  () => '%C0%AF',
  () => '..',
  () => '%2e%2e',
  (id) => `..%2f${id}`,
  (id) => `${id}%2f..`,
  (id) => id.repeat(30),
  () => 'x'.repeat(5_000),
  (_id, random) => uuidFrom(random),
  (_id, _random, f) => f.otherJobId,
  () => '%F0%9F%98%80',
  () => '',
  (id) => `${id};drop`,
  (id) => `${id}'%20OR%20'1'='1`,
];

/** JSON values of every kind a field should not get (and some it should). */
function value(random: Random, depth = 0): unknown {
  const kinds: (() => unknown)[] = [
    () => null,
    () => random.next() < 0.5,
    () => random.int(2_000_000) - 1_000_000,
    () => random.pick([1e308, -0, 0.5, Number.MAX_SAFE_INTEGER + 2]),
    () => String(random.int(1000)),
    () => '',
    () => ' \t ',
    () => 'x'.repeat(random.pick([64, 65, 255, 256, 2_048, 2_049, 4_001, 20_000])),
    () => 'a\u0000b',
    () => '\ud800\udfff\ud800',
    () => 'é😀\u202e',
    () => random.pick(['https://user:pw@shop.example', 'javascript:alert(1)', 'http://[::1]:99999/', `https://${'a'.repeat(2_100)}.example`, 'ftp://shop.example']),
    () => random.pick(['cli', 'schedule', 'CLI', 'web ']),
    () => uuidFrom(random),
    () => (depth < 3 ? Array.from({ length: random.int(4) }, () => value(random, depth + 1)) : []),
    () => (depth < 3 ? { [random.pick(['a', 'constructor', 'prototype', 'toString', 'hasOwnProperty'])]: value(random, depth + 1) } : {}),
  ];
  return random.pick(kinds)();
}

const nestedObject = (depth: number): Record<string, unknown> => (depth <= 1 ? { leaf: '\u0000' } : { a: nestedObject(depth - 1) });

/** Values that pass validation but are awkward to store: they reach the database. */
const EDGE_VALUES: Record<string, unknown[]> = {
  naturalLanguageTask: [
    'Check that the pricing page lists three plans \u0000 and nothing else',
    'Check that the 😀 page lists three plans',
    `Check that the page lists ${'é'.repeat(3_900)}`,
    'Check that the \ud800 page lists plans',
    `Check ${'x'.repeat(3_990)}`,
  ],
  baseUrl: [`https://shop.example/${'p'.repeat(2_048 - 21)}`, 'http://shop.example:8080/ä?q=%00#f', 'https://xn--bcher-kva.example/', 'http://127.0.0.1:1/'],
  cloneUrl: [`https://code.example/${'c'.repeat(2_048 - 21)}`],
  channelContext: [nestedObject(16), { '': 1, ' ': [null, '😀'.repeat(1_000)] }, { constructor: { prototype: 1 }, toString: 'x' }],
  commitSha: ['a'.repeat(64), 'ABCDEF1'],
  revision: ['f'.repeat(64)],
  networkAllowlist: [Array.from({ length: 100 }, (_, index) => `${'h'.repeat(60)}.${'i'.repeat(60)}.${'j'.repeat(60)}.host${index}.example`)],
  defaultBranch: ['é'.repeat(255), '😀'.repeat(127), 'feature/ä-ö'],
  name: ['x'.repeat(100), '.a'],
  owner: ['a'.repeat(39)],
  providerInstallationId: ['9'.repeat(64)],
  testValueSecretRefs: [Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`value${index}`, `SECRET_${index}`]))],
  answers: [['😀', '\u0000', 'y'.repeat(2_000)]],
  reason: ['😀'.repeat(1_000), '\u0000', ` ${'é'.repeat(1_000)} `],
  cron: ['59 23 L * 5#3', '*/5 * * * *'],
  timezone: ['America/Argentina/ComodRivadavia', 'utc'],
  intervalMinutes: [5, 10_080],
};

/** Request bodies: a valid one with a field spoiled, or something that is not that body at all. */
function bodyOf(route: Route, random: Random, f: Fixtures, awkward: boolean): Buffer | string | undefined {
  const valid = route.body?.(f) ?? {};
  const field = random.pick([...Object.keys(valid), 'extra', 'channelContext', 'networkAllowlist', 'baseUrl']);
  const spoiled = JSON.stringify({ ...valid, [field]: value(random) });
  const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const edgeField = random.pick(Object.keys(valid).filter((name) => name in EDGE_VALUES).concat('channelContext'));
  const edge = () => JSON.stringify({ ...valid, [edgeField]: random.pick(EDGE_VALUES[edgeField]!) });
  if (awkward) return route.body ? edge() : undefined;
  const kinds: (() => Buffer | string | undefined)[] = [
    () => undefined,
    () => JSON.stringify(valid),
    edge,
    edge,
    edge,
    edge,
    () => spoiled,
    () => spoiled,
    () => spoiled,
    () => JSON.stringify(value(random)),
    () => `${JSON.stringify(valid).slice(0, -1)},"channelContext":${deep(random.pick([16, 32, 33, 200, 20_000]))}}`,
    () => `${'['.repeat(30_000)}${']'.repeat(30_000)}`,
    () => `${JSON.stringify(valid).slice(0, -1)},"__proto__":{"admin":true}}`,
    () => `{"__proto__":${JSON.stringify(valid)}}`,
    () => `${JSON.stringify(valid).slice(0, -1)},"constructor":{"prototype":{"polluted":1}}}`,
    () => Buffer.concat([Buffer.from(spoiled.slice(0, -2)), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]), Buffer.from('"}')]),
    () => spoiled.replace('"', '"\u0000'),
    () => `\ufeff${JSON.stringify(valid)}`,
    () => JSON.stringify(valid).slice(0, random.int(20)),
    () => 'x'.repeat(random.pick([70_000, 300_000])),
    () => JSON.stringify({ ...valid, naturalLanguageTask: 'y'.repeat(300_000) }),
    () => JSON.stringify(Object.values(valid)),
    () => JSON.stringify(Object.fromEntries(Object.entries(valid).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]))),
    () => 'projectId=1&baseUrl=x',
  ];
  return random.pick(kinds)();
}

function headersOf(random: Random, f: Fixtures, body: Buffer | string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  const auth = random.pick([
    ...Array<string>(10).fill(`Bearer ${f.key}`), undefined, undefined, `Bearer ${f.otherKey}`, 'Bearer', 'Bearer ',
    `Bearer  ${f.key}`, `bearer ${f.key}`, `Basic ${Buffer.from('a:b').toString('base64')}`, `Bearer ${f.key}x`,
    `Bearer qa_${'0'.repeat(12)}_${'A'.repeat(43)}`, `Bearer ${'k'.repeat(8_000)}`, `Bearer ${f.key}, Bearer ${f.otherKey}`,
  ]);
  if (auth !== undefined) headers.authorization = auth;
  if (body !== undefined) {
    const type = random.pick([
      ...Array<string>(12).fill('application/json'), 'application/json; charset=utf-8', 'application/json; charset=latin1',
      'application/json; charset=utf-16', 'application/json; charset=nope', 'text/plain', 'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x', 'application/vnd.api+json', '*/*', 'application/json; charset', ';;;', undefined,
    ]);
    if (type !== undefined) headers['content-type'] = type;
    const encoding = random.pick([...Array<undefined>(15).fill(undefined), 'gzip', 'br', 'deflate', 'identity', 'x-unknown', 'gzip, br', 'GZIP']);
    if (encoding !== undefined) headers['content-encoding'] = encoding;
  }
  if (random.next() < 0.05) headers['x-filler'] = 'h'.repeat(random.pick([4_000, 20_000]));
  if (random.next() < 0.05) headers.accept = 'application/x-ndjson, */*;q=0.1';
  return headers;
}

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/** One raw request (no client-side normalisation of the path); an NDJSON stream is cut once its status is known. */
function send(port: number, agent: Agent, method: string, path: string, headers: Record<string, string>, body?: Buffer | string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      answered = true;
      const contentType = res.headers['content-type'] ?? '';
      if (contentType.includes('ndjson')) {
        res.destroy();
        resolve({ status: res.statusCode!, contentType, body: '' });
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, contentType, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer to ${method} ${path} within 10 s`)));
    // The server may answer (401, 413) and close before a large body is sent: the answer is what counts.
    req.on('error', (error) => (answered ? undefined : reject(error)));
    req.end(body);
  });
}

forEachDialect('API fuzz', (dialect) => {
  const store = useTestStore(dialect);
  let api: TestApi;
  let port: number;
  let fixtures: Fixtures;

  beforeAll(async () => {
    api = await startTestApi(store(), { secrets: {} });
    port = Number(new URL(api.base).port);
    const mine = await createApiKey(store(), 'acme');
    const theirs = await createApiKey(store(), 'globex');
    await connectInstallation(store(), 'codehost', '42', 'acme');
    const repositoryId = await insertRepository(store(), mine.organization.id);
    const checkId = await insertCheck(store(), mine.organization.id, repositoryId, 'active');
    const otherRepositoryId = await insertRepository(store(), theirs.organization.id);
    const create = async (key: string, projectId: string) =>
      (await callApi(api.base, 'POST', '/api/jobs', { projectId, baseUrl: 'https://shop.example', trigger: 'cli', naturalLanguageTask: TASK }, key)).body.jobId as string;
    const schedule = await callApi(api.base, 'POST', '/api/schedules', { testId: checkId, intervalMinutes: 60, baseUrl: 'https://shop.example' }, mine.key);
    fixtures = {
      key: mine.key,
      otherKey: theirs.key,
      repositoryId,
      checkId,
      jobId: await create(mine.key, repositoryId),
      scheduleId: schedule.body.scheduleId as string,
      otherJobId: await create(theirs.key, otherRepositoryId),
    };
  });

  afterAll(async () => {
    await api?.close();
  });

  it(`answers ${REQUESTS_PER_DIALECT} generated malformed requests (seed ${SEED}) with no 5xx, and still answers after`, async () => {
    const random = createRandom(SEED);
    // A connection per request: the server may close one it answered before reading the body (401, 413), and a
    // kept-alive socket reused after that would fail on the client's side, not the server's.
    const agent = new Agent({ keepAlive: false });
    const serverErrors: string[] = [];
    const statuses = new Map<number, number>();
    try {
      for (let index = 0; index < REQUESTS_PER_DIALECT; index += 1) {
        const route = ROUTES[index % ROUTES.length]!;
        // Two in five are well-formed requests with awkward values, which pass validation and reach the database;
        // the rest are hostile in every part.
        const awkward = random.next() < 0.4;
        const method = awkward || random.next() < 0.85 ? route.method : random.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND']);
        const routePath = route.path
          .replace(':id', awkward ? ownId(route, fixtures) : random.pick(ID_FORMS)(ownId(route, fixtures), random, fixtures))
          .replace(':artifactId', random.pick(ID_FORMS)(uuidFrom(random), random, fixtures))
          .replace(/\?.*$/, (query) => random.pick([query, '?after=-1', '?after=abc', '?after[]=1', '?limit=1e309', '?limit=0', '?__proto__[x]=1', '?after=%ff', '', '?limit=5&limit=6']));
        // Now and then the path itself is bent: doubled slashes, another case, dot segments, a trailing slash.
        const path =
          awkward || random.next() < 0.8
            ? routePath
            : random.pick<(p: string) => string>([
                (p) => `/${p}`,
                (p) => p.replace('/api/', '/API/'),
                (p) => p.replace('/api/', '/api//'),
                (p) => `${p.split('?')[0]}/`,
                (p) => p.replace('/api/', '/api/jobs/%2e%2e/'),
                (p) => p.replace('/api/', '/api/./'),
                (p) => `${p.split('?')[0]}?${'q=1&'.repeat(2_000)}`,
              ])(routePath);
        const body = (method === 'GET' || method === 'HEAD') && !(random.next() < 0.1) ? undefined : bodyOf(route, random, fixtures, awkward);
        const headers = awkward
          ? { authorization: `Bearer ${fixtures.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }
          : headersOf(random, fixtures, body);
        const request = `#${index} ${method} ${path.slice(0, 120)} [${JSON.stringify(headers).slice(0, 160)}] ${String(body).slice(0, 80)}…${String(body).slice(-80)}`;
        const answer = await send(port, agent, method, path, headers, body).catch((error: unknown) => {
          throw new Error(`${request}: ${String(error)}`, { cause: error });
        });
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const what = `${request} → ${answer.status} ${answer.body.slice(0, 200)}`;
        if (answer.status >= 500) serverErrors.push(what);
        if (answer.status >= 400 && answer.contentType.startsWith('application/json') && method !== 'HEAD') {
          // Every error the API writes itself: {"error":{"code","message"}}.
          const parsed = JSON.parse(answer.body) as { error?: { code?: unknown; message?: unknown } };
          expect({ what, code: typeof parsed.error?.code, message: typeof parsed.error?.message }).toEqual({ what, code: 'string', message: 'string' });
        }
      }
    } finally {
      agent.destroy();
    }
    expect(serverErrors).toEqual([]);
    // The generator reached past validation as well as into it.
    expect([...statuses.keys()]).toEqual(expect.arrayContaining([200, 201, 202, 400, 401, 404]));

    expect((await callApi(api.base, 'GET', '/healthz', undefined, null)).status).toBe(200);
    const job = await callApi(api.base, 'GET', `/api/jobs/${fixtures.jobId}`, undefined, fixtures.key);
    expect([job.status, job.body.job.jobId]).toEqual([200, fixtures.jobId]);
  }, 60_000);
});
