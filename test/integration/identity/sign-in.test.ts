import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { Session } from '../../../src/store/entities/session.entity.js';
import { useTestStore } from '../../support/dialects.js';
import { putInDirectory } from '../../support/directory-rows.js';
import { signIn, usePeopleService } from '../../support/people-service.js';
import { TestBrowser } from '../../support/signed-in-browser.js';
import { useTestApi } from '../../support/use-test-api.js';

// MySQL only: sign-in is the OpenID Connect protocol; the sessions it stores run on both dialects in
// test/integration/identity/session-store.test.ts (the two blocks below run on SQLite).
describe('sign-in (OpenID Connect)', () => {
  const store = useTestStore('mysql');
  const service = usePeopleService(store);
  const base = () => service().base;

  it('signs a person in with PKCE, state and nonce, keeps only a hash of the session id, and waits at setup_required', async () => {
    const browser = new TestBrowser();
    const hops = await signIn(service(), browser, 'user_01');
    const [login, authorize, callback] = hops;
    expect(login!.status).toBe(302);
    const authorizeUrl = new URL(login!.location!);
    expect(authorizeUrl.origin).toBe(service().idp.issuer);
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizeUrl.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(authorizeUrl.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(`${base()}/auth/callback`);
    expect(authorize!.location).toMatch(new RegExp(`^${base()}/auth/callback\\?`));
    expect(callback!.status).toBe(302);
    expect(callback!.location).toBe(`${base()}/`);

    const sessionCookie = callback!.setCookies.find((cookie) => cookie.name === 'qa_session')!;
    expect(sessionCookie.attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax']));
    expect(sessionCookie.attributes).not.toContain('Secure');
    const rows = await store().getRepository(Session).find();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.idHash).toBe(createHash('sha256').update(sessionCookie.value).digest('hex'));
    expect(rows[0]!.idHash).not.toContain(sessionCookie.value);
    expect(rows[0]!.userId).toBe('user_01');

    const session = await browser.call(base(), 'GET', '/api/session');
    expect(session.status).toBe(200);
    expect(session.body).toEqual({ state: 'setup_required', missing: ['user', 'organization', 'membership'], csrfToken: expect.any(String) });
  });

  it('becomes ready once the directory has the person, with the organizations and the one in use, and switches among them', async () => {
    const acme = await createApiKey(store(), 'acme');
    const globex = await createApiKey(store(), 'globex');
    const browser = new TestBrowser();
    await signIn(service(), browser, 'user_02');
    expect((await browser.call(base(), 'GET', '/api/session')).body.state).toBe('setup_required');

    await putInDirectory(store(), 'user_02', [
      { serviceOrganizationId: globex.organization.id, name: 'globex', role: 'member' },
      { serviceOrganizationId: acme.organization.id, name: 'acme', role: 'admin' },
    ]);
    const ready = await browser.call(base(), 'GET', '/api/session');
    expect(ready.body).toEqual({
      state: 'ready',
      user: { id: 'user_02', email: 'user_02@example.com', name: 'user_02' },
      organizations: [
        { id: acme.organization.id, name: 'acme', role: 'admin' },
        { id: globex.organization.id, name: 'globex', role: 'member' },
      ],
      organization: { id: acme.organization.id, name: 'acme', role: 'admin' },
      csrfToken: expect.any(String),
    });

    const switched = await browser.call(base(), 'POST', '/api/session/organization', { organizationId: globex.organization.id });
    expect(switched.status).toBe(200);
    expect(switched.body.organization).toEqual({ id: globex.organization.id, name: 'globex', role: 'member' });
    expect((await browser.call(base(), 'GET', '/api/session')).body.organization.id).toBe(globex.organization.id);

    const elsewhere = await browser.call(base(), 'POST', '/api/session/organization', { organizationId: (await createApiKey(store(), 'initech')).organization.id });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error.code).toBe('session.organization_unavailable');
  });

  it('answers 401 to GET /api/session without a session, and to a forged, unknown or signed-out cookie', async () => {
    expect((await new TestBrowser().call(base(), 'GET', '/api/session')).status).toBe(401);
    const forged = new TestBrowser();
    forged.cookiesOf(new URL(base()).host).set('qa_session', 'A'.repeat(43));
    expect((await forged.call(base(), 'GET', '/api/session')).status).toBe(401);
    forged.cookiesOf(new URL(base()).host).set('qa_session', 'not even the shape');
    expect((await forged.call(base(), 'GET', '/api/session')).status).toBe(401);

    const browser = new TestBrowser();
    await signIn(service(), browser, 'user_03');
    const stolen = browser.cookiesOf(new URL(base()).host).get('qa_session')!;
    const out = await browser.call(base(), 'POST', '/auth/logout');
    expect(out.status).toBe(204);
    expect(out.hop.setCookies.find((cookie) => cookie.name === 'qa_session')).toBeDefined();
    const replay = new TestBrowser();
    replay.cookiesOf(new URL(base()).host).set('qa_session', stolen);
    expect((await replay.call(base(), 'GET', '/api/session')).status).toBe(401);
    expect(await store().getRepository(Session).countBy({ userId: 'user_03' })).toBe(0);
  });

  it('gives a new session id at sign-in: an id planted before sign-in is never promoted (fixation)', async () => {
    const browser = new TestBrowser();
    await signIn(service(), browser, 'user_04');
    const first = browser.cookiesOf(new URL(base()).host).get('qa_session')!;
    await signIn(service(), browser, 'user_04');
    const second = browser.cookiesOf(new URL(base()).host).get('qa_session')!;
    expect(second).not.toBe(first);
    const attacker = new TestBrowser();
    attacker.cookiesOf(new URL(base()).host).set('qa_session', first);
    expect((await attacker.call(base(), 'GET', '/api/session')).status).toBe(401);
    expect(await store().getRepository(Session).countBy({ userId: 'user_04' })).toBe(1);
  });

  it('refuses a tampered state, a replayed callback, another nonce, an unpublished key and an expired ID token', async () => {
    const idp = service().idp;
    idp.signInAs({ sub: 'user_05', email: 'user_05@example.com' });

    const tampered = new TestBrowser();
    const login = await tampered.request(`${base()}/auth/login`);
    const authorize = await tampered.request(login.location!);
    const callback = new URL(authorize.location!);
    callback.searchParams.set('state', 'forged-state');
    const refusedState = await tampered.request(callback.href);
    expect(refusedState.status).toBe(400);
    expect(JSON.parse(refusedState.text).error.code).toBe('signin.failed');
    expect(refusedState.setCookies.some((cookie) => cookie.name === 'qa_session')).toBe(false);

    const replaying = new TestBrowser();
    const hops = await replaying.navigate(`${base()}/auth/login`);
    expect(hops[2]!.status).toBe(302);
    const replayed = await replaying.request(hops[1]!.location!);
    expect(replayed.status).toBe(400);
    expect(JSON.parse(replayed.text).error.code).toBe('signin.failed');

    for (const tampering of [{ nonce: 'another-nonce' }, { unpublishedKey: true }, { expiresIn: -60 }, { audience: 'another-client' }]) {
      const browser = new TestBrowser();
      idp.tamperNextToken(tampering);
      const steps = await browser.navigate(`${base()}/auth/login`);
      expect({ tampering, status: steps[2]!.status }).toEqual({ tampering, status: 400 });
      expect(JSON.parse(steps[2]!.text).error.code).toBe('signin.failed');
      expect(browser.cookiesOf(new URL(base()).host).has('qa_session')).toBe(false);
    }
  });

  it('accepts ID tokens signed with the next key once the provider rotates its keys', async () => {
    const before = service().idp.signingKid();
    await service().idp.rotateKeys();
    expect(service().idp.signingKid()).not.toBe(before);
    const browser = new TestBrowser();
    const hops = await signIn(service(), browser, 'user_06');
    expect(hops[2]!.status).toBe(302);
    expect((await browser.call(base(), 'GET', '/api/session')).status).toBe(200);
  });

  it('refuses a callback without the sign-in cookie of the browser that began it (login CSRF)', async () => {
    service().idp.signInAs({ sub: 'attacker' });
    const attacker = new TestBrowser();
    const login = await attacker.request(`${base()}/auth/login`);
    const authorize = await attacker.request(login.location!);
    const victim = new TestBrowser();
    const planted = await victim.request(authorize.location!);
    expect(planted.status).toBe(400);
    expect(victim.cookiesOf(new URL(base()).host).has('qa_session')).toBe(false);
  });

  it('returns to a same-origin path only', async () => {
    for (const [returnTo, expected] of [
      ['/jobs/123?x=1', '/jobs/123?x=1'],
      ['https://evil.example/', '/'],
      ['//evil.example/', '/'],
      ['/\\evil.example', '/'],
      ['/%2F%2Fevil.example', '/'],
    ] as const) {
      const hops = await signIn(service(), new TestBrowser(), 'user_07', returnTo);
      expect({ returnTo, location: hops[2]!.location }).toEqual({ returnTo, location: `${base()}${expected}` });
    }
  });
});

describe('sign-in cookies behind https', () => {
  const store = useTestStore('sqlite');
  const service = usePeopleService(store, { publicBaseUrl: () => 'https://qa.example.test' });

  it('are Secure and __Host- prefixed when PUBLIC_BASE_URL is https, and the redirect URI is the public one', async () => {
    const browser = new TestBrowser();
    const login = await browser.request(`${service().base}/auth/login`);
    const signInCookie = login.setCookies.find((cookie) => cookie.name === '__Host-qa_signin')!;
    expect(signInCookie.attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax']));
    expect(signInCookie.attributes.some((attribute) => /^domain=/i.test(attribute))).toBe(false);
    expect(new URL(login.location!).searchParams.get('redirect_uri')).toBe('https://qa.example.test/auth/callback');

    service().idp.signInAs({ sub: 'user_https' });
    const authorize = await browser.request(login.location!);
    // The proxy in front of the service would map the public address to it: the test plays that proxy.
    const callback = await browser.request(authorize.location!.replace('https://qa.example.test', service().base));
    expect(callback.status).toBe(302);
    const sessionCookie = callback.setCookies.find((cookie) => cookie.name === '__Host-qa_session')!;
    expect(sessionCookie.attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax']));
    expect(callback.location).toBe('https://qa.example.test/');
  });
});

describe('without IDENTITY_ISSUER_URL', () => {
  const store = useTestStore('sqlite');
  const api = useTestApi(store);

  it('has no sign-in routes, ignores session cookies, and sends job links to the API route', async () => {
    for (const path of ['/auth/login', '/auth/callback?code=x&state=y', '/api/session']) {
      const answer = await fetch(`${api.base}${path}`, { redirect: 'manual' });
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
    }
    const withCookie = await fetch(`${api.base}/api/repositories`, { headers: { cookie: `qa_session=${'A'.repeat(43)}` } });
    expect(withCookie.status).toBe(401);
    const jobId = '6f1c2d3e-0000-4000-8000-000000000001';
    const link = await fetch(`${api.base}/jobs/${jobId}`, { redirect: 'manual' });
    expect(link.status).toBe(302);
    expect(new URL(link.headers.get('location')!, `${api.base}/jobs/${jobId}`).href).toBe(`${api.base}/api/jobs/${jobId}`);
  });
});
