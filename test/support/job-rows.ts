import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { Job } from '../../src/store/entities/job.entity.js';
import { insertRows } from '../../src/store/write-batch.js';

/** A stored job row as job creation leaves it (queued, from the CLI), with `fields` over it. */
export function jobRow(organizationId: string, repositoryId: string, fields: Partial<Job> = {}): Partial<Job> & { id: string } {
  const createdAt = fields.createdAt ?? new Date();
  return {
    id: randomUUID(),
    organizationId,
    repositoryId,
    checkId: null,
    parentJobId: null,
    status: 'queued',
    task: 'Check the home page',
    baseUrl: 'https://shop.example',
    commitSha: null,
    trigger: 'cli',
    networkAllowlist: [],
    channelContext: null,
    resolution: null,
    plan: null,
    workflowId: null,
    startedBy: null,
    startedAt: null,
    finishedAt: null,
    createdAt,
    updatedAt: createdAt,
    ...fields,
  };
}

/** Stores many job rows in a few statements (500 a statement). */
export async function insertJobRows(dataSource: DataSource, rows: Partial<Job>[]): Promise<void> {
  for (let start = 0; start < rows.length; start += 500) {
    const statement = insertRows(dataSource, Job, rows.slice(start, start + 500));
    await dataSource.query(statement.sql, statement.params);
  }
}
