import { In, type DataSource } from 'typeorm';
import { notFoundError } from '../core/errors.js';
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

    /** The generated Playwright source of a version (the latest by default); 404 for a check never compiled. */
    async source(principal: Principal, checkId: string, version?: number): Promise<CheckVersion> {
      const { organizationId } = principal;
      await checkOf(organizationId, checkId);
      const found = await dataSource.getRepository(CheckVersion).findOne({
        where: { checkId, ...(version !== undefined ? { version } : {}) },
        order: { version: 'DESC' },
      });
      if (!found) throw notFoundError('check_version');
      return found;
    },
  };
}

export type CheckService = ReturnType<typeof createCheckService>;
