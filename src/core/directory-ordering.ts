/**
 * The order of access-directory writes (issue 26): identity deliveries arrive in any order, duplicated, and two
 * workers may apply two of them at once; the directory must end the same whatever the order. Each row keeps the
 * version of the event that wrote it, and a change applies only over an older version:
 * - versions compare by the object's `updated_at`, then the delivery's `created_at`, then the delivery's `id` (a
 *   total order: two different deliveries never tie, so no arrival order can leave a different winner);
 * - a deletion leaves a tombstone. It wins over any live row whatever its version (a late update cannot bring the
 *   row back); among deletions of one row the newest version is kept, so its stored data converges too;
 * - an upsert never applies over a tombstone.
 */

export interface DirectoryVersion {
  /** The object's `updated_at` (the provider's clock). */
  updatedAt: Date;
  /** The delivery's `created_at`. */
  deliveryCreatedAt: Date;
  /** The delivery's `id`. */
  eventId: string;
}

export interface StoredVersion extends DirectoryVersion {
  deleted: boolean;
}

export type DirectoryChangeKind = 'upsert' | 'delete';

/** Negative when `a` is older than `b`, positive when newer, 0 for the same delivery. */
export function compareVersions(a: DirectoryVersion, b: DirectoryVersion): number {
  const byUpdate = a.updatedAt.getTime() - b.updatedAt.getTime();
  if (byUpdate !== 0) return byUpdate;
  const byDelivery = a.deliveryCreatedAt.getTime() - b.deliveryCreatedAt.getTime();
  if (byDelivery !== 0) return byDelivery;
  return a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0;
}

/** Whether a change of `kind` at `version` replaces what is stored (null: nothing is). */
export function changeApplies(stored: StoredVersion | null, kind: DirectoryChangeKind, version: DirectoryVersion): boolean {
  if (stored === null) return true;
  if (stored.deleted) return kind === 'delete' && compareVersions(version, stored) > 0;
  if (kind === 'delete') return true;
  return compareVersions(version, stored) > 0;
}

