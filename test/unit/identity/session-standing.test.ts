import { describe, expect, it } from '@jest/globals';
import { signInCookies } from '../../../src/api/cookies.js';
import { safeReturnTo } from '../../../src/identity/return-to.js';
import { csrfTokenFor } from '../../../src/identity/secret-tokens.js';
import { sessionStanding } from '../../../src/identity/session-access.js';

const ready = {
  state: 'ready' as const,
  user: { id: 'user_1', email: 'ada@acme.test', name: 'Ada' },
  organizations: [
    { id: 'org-b', name: 'Beta', role: 'member' as const },
    { id: 'org-a', name: 'Acme', role: 'admin' as const },
  ],
};

describe('sessionStanding', () => {
  it('waits at setup_required, naming what is missing, while the session never had an organization', () => {
    expect(sessionStanding({ state: 'setup_required', missing: ['organization', 'membership'] }, null)).toEqual({ state: 'setup_required', missing: ['organization', 'membership'] });
  });

  it('takes the first organization by name when none is chosen, and the chosen one after', () => {
    const first = sessionStanding(ready, null);
    expect(first).toMatchObject({ state: 'ready', organization: { id: 'org-a' }, principal: { kind: 'person', organizationId: 'org-a', userId: 'user_1', role: 'admin' } });
    expect(sessionStanding(ready, 'org-b')).toMatchObject({ organization: { id: 'org-b' }, principal: { role: 'member' } });
  });

  it('revokes a session that lost its organization, or all access, instead of moving it elsewhere', () => {
    expect(sessionStanding(ready, 'org-gone')).toEqual({ state: 'revoked' });
    expect(sessionStanding({ state: 'setup_required', missing: ['user'] }, 'org-a')).toEqual({ state: 'revoked' });
  });
});

describe('safeReturnTo', () => {
  it('keeps a path of this service and turns everything else into /', () => {
    expect(safeReturnTo('/jobs/1?tab=events#x')).toBe('/jobs/1?tab=events#x');
    for (const bad of ['https://evil.example', '//evil.example', '/\\evil.example', '/%5Cevil.example', '/%2f%2fevil.example', 'jobs/1', '/a\nb', '/%E0%A4%A', 42, undefined, `/${'a'.repeat(2_001)}`]) {
      expect({ bad, to: safeReturnTo(bad) }).toEqual({ bad, to: '/' });
    }
  });
});

describe('sign-in cookies and CSRF tokens', () => {
  it('are __Host- prefixed and Secure over https only', () => {
    expect(signInCookies('https://qa.example.com/service')).toEqual({ session: '__Host-qa_session', signIn: '__Host-qa_signin', secure: true });
    expect(signInCookies('http://127.0.0.1:3000')).toEqual({ session: 'qa_session', signIn: 'qa_signin', secure: false });
  });

  it('derives one CSRF token per session id', () => {
    expect(csrfTokenFor('session-a')).toBe(csrfTokenFor('session-a'));
    expect(csrfTokenFor('session-a')).not.toBe(csrfTokenFor('session-b'));
  });
});
