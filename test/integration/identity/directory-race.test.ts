import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { directoryChangeOf, identityEnvelope } from '../../../src/core/identity-events.js';
import { createDirectoryWriter, type DirectoryWriter } from '../../../src/identity/directory-writer.js';
import { DirectoryUser } from '../../../src/store/entities/directory-user.entity.js';
import { openStore } from '../../../src/store/open-store.js';
import { testMysqlUrl } from '../../support/databases.js';
import { useTestStore } from '../../support/dialects.js';
import { identityEvent, identityObjects } from '../../support/identity-deliveries.js';
import { silentLogger } from '../../support/logger.js';

const at = (minutes: number) => new Date(Date.UTC(2026, 11, 1, 10, minutes)).toISOString();
const PAIRS = 25;

function change(event: string, userId: string, minutes: number, eventId: string, name: string) {
  const body = identityEvent(event, identityObjects.user(userId, at(minutes), { name }), { id: eventId, createdAt: at(minutes) });
  return directoryChangeOf(identityEnvelope.parse(body))!;
}

/**
 * Two workers (two processes: two connection pools) applying a deletion and an update of one user at the same
 * moment, on MySQL where they really overlap. Whichever commits first, the user ends deleted, carrying the deletion's
 * version: the update that read the row before the deletion committed must not write over it.
 */
describe('a deletion racing an update on two workers [mysql]', () => {
  const store = useTestStore('mysql');
  let second: DataSource;
  let first: DirectoryWriter;
  let other: DirectoryWriter;

  beforeAll(async () => {
    second = await openStore({ database: { kind: 'mysql', url: testMysqlUrl() } }, silentLogger());
    first = createDirectoryWriter({ dataSource: store() });
    other = createDirectoryWriter({ dataSource: second });
  });
  afterAll(async () => {
    await second?.destroy();
  });

  const users = async (prefix: string) => (await store().getRepository(DirectoryUser).find({ order: { id: 'ASC' } })).filter((user) => user.id.startsWith(prefix));

  it.each([
    ['a user both first hear of', false],
    ['a user stored before', true],
  ])('converges to the tombstone for %s, whichever worker wins', async (_title, storedBefore) => {
    const prefix = storedBefore ? 'stored_' : 'new_';
    const ids = Array.from({ length: PAIRS }, (_, index) => `${prefix}${index}`);
    if (storedBefore) for (const id of ids) await first.apply(change('user.created', id, 1, `${id}_created`, 'created'));

    // Every pair at once, the deletion on one pool and the newer update on the other, alternating who starts.
    await Promise.all(
      ids.flatMap((id, index) => {
        const deletion = () => first.apply(change('user.deleted', id, 2, `${id}_deleted`, 'deleted'));
        const update = () => other.apply(change('user.updated', id, 3, `${id}_updated`, 'updated later'));
        return index % 2 === 0 ? [deletion(), update()] : [update(), deletion()];
      }),
    );

    const stored = await users(prefix);
    expect(stored).toHaveLength(PAIRS);
    for (const user of stored) {
      expect(user).toMatchObject({ name: 'deleted', eventId: `${user.id}_deleted`, deletedAt: new Date(at(2)), sourceUpdatedAt: new Date(at(2)) });
    }
  });

  it('keeps the newest of two updates racing on two workers', async () => {
    const ids = Array.from({ length: PAIRS }, (_, index) => `updates_${index}`);

    await Promise.all(
      ids.flatMap((id) => [
        first.apply(change('user.updated', id, 5, `${id}_older`, 'older')),
        other.apply(change('user.updated', id, 6, `${id}_newer`, 'newer')),
      ]),
    );

    for (const user of await users('updates_')) expect(user).toMatchObject({ name: 'newer', deletedAt: null });
  });
});
