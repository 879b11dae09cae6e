import { getMetadataArgsStorage } from 'typeorm';

/**
 * The declared length of an entity's string column, read from its `@Column` decorator, so request validation takes
 * its bounds from the schema instead of repeating them: a value the column cannot hold is a 400, never the
 * database's "Data too long". Throws at startup when the column has no length, so a wrong name cannot go unnoticed.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type for an entity target
export function columnLength(entity: Function, property: string): number {
  const column = getMetadataArgsStorage().columns.find((candidate) => candidate.target === entity && candidate.propertyName === property);
  const length = Number(column?.options.length);
  if (!Number.isInteger(length) || length <= 0) throw new Error(`${entity.name}.${property} is not a string column with a length`);
  return length;
}
