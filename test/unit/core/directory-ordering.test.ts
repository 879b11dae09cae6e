import { describe, expect, it } from '@jest/globals';
import { changeApplies, compareVersions, type DirectoryVersion, type StoredVersion } from '../../../src/core/directory-ordering.js';

const version = (updated: number, delivered: number, eventId = 'e'): DirectoryVersion => ({
  updatedAt: new Date(updated * 1000),
  deliveryCreatedAt: new Date(delivered * 1000),
  eventId,
});
const stored = (v: DirectoryVersion, deleted = false): StoredVersion => ({ ...v, deleted });

describe('compareVersions', () => {
  it('orders by updated_at, then the delivery created_at, then the delivery id', () => {
    expect(compareVersions(version(2, 1), version(1, 9))).toBeGreaterThan(0);
    expect(compareVersions(version(1, 2), version(1, 1))).toBeGreaterThan(0);
    expect(compareVersions(version(1, 1, 'b'), version(1, 1, 'a'))).toBeGreaterThan(0);
    expect(compareVersions(version(1, 1, 'a'), version(1, 1, 'b'))).toBeLessThan(0);
    expect(compareVersions(version(1, 1, 'a'), version(1, 1, 'a'))).toBe(0);
  });
});

describe('changeApplies', () => {
  it('applies anything to a row not stored yet', () => {
    expect(changeApplies(null, 'upsert', version(1, 1))).toBe(true);
    expect(changeApplies(null, 'delete', version(1, 1))).toBe(true);
  });

  it('applies an upsert only over an older version, so a redelivery or a stale one changes nothing', () => {
    expect(changeApplies(stored(version(2, 2)), 'upsert', version(3, 3))).toBe(true);
    expect(changeApplies(stored(version(2, 2)), 'upsert', version(2, 3))).toBe(true);
    expect(changeApplies(stored(version(2, 2)), 'upsert', version(2, 2))).toBe(false);
    expect(changeApplies(stored(version(2, 2)), 'upsert', version(1, 9))).toBe(false);
  });

  it('lets a deletion win over a live row of any version, and keeps the newest of two deletions', () => {
    expect(changeApplies(stored(version(9, 9)), 'delete', version(1, 1))).toBe(true);
    expect(changeApplies(stored(version(2, 2), true), 'delete', version(3, 3))).toBe(true);
    expect(changeApplies(stored(version(2, 2), true), 'delete', version(1, 1))).toBe(false);
    expect(changeApplies(stored(version(2, 2), true), 'delete', version(2, 2))).toBe(false);
  });

  it('never revives a tombstone with an upsert, however new', () => {
    expect(changeApplies(stored(version(2, 2), true), 'upsert', version(99, 99))).toBe(false);
  });

  it('reaches the same winner from every order of a set of changes (the property the directory relies on)', () => {
    const changes: Array<{ kind: 'upsert' | 'delete'; v: DirectoryVersion }> = [
      { kind: 'upsert', v: version(1, 1, 'a') },
      { kind: 'upsert', v: version(3, 1, 'b') },
      { kind: 'upsert', v: version(3, 2, 'c') },
      { kind: 'delete', v: version(2, 5, 'd') },
      { kind: 'delete', v: version(2, 6, 'e') },
    ];
    const outcomes = new Set<string>();
    const permute = (rest: typeof changes, state: StoredVersion | null): void => {
      if (rest.length === 0) {
        outcomes.add(`${state!.eventId}:${state!.deleted}`);
        return;
      }
      rest.forEach((change, index) => {
        const next = changeApplies(state, change.kind, change.v) ? stored(change.v, change.kind === 'delete') : state;
        permute([...rest.slice(0, index), ...rest.slice(index + 1)], next);
      });
    };
    permute(changes, null);
    expect([...outcomes]).toEqual(['e:true']);
  });
});
