import type { DataSource, ObjectLiteral } from 'typeorm';
import { DirectoryConnection } from '../../src/store/entities/directory-connection.entity.js';
import { DirectoryInvitation } from '../../src/store/entities/directory-invitation.entity.js';
import { DirectoryMembership } from '../../src/store/entities/directory-membership.entity.js';
import { DirectoryOrganization } from '../../src/store/entities/directory-organization.entity.js';
import { DirectoryUser } from '../../src/store/entities/directory-user.entity.js';

/** The tables identity deliveries write (not the administrators' links). */
export const DIRECTORY_TABLES: ReadonlyArray<new () => ObjectLiteral> = [DirectoryUser, DirectoryOrganization, DirectoryMembership, DirectoryInvitation, DirectoryConnection];

function canonical(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]));
  }
  return value;
}

/** Every row of the access directory, by table and id, dates as ISO text: equal dumps are equal directories. */
export async function dumpAccessDirectory(dataSource: DataSource): Promise<Record<string, unknown[]>> {
  const dump: Record<string, unknown[]> = {};
  for (const entity of DIRECTORY_TABLES) {
    const repository = dataSource.getRepository(entity);
    dump[repository.metadata.tableName] = (await repository.find({ order: { id: 'ASC' } })).map(canonical);
  }
  return dump;
}

/** Empties the tables identity deliveries write. */
export async function clearAccessDirectory(dataSource: DataSource): Promise<void> {
  for (const entity of DIRECTORY_TABLES) await dataSource.getRepository(entity).clear();
}
