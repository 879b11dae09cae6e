import { In, type DataSource } from 'typeorm';
import { ErrorCode, notFoundError, userError } from '../core/errors.js';
import { actorName } from '../core/principal.js';
import { RAN } from '../core/job-lifecycle.js';
import { CheckVersion } from '../store/entities/check-version.entity.js';
import { Check } from '../store/entities/check.entity.js';
import { Job } from '../store/entities/job.entity.js';
import type { Principal } from '../core/principal.js';

export interface CheckSummary {
  check: Check;
}

export interface CheckView {
  check: Check;
  versions: CheckVersion[];
  /** Jobs that ran it: the natural-language runs that produced its versions and the replays, oldest first. */
  jobs: Pick<Job, 'id' | 'status' | 'trigger' | 'createdAt' | 'plan'>[];
}

/** Checks (Set A tests / Set B scenarios) of an organization; another organization's ids are not found. */
export function createCheckService(dataSource: DataSource) {
  async function checkOf(organizationId: string, checkId: string): Promise<Check> {
    const check = await dataSource.getRepository(Check).findOneBy({ id: checkId, organizationId });
    if (!check) throw notFoundError('check');
    return check;
  }

  return {
    /** Newest first, optionally of one repository; at most `limit`. */
    async list(principal: Principal, options: { repositoryId?: string; limit: number }): Promise<Check[]> {
      const { organizationId } = principal;
      return dataSource.getRepository(Check).find({
        where: { organizationId, ...(options.repositoryId ? { repositoryId: options.repositoryId } : {}) },
        order: { createdAt: 'DESC', id: 'ASC' },
        take: options.limit,
      });
    },

    async get(principal: Principal, checkId: string): Promise<CheckView> {
      const { organizationId } = principal;
      const check = await checkOf(organizationId, checkId);
      const [versions, jobs] = await Promise.all([
        dataSource.getRepository(CheckVersion).find({ where: { checkId }, order: { version: 'ASC' } }),
        dataSource.getRepository(Job).find({
          select: { id: true, status: true, trigger: true, createdAt: true, plan: true },
          where: { checkId, organizationId, status: In([...RAN]) },
          order: { createdAt: 'ASC', id: 'ASC' },
        }),
      ]);
      return { check, versions, jobs };
    },

    /**
     * The generated Playwright source of a version (by default the one replays run: the check's `version`, not a
     * newer proposal); 404 for a check never compiled.
     */
    async source(principal: Principal, checkId: string, version?: number): Promise<CheckVersion> {
      const { organizationId } = principal;
      const check = await checkOf(organizationId, checkId);
      const found = await dataSource.getRepository(CheckVersion).findOneBy({ checkId, version: version ?? check.version });
      if (!found) throw notFoundError('check_version');
      return found;
    },

    /**
     * A person accepts a version a healing replay proposed: it becomes the one replays run (the check's `version`),
     * and every other open proposal is superseded (it was made from the version replays ran until now). One
     * transaction; the state changes only from `proposed`, so of two racing accepts one answers 409.
     */
    async accept(principal: Principal, checkId: string, version: number): Promise<{ check: Check; version: CheckVersion }> {
      const { organizationId } = principal;
      return dataSource.transaction(async (manager) => {
        // Accepts of one check take turns on its row (two open proposals accepted at once would otherwise each wait
        // on the other's version row). SQLite runs one write transaction at a time and has no FOR UPDATE.
        if (manager.connection.options.type !== 'better-sqlite3') {
          await manager.query(`SELECT id FROM checks WHERE id = ? AND organization_id = ? FOR UPDATE`, [checkId, organizationId]);
        }
        const check = await manager.getRepository(Check).findOneBy({ id: checkId, organizationId });
        if (!check) throw notFoundError('check');
        const versions = manager.getRepository(CheckVersion);
        const found = await versions.findOneBy({ checkId, version });
        if (!found) throw notFoundError('check_version');
        const accepted = { state: 'accepted' as const, acceptedBy: actorName(principal), acceptedAt: new Date() };
        const changed = await versions.update({ checkId, version, state: 'proposed' }, accepted);
        if (changed.affected !== 1) {
          throw userError(ErrorCode.CheckVersionNotProposed, `Version ${version} of this check is ${found.state}, not proposed: only a proposal can be accepted`, { status: 409, details: { state: found.state } });
        }
        await manager.getRepository(Check).update({ id: checkId }, { version, status: 'active' });
        await versions.update({ checkId, state: 'proposed' }, { state: 'superseded' });
        return { check: { ...check, version, status: 'active' }, version: { ...found, ...accepted } };
      });
    },
  };
}

export type CheckService = ReturnType<typeof createCheckService>;
