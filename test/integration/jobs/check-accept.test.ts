import { describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { isAppError } from '../../../src/core/errors.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { createCheckService } from '../../../src/jobs/check-service.js';
import { CheckVersion } from '../../../src/store/entities/check-version.entity.js';
import { Check } from '../../../src/store/entities/check.entity.js';
import { insertCheck, insertRepository } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

/**
 * Accepting a healed proposal (issue 13, part 4) in the store: two replays that healed differently left two open
 * proposals of version 1, and two people accept one each. One wins and the check replays it; the other proposal was
 * superseded by it, so its accept answers check_version.not_proposed, and nothing is half done.
 */
async function twoProposals(store: DataSource) {
  const { principal, organization } = await createApiKey(store, 'acme');
  const repositoryId = await insertRepository(store, organization.id);
  const checkId = await insertCheck(store, organization.id, repositoryId, 'active');
  const versions = store.getRepository(CheckVersion);
  const first = await versions.findOneByOrFail({ checkId, version: 1 });
  for (const version of [2, 3]) {
    await versions.insert({ checkId, version, compiled: first.compiled, source: `// proposal ${version}`, jobId: null, state: 'proposed', basedOn: 1 });
  }
  return { principal, checkId, checks: createCheckService(store) };
}

async function expectOutcome(store: DataSource, checkId: string, winner: number, loser: unknown) {
  expect(isAppError(loser) ? { code: loser.code, status: loser.status, details: loser.details } : loser).toEqual({ code: 'check_version.not_proposed', status: 409, details: { state: 'superseded' } });
  const states = (await store.getRepository(CheckVersion).find({ where: { checkId }, order: { version: 'ASC' } })).map((row) => [row.version, row.state]);
  expect(states).toEqual([[1, 'compiled'], [2, winner === 2 ? 'accepted' : 'superseded'], [3, winner === 3 ? 'accepted' : 'superseded']]);
  expect((await store.getRepository(Check).findOneByOrFail({ id: checkId })).version).toBe(winner);
}

forEachDialect('accepting a proposed check version', (dialect) => {
  const store = useTestStore(dialect);

  it('supersedes the other open proposals, so a second accept answers 409', async () => {
    const { principal, checkId, checks } = await twoProposals(store());
    const accepted = await checks.accept(principal, checkId, 3);
    expect([accepted.check.version, accepted.version.state]).toEqual([3, 'accepted']);
    const loser = await checks.accept(principal, checkId, 2).catch((error: unknown) => error);
    await expectOutcome(store(), checkId, 3, loser);
  });
});

// SQLite (the embedded single-process default) runs one transaction at a time on its one connection.
describe('accepting two proposals at once [mysql]', () => {
  const store = useTestStore('mysql');

  it('lets exactly one of two racing accepts win', async () => {
    const { principal, checkId, checks } = await twoProposals(store());
    const outcomes = await Promise.allSettled([checks.accept(principal, checkId, 2), checks.accept(principal, checkId, 3)]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const winner = outcomes.findIndex((outcome) => outcome.status === 'fulfilled') + 2;
    await expectOutcome(store(), checkId, winner, (outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult).reason);
  });
});
