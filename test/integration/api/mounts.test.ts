import { expect, it } from '@jest/globals';
import { createHash, randomUUID } from 'node:crypto';
import { Router } from 'express';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { callApi } from '../../support/api-server.js';
import { useTestApi } from '../../support/use-test-api.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

/**
 * A receiver that checks a signature reads the request's bytes itself: this one hashes the stream as it arrives
 * and says whether anything parsed the body before it did.
 */
function rawBodyReceiver(): Router {
  const router = Router();
  router.post('/deliveries', (req, res, next) => {
    const hash = createHash('sha256');
    let bytes = 0;
    const parsedBefore = req.body !== undefined;
    req.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      bytes += chunk.length;
    });
    req.on('error', next);
    req.on('end', () => {
      res.json({ sha256: hash.digest('hex'), bytes, parsedBefore });
    });
  });
  return router;
}

forEachDialect('mounted routers in front of the API', (dialect) => {
  const store = useTestStore(dialect);
  const api = useTestApi(store, { mounts: [{ path: '/hooks', router: rawBodyReceiver() }] });

  it('hands a mount the raw bytes of a JSON body, unparsed', async () => {
    // Spacing, key order and an escape that re-serialized JSON would not keep.
    const body = '{ "zeta": 1,\n  "alpha": ["\\u00e9", 2.50] }';
    const response = await fetch(`${api.base}/hooks/deliveries`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      sha256: createHash('sha256').update(body).digest('hex'),
      bytes: Buffer.byteLength(body),
      parsedBefore: false,
    });
  });

  it('leaves the health routes, the JSON /api routes and their errors as they were', async () => {
    expect((await callApi(api.base, 'GET', '/healthz', undefined, null)).body).toEqual({ status: 'ok' });
    const { key } = await createApiKey(store(), 'acme');
    // The JSON body was parsed and read: the use case looked the (unknown) repository up.
    const unknown = await callApi(api.base, 'POST', '/api/jobs', { projectId: randomUUID(), baseUrl: 'https://shop.example', trigger: 'cli', naturalLanguageTask: 'Check the home page' }, key);
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'repository.not_found']);
    const malformed = await callApi(api.base, 'POST', '/api/jobs', '{"projectId": ', key);
    expect(malformed.status).toBe(400);
    expect((await callApi(api.base, 'GET', '/api/jobs', undefined, null)).status).toBe(401);
    expect((await callApi(api.base, 'GET', '/hooks/elsewhere', undefined, null)).body.error.code).toBe('route.not_found');
  });
});
