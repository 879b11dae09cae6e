import type { DataSource, EntityManager, ObjectLiteral } from 'typeorm';
import { changeApplies } from '../core/directory-ordering.js';
import type { DirectoryChange, DirectoryTable } from '../core/identity-events.js';
import { isDuplicateKey } from '../store/duplicate-key.js';
import { DirectoryConnection } from '../store/entities/directory-connection.entity.js';
import { DirectoryInvitation } from '../store/entities/directory-invitation.entity.js';
import { DirectoryMembership } from '../store/entities/directory-membership.entity.js';
import { DirectoryOrganization } from '../store/entities/directory-organization.entity.js';
import { DirectoryUser } from '../store/entities/directory-user.entity.js';
import { Organization } from '../store/entities/organization.entity.js';
import { inTurn } from '../store/sqlite-turns.js';

/** What applying one change came to. */
export interface DirectoryWriteOutcome {
  /** Whether the change replaced what was stored (false: an older or duplicate delivery). */
  applied: boolean;
  /** Whether the row is a tombstone after it. */
  deleted: boolean;
}

export interface DirectoryWriter {
  /** Applies one change under the ordering rules of src/core/directory-ordering.ts; idempotent. */
  apply(change: DirectoryChange): Promise<DirectoryWriteOutcome>;
}

const ENTITIES: Record<DirectoryTable, new () => ObjectLiteral> = {
  user: DirectoryUser,
  organization: DirectoryOrganization,
  membership: DirectoryMembership,
  invitation: DirectoryInvitation,
  connection: DirectoryConnection,
};

interface VersionedRow {
  sourceUpdatedAt: Date;
  deliveryCreatedAt: Date;
  eventId: string;
  deletedAt: Date | null;
}

const ER_LOCK_DEADLOCK = 1213;
const ER_LOCK_WAIT_TIMEOUT = 1205;
const MAX_ATTEMPTS = 10;

/** A lost lock race InnoDB rolled back (a deadlock, or a lock wait that timed out): the transaction may run again. */
function isLockConflict(error: unknown): boolean {
  const found = error as { errno?: unknown; driverError?: { errno?: unknown } } | null;
  const errno = found?.errno ?? found?.driverError?.errno;
  return errno === ER_LOCK_DEADLOCK || errno === ER_LOCK_WAIT_TIMEOUT;
}

/**
 * Before running a lost race again, wait a random while that grows with the attempts (5–20 ms, then up to 160 ms):
 * racers that retry at once meet on the same gap lock again, and under load ten immediate retries were seen to run
 * out.
 */
function backOff(attempt: number): Promise<void> {
  const ms = Math.min(160, 5 * 2 ** attempt) * (0.5 + Math.random());
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The access directory's one writer. Each change is one transaction: the row is read under `SELECT … FOR UPDATE`
 * (MySQL; SQLite's single connection takes turns instead), the ordering rule decides, and the row is inserted or
 * replaced whole, so two workers applying a deletion and an update of one row at once end as either order would.
 * Two inserts of a row not yet stored can deadlock on the gap they both locked; InnoDB rolls one back and it runs
 * again (a lost insert race, surfacing as a duplicate key, runs again too).
 */
export function createDirectoryWriter({ dataSource }: { dataSource: DataSource }): DirectoryWriter {
  const sqlite = dataSource.options.type === 'better-sqlite3';

  /** The service organization an `external_id` names by its slug, for the first-sight link. */
  async function organizationBySlug(manager: EntityManager, slug: string | null): Promise<string | null> {
    if (slug === null) return null;
    const found = await manager.getRepository(Organization).findOne({ select: { id: true }, where: { slug } });
    return found?.id ?? null;
  }

  async function write(change: DirectoryChange): Promise<DirectoryWriteOutcome> {
    return dataSource.transaction(async (manager) => {
      const entity = ENTITIES[change.table];
      const query = manager.getRepository(entity).createQueryBuilder('row').where('row.id = :id', { id: change.id });
      if (!sqlite) query.setLock('pessimistic_write');
      const stored = (await query.getOne()) as VersionedRow | null;
      const storedVersion = stored && {
        updatedAt: stored.sourceUpdatedAt,
        deliveryCreatedAt: stored.deliveryCreatedAt,
        eventId: stored.eventId,
        deleted: stored.deletedAt !== null,
      };
      if (!changeApplies(storedVersion, change.kind, change.version)) return { applied: false, deleted: stored?.deletedAt != null };
      const deleted = change.kind === 'delete';
      const row: Record<string, unknown> = {
        id: change.id,
        ...change.fields,
        sourceUpdatedAt: change.version.updatedAt,
        deliveryCreatedAt: change.version.deliveryCreatedAt,
        eventId: change.version.eventId,
        deletedAt: deleted ? change.version.deliveryCreatedAt : null,
      };
      if (change.table === 'organization') row.linkedOrganizationId = await organizationBySlug(manager, change.fields.externalId);
      if (stored) await manager.getRepository(entity).update({ id: change.id }, row);
      else await manager.getRepository(entity).insert(row);
      return { applied: true, deleted };
    });
  }

  return {
    async apply(change) {
      if (sqlite) return inTurn(dataSource, () => write(change));
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await write(change);
        } catch (error) {
          if (!(isLockConflict(error) || isDuplicateKey(error)) || attempt >= MAX_ATTEMPTS) throw error;
          await backOff(attempt);
        }
      }
    },
  };
}
