import type { DataSource, EntityManager } from 'typeorm';
import type { InstallationChange, ReportedInstallationStatus, ReportedRepository } from '../core/codehost-installation.js';
import { ReportedInstallationRepository } from '../store/entities/reported-installation-repository.entity.js';
import { ReportedInstallation } from '../store/entities/reported-installation.entity.js';
import { inTurn } from '../store/sqlite-turns.js';

/** What applying a change came to: the installation's recorded status after it, and whether the change was too old. */
export interface InstallationRecordOutcome {
  status: ReportedInstallationStatus;
  /** The installation was deleted before (a tombstone) and this change is not its deletion: nothing changed. */
  tombstoned: boolean;
}

export interface InstallationRecords {
  /** Records what the code host reported; idempotent, and a change older than the stored state changes nothing. */
  apply(change: InstallationChange): Promise<InstallationRecordOutcome>;
}

export interface InstallationRecordsDeps {
  dataSource: DataSource;
  /** The `provider` the rows are stored under (`codehost`, as `qa installations connect` uses). */
  provider: string;
  now?: () => Date;
}

/**
 * The code host's reports of installations and their repositories, kept apart from the connections administrators
 * make (`installations`). Every write is an insert-if-absent followed by a conditional update (newer or equal
 * `reported_at`, not deleted), so redeliveries, reordered deliveries and two workers at once converge on the state of
 * the latest event without reading first; a `deleted` installation is a tombstone that later events leave alone.
 */
export function createInstallationRecords({ dataSource, provider, now = () => new Date() }: InstallationRecordsDeps): InstallationRecords {
  async function applyRepositories(manager: EntityManager, change: InstallationChange, repositories: ReportedRepository[], present: boolean, at: Date): Promise<void> {
    for (const repository of repositories) {
      const key = { provider, providerInstallationId: change.installationId, repositoryId: repository.repositoryId };
      const state = { fullName: repository.fullName, private: repository.private, present, reportedAt: change.reportedAt, updatedAt: at };
      await manager.createQueryBuilder().insert().into(ReportedInstallationRepository).values({ ...key, ...state }).orIgnore().execute();
      await manager
        .createQueryBuilder()
        .update(ReportedInstallationRepository)
        .set(state)
        .where('provider = :provider AND provider_installation_id = :installationId AND repository_id = :repositoryId', { provider, installationId: change.installationId, repositoryId: repository.repositoryId })
        .andWhere('reported_at <= :reportedAt', { reportedAt: change.reportedAt })
        .execute();
    }
  }

  async function record(change: InstallationChange): Promise<InstallationRecordOutcome> {
      const at = now();
      return dataSource.transaction(async (manager) => {
        const where = 'provider = :provider AND provider_installation_id = :installationId';
        const key = { provider, installationId: change.installationId };
        const described = { accountLogin: change.account.login, accountType: change.account.type, repositorySelection: change.repositorySelection };
        // An installation first heard of through a repository event is installed: the code host reports on it.
        await manager
          .createQueryBuilder()
          .insert()
          .into(ReportedInstallation)
          .values({ provider, providerInstallationId: change.installationId, ...described, status: change.status ?? 'active', reportedAt: change.reportedAt, updatedAt: at })
          // A no-op update on a duplicate, not INSERT IGNORE: it takes the row's exclusive lock at once, where IGNORE
          // takes a shared one that two transactions then both try to raise (a deadlock on every race).
          .orUpdate(['provider'], ['provider', 'provider_installation_id'])
          .execute();

        if (change.status === 'deleted') {
          await manager.createQueryBuilder().update(ReportedInstallation).set({ status: 'deleted', reportedAt: change.reportedAt, updatedAt: at }).where(where, key).andWhere("status <> 'deleted'").execute();
          await manager.createQueryBuilder().update(ReportedInstallationRepository).set({ present: false, updatedAt: at }).where(where, key).andWhere('present = :present', { present: true }).execute();
        } else if (change.status !== undefined) {
          await manager
            .createQueryBuilder()
            .update(ReportedInstallation)
            .set({ ...described, status: change.status, reportedAt: change.reportedAt, updatedAt: at })
            .where(where, key)
            .andWhere("status <> 'deleted'")
            .andWhere('reported_at <= :reportedAt', { reportedAt: change.reportedAt })
            .execute();
        } else {
          // A repository change says nothing about suspension, so it leaves the status and its time alone.
          await manager.createQueryBuilder().update(ReportedInstallation).set({ ...described, updatedAt: at }).where(where, key).andWhere("status <> 'deleted'").execute();
        }

        const stored = await manager.getRepository(ReportedInstallation).findOneByOrFail({ provider, providerInstallationId: change.installationId });
        const status = stored.status as ReportedInstallationStatus;
        const tombstoned = status === 'deleted' && change.status !== 'deleted';
        if (!tombstoned && change.status !== 'deleted') {
          await applyRepositories(manager, change, change.added, true, at);
          await applyRepositories(manager, change, change.removed, false, at);
        }
        return { status, tombstoned };
      });
  }

  const sqlite = dataSource.options.type === 'better-sqlite3';
  return {
    async apply(change) {
      // SQLite: one connection per process, where transactions cannot overlap: the same turns as the write batch's.
      if (sqlite) return inTurn(dataSource, () => record(change));
      // MySQL: two deliveries about one installation not yet stored can still deadlock on the gap both insert into;
      // InnoDB rolls one back, and every statement here is safe to run again.
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await record(change);
        } catch (error) {
          if (!isDeadlock(error) || attempt >= MAX_DEADLOCK_ATTEMPTS) throw error;
        }
      }
    },
  };
}

const ER_LOCK_DEADLOCK = 1213;
const MAX_DEADLOCK_ATTEMPTS = 10;

function isDeadlock(error: unknown): boolean {
  const found = error as { errno?: unknown; driverError?: { errno?: unknown } } | null;
  return found?.errno === ER_LOCK_DEADLOCK || found?.driverError?.errno === ER_LOCK_DEADLOCK;
}
