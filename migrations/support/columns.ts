import type { QueryRunner, TableColumnOptions } from 'typeorm';

/**
 * Column shapes for Table-API migrations that must match the entities on every driver, or the schema-drift test
 * fails. A `@CreateDateColumn` takes its type, precision and default from the driver's `mappedDataTypes`
 * (MySQL: `datetime(6) DEFAULT CURRENT_TIMESTAMP(6)`, SQLite: `datetime DEFAULT (datetime('now'))`), so the
 * migration reads the same table.
 */
export function createDateColumn(runner: QueryRunner, name = 'created_at'): TableColumnOptions {
  const types = runner.connection.driver.mappedDataTypes;
  return {
    name,
    type: String(types.createDate),
    precision: types.createDatePrecision,
    default: types.createDateDefault,
  };
}

/** A millisecond `datetime(3)` column, the counterpart of `@Column({ type: 'datetime', precision: 3 })`. */
export function datetimeColumn(name: string, options: { nullable: boolean }): TableColumnOptions {
  return { name, type: 'datetime', precision: 3, isNullable: options.nullable };
}
