import { beforeEach, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { connectInstallation } from '../../../src/store/repository-admission.js';
import { callApi } from '../../support/api-server.js';
import { useTestApi } from '../../support/use-test-api.js';
import { seedAcmeShop } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

const TASK = 'Check that the pricing page lists three plans';

/** `{ "a": { "a": … } }`, `depth` objects deep. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let level = 1; level < depth; level += 1) value = { a: value };
  return value;
}

/** An http URL of exactly `length` characters. */
const urlOfLength = (length: number, prefix = 'https://shop.example/') => prefix + 'p'.repeat(length - prefix.length);

forEachDialect('bad input', (dialect) => {
  const store = useTestStore(dialect);
  const api = useTestApi(store);
  let key: string;
  let otherKey: string;
  let repositoryId: string;
  let checkId: string;

  beforeEach(async () => {
    ({ key, otherKey, repositoryId, checkId } = await seedAcmeShop(store()));
  });

  const call = (method: string, path: string, body?: unknown, auth: string | null = key) => callApi(api.base, method, path, body, auth);
  const createJob = (fields: Record<string, unknown>) =>
    call('POST', '/api/jobs', { projectId: repositoryId, baseUrl: 'https://shop.example', trigger: 'cli', naturalLanguageTask: TASK, ...fields });

  /** One of each resource of the caller's organization, with the id routes that read it. */
  async function idRoutes(): Promise<[method: string, path: string, code: string][]> {
    const job = await createJob({});
    expect(job.status).toBe(202);
    const schedule = await call('POST', '/api/schedules', { testId: checkId, intervalMinutes: 60, baseUrl: 'https://shop.example' });
    expect(schedule.status).toBe(201);
    const artifact = randomUUID();
    return [
      ...['jobs', 'runs'].flatMap((collection): [string, string, string][] => [
        ['GET', `/api/${collection}/${job.body.jobId}`, 'job.not_found'],
        ['GET', `/api/${collection}/${job.body.jobId}/events`, 'job.not_found'],
        ['POST', `/api/${collection}/${job.body.jobId}/cancel`, 'job.not_found'],
        ['POST', `/api/${collection}/${job.body.jobId}/clarifications`, 'job.not_found'],
        ['GET', `/api/${collection}/${job.body.jobId}/artifacts/${artifact}`, 'job.not_found'],
      ]),
      ...['checks', 'scenarios'].flatMap((collection): [string, string, string][] => [
        ['GET', `/api/${collection}/${checkId}`, 'check.not_found'],
        ['GET', `/api/${collection}/${checkId}/source`, 'check.not_found'],
      ]),
      ['GET', `/api/repositories/${repositoryId}`, 'repository.not_found'],
      ['GET', `/api/schedules/${schedule.body.scheduleId}`, 'schedule.not_found'],
      ['DELETE', `/api/schedules/${schedule.body.scheduleId}`, 'schedule.not_found'],
    ];
  }

  const body = (method: string) => (method === 'POST' ? { answers: ['yes'] } : undefined);

  it('answers 404, never 500, for a malformed percent-encoding in any id', async () => {
    for (const [method, path, code] of await idRoutes()) {
      for (const bad of ['%ff', '%E0%A4%A', '%', '%zz']) {
        const broken = path.replace(/[0-9a-f-]{36}/, bad);
        const response = await call(method, broken, body(method));
        expect([method, broken, response.status, response.body?.error?.code]).toEqual([method, broken, 404, code]);
      }
    }
  });

  it('matches ids exactly: another case, a trailing space or other padding finds nothing', async () => {
    for (const [method, path, code] of await idRoutes()) {
      if (method !== 'GET' || path.includes('/artifacts/')) continue;
      const follows = path.endsWith('/events');
      const id = /[0-9a-f-]{36}/.exec(path)![0];
      for (const variant of [id.toUpperCase(), `${id}%20`, `${id}%00`, `%20${id}`, `${id}%09`, `{${id}}`]) {
        const response = await call(method, path.replace(id, variant));
        expect([path, variant, response.status, response.body?.error?.code]).toEqual([path, variant, 404, code]);
      }
      if (!follows) expect((await fetch(`${api.base}${path}`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    }
    for (const variant of [repositoryId.toUpperCase(), `${repositoryId} `]) {
      const response = await createJob({ projectId: variant });
      expect([response.status, response.body.error.code, response.body.error.details.field]).toEqual([404, 'repository.not_found', 'repositoryId']);
    }
    const replay = await call('POST', '/api/schedules', { testId: checkId.toUpperCase(), intervalMinutes: 60, baseUrl: 'https://shop.example' });
    expect([replay.status, replay.body.error.code, replay.body.error.details.field]).toEqual([404, 'check.not_found', 'testId']);
    expect((await call('GET', `/api/checks?projectId=${repositoryId.toUpperCase()}`)).body.checks).toEqual([]);
    expect((await call('GET', `/api/checks?projectId=${repositoryId}`)).body.checks).toHaveLength(2);
  });

  it("answers 404 for another organization's ids on every id route", async () => {
    for (const [method, path, code] of await idRoutes()) {
      const response = await call(method, path, body(method), otherKey);
      // The job is looked up with its artifact there: their artifact of our job is as unknown as the job.
      const expected = path.includes('/artifacts/') ? 'artifact.not_found' : code;
      expect([method, path, response.status, response.body?.error?.code]).toEqual([method, path, 404, expected]);
    }
  });

  it('refuses URLs longer than their column with 400, and stores one exactly as long', async () => {
    const tooLong = await createJob({ baseUrl: urlOfLength(2049) });
    expect([tooLong.status, tooLong.body.error.code, tooLong.body.error.details.field]).toEqual([400, 'request.invalid', 'baseUrl']);
    const longest = await createJob({ baseUrl: urlOfLength(2048) });
    expect(longest.status).toBe(202);
    expect((await call('GET', `/api/jobs/${longest.body.jobId}`)).body.job.baseUrl).toBe(urlOfLength(2048));

    const schedule = await call('POST', '/api/schedules', { testId: checkId, intervalMinutes: 60, baseUrl: urlOfLength(2049) });
    expect([schedule.status, schedule.body.error.details.field]).toEqual([400, 'baseUrl']);
    const repository = {
      provider: 'codehost', providerInstallationId: '42', owner: 'acme', name: 'shop', defaultBranch: 'main',
      cloneUrl: 'https://code.example/acme/shop.git', baseUrl: 'https://shop.example',
    };
    for (const field of ['cloneUrl', 'baseUrl']) {
      const response = await call('POST', '/api/repositories', { ...repository, [field]: urlOfLength(2049) });
      expect([field, response.status, response.body.error.details.field]).toEqual([field, 400, field]);
    }
  });

  it('refuses a baseUrl with user info wherever one is accepted', async () => {
    await connectInstallation(store(), 'codehost', '42', 'acme');
    const requests: [string, Record<string, unknown>][] = [
      ['/api/jobs', { projectId: repositoryId, trigger: 'cli', naturalLanguageTask: TASK }],
      ['/api/runs', { repositoryId, trigger: 'cli', scenarioId: checkId }],
      ['/api/schedules', { testId: checkId, intervalMinutes: 60 }],
      [
        '/api/repositories',
        { provider: 'codehost', providerInstallationId: '42', owner: 'acme', name: 'shop', defaultBranch: 'main', cloneUrl: 'https://code.example/acme/shop.git' },
      ],
    ];
    for (const [path, fields] of requests) {
      for (const baseUrl of ['https://user:pw@shop.example', 'https://user@shop.example/', 'http://:pw@shop.example']) {
        const response = await call('POST', path, { ...fields, baseUrl });
        expect([path, baseUrl, response.status, response.body.error.details.field]).toEqual([path, baseUrl, 400, 'baseUrl']);
        expect(response.body.error.message).toMatch(/testValueSecretRefs/);
      }
    }
    const cloneUrl = await call('POST', '/api/repositories', { ...requests[3]![1], cloneUrl: 'https://x-token:secret@code.example/acme/shop.git', baseUrl: 'https://shop.example' });
    expect([cloneUrl.status, cloneUrl.body.error.details.field]).toEqual([400, 'cloneUrl']);
  });

  it('bounds channelContext in depth and size', async () => {
    const fields = { projectId: repositoryId, baseUrl: 'https://shop.example', trigger: 'cli', naturalLanguageTask: TASK };
    for (const depth of [17, 32, 64, 40_000]) {
      // As text: the client's own JSON.stringify cannot nest that deep.
      const deep = `${'{"a":'.repeat(depth - 1)}{"leaf":true}${'}'.repeat(depth - 1)}`;
      const response = await call('POST', '/api/jobs', `${JSON.stringify(fields).slice(0, -1)},"channelContext":${deep}}`);
      expect([depth, response.status]).toEqual([depth, 400]);
      // Tens of thousands deep is refused while the body is read (the parser's own recursion), the rest by its field.
      if (depth < 1_000) expect(response.body.error.details.field).toBe('channelContext');
    }
    const deepest = await createJob({ channelContext: nested(16) });
    expect(deepest.status).toBe(202);
    expect((await call('GET', `/api/jobs/${deepest.body.jobId}`)).body.job.channelContext).toEqual(nested(16));
    const large = await createJob({ channelContext: { text: 'x'.repeat(20_000) } });
    expect([large.status, large.body.error.details.field]).toEqual([400, 'channelContext']);
    for (const notAnObject of [[], 'thread', 42, null]) {
      expect((await createJob({ channelContext: notAnObject })).status).toBe(400);
    }
    // A key named like a prototype is data, kept as sent.
    const proto = await createJob({ channelContext: JSON.parse('{"__proto__":{"polluted":true},"thread":"1"}') as Record<string, unknown> });
    expect(proto.status).toBe(202);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses strings that are not well-formed Unicode (a lone surrogate), and keeps NUL, emoji and accents', async () => {
    for (const fields of [{ naturalLanguageTask: 'Check that the \ud800 page lists plans' }, { channelContext: { '\udc00': 'x' } }, { channelContext: { thread: 'a\ud83d' } }]) {
      const response = await createJob(fields);
      expect([response.status, response.body.error.code]).toEqual([400, 'request.invalid_json']);
    }
    const task = 'Check that the 😀 pricing page lists three plans: é, \u0000';
    const kept = await createJob({ naturalLanguageTask: task, channelContext: { thread: '😀\u0000' } });
    expect(kept.status).toBe(202);
    const stored = (await call('GET', `/api/jobs/${kept.body.jobId}`)).body.job;
    expect([stored.naturalLanguageTask, stored.channelContext]).toEqual([task, { thread: '😀\u0000' }]);
  });

  it('answers 400 or 415 for a body whose Content-Encoding it cannot undo, and reads a real compressed body', async () => {
    const json = JSON.stringify({ projectId: repositoryId, baseUrl: 'https://shop.example', trigger: 'cli', naturalLanguageTask: TASK });
    const send = (encoding: string, bytes: Buffer | string) =>
      fetch(`${api.base}/api/jobs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-encoding': encoding },
        body: bytes,
      });
    for (const encoding of ['gzip', 'br', 'deflate']) {
      const response = await send(encoding, json);
      expect([encoding, response.status]).toEqual([encoding, 400]);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('request.unreadable');
    }
    const unknown = await send('zstd-ish', json);
    expect([unknown.status, ((await unknown.json()) as { error: { code: string } }).error.code]).toEqual([415, 'request.unreadable']);
    expect((await send('gzip', gzipSync(json))).status).toBe(202);
    expect((await send('br', brotliCompressSync(json))).status).toBe(202);
  });
});
