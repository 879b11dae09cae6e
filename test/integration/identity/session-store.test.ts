import { expect, it } from '@jest/globals';
import { createSessionStore } from '../../../src/identity/sessions.js';
import { createSignInAttempts } from '../../../src/identity/sign-in-attempts.js';
import { Session } from '../../../src/store/entities/session.entity.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

const MINUTE = 60_000;
const T0 = new Date('2026-12-06T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * MINUTE);

forEachDialect('session store', (dialect) => {
  const store = useTestStore(dialect);
  const sessions = () => createSessionStore(store(), { idleMs: 30 * MINUTE, absoluteMs: 120 * MINUTE });

  it('ends a session left idle too long, and deletes its row', async () => {
    const session = await sessions().create('user_1', T0);
    expect(await sessions().resolve(session.id, at(29))).toMatchObject({ userId: 'user_1' });
    // Used at minute 29: idle time counts from there.
    expect(await sessions().resolve(session.id, at(58))).not.toBeNull();
    expect(await sessions().resolve(session.id, at(89))).toBeNull();
    expect(await store().getRepository(Session).count()).toBe(0);
  });

  it('ends a session at its absolute expiry however busy it is', async () => {
    const session = await sessions().create('user_2', T0);
    for (let minute = 10; minute < 120; minute += 10) expect(await sessions().resolve(session.id, at(minute))).not.toBeNull();
    expect(await sessions().resolve(session.id, at(120))).toBeNull();
  });

  it('clears sessions nobody presents again, idle or past their end, when a new one begins', async () => {
    await sessions().create('idle_user', T0);
    const busy = await sessions().create('busy_user', T0);
    await sessions().resolve(busy.id, at(25));
    await sessions().create('new_user', at(31));
    expect((await store().getRepository(Session).find()).map((row) => row.userId).sort()).toEqual(['busy_user', 'new_user']);
  });

  it('finds nothing for a value of another shape or one never issued, and destroys every session of a user', async () => {
    expect(await sessions().resolve("' OR 1=1 --", T0)).toBeNull();
    expect(await sessions().resolve('x'.repeat(43), T0)).toBeNull();
    const first = await sessions().create('user_3', T0);
    const second = await sessions().create('user_3', T0);
    expect(first.id).not.toBe(second.id);
    expect(await sessions().destroyForUser('user_3')).toBe(2);
    expect(await sessions().resolve(first.id, T0)).toBeNull();
  });

  it('gives a sign-in’s checks to one callback only, and none after ten minutes', async () => {
    const attempts = createSignInAttempts(store());
    const checks = { state: 's', nonce: 'n', codeVerifier: 'v', returnTo: '/' };
    const cookie = await attempts.begin(checks, T0);
    const taken = await Promise.all([attempts.take(cookie, at(1)), attempts.take(cookie, at(1))]);
    expect(taken.filter((one) => one !== null)).toEqual([checks]);
    const late = await attempts.begin(checks, T0);
    expect(await attempts.take(late, at(10))).toBeNull();
  });
});
