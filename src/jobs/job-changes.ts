import type { DataSource } from 'typeorm';
import { Job } from '../store/entities/job.entity.js';
import { selectSummary, type JobSummaryRow } from './list-jobs.js';

/**
 * A place in the order of job writes, (updated_at, id): `id` null stands after every row written at `at` (a
 * watermark), a string just after that row.
 */
export interface ChangePosition {
  /** Milliseconds since the epoch. */
  at: number;
  id: string | null;
}

/** Negative, zero or positive as `a` is before, at or after `b`. Ids are lowercase UUIDs, so code-unit order is the database's. */
export function comparePositions(a: ChangePosition, b: ChangePosition): number {
  if (a.at !== b.at) return a.at - b.at;
  if (a.id === b.id) return 0;
  if (a.id === null) return 1;
  if (b.id === null) return -1;
  return a.id < b.id ? -1 : 1;
}

export function positionOf(row: Pick<JobSummaryRow, 'updatedAt' | 'id'>): ChangePosition {
  return { at: row.updatedAt.getTime(), id: row.id };
}

/**
 * The organization's job rows written after `after` and at or before `upTo`, in (updated_at, id) order, at most
 * `limit`: one range of the index (organization_id, updated_at, id).
 */
export async function readJobChanges(dataSource: DataSource, organizationId: string, after: ChangePosition, upTo: Date, limit: number): Promise<JobSummaryRow[]> {
  const query = selectSummary(dataSource.getRepository(Job).createQueryBuilder('job'))
    .where('job.organization_id = :organizationId', { organizationId })
    .andWhere('job.updated_at <= :upTo', { upTo });
  const afterAt = new Date(after.at);
  if (after.id === null) query.andWhere('job.updated_at > :afterAt', { afterAt });
  else query.andWhere('job.updated_at >= :afterAt AND (job.updated_at > :afterAt OR job.id > :afterId)', { afterAt, afterId: after.id });
  return query.orderBy('job.updated_at', 'ASC').addOrderBy('job.id', 'ASC').limit(limit).getMany();
}
