import type { QueryRunner, TableColumnOptions } from 'typeorm';

/**
 * Column shapes for Table-API migrations that must match the entities on every driver, or the schema-drift test
 * fails. A `@CreateDateColumn` takes its type, precision and default from the driver's `mappedDataTypes`, which
 * `createDataSource` sets to milliseconds on both dialects (src/store/created-at.ts), so the migration reads the same
 * table.
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

/**
 * The `created_at` shape the migrations before 1763804000000 created: TypeORM's own defaults, microseconds on MySQL
 * (`datetime(6) DEFAULT CURRENT_TIMESTAMP(6)`) and whole seconds on SQLite (`datetime DEFAULT (datetime('now'))`).
 * Those migrations keep creating it, so a new database passes through the same steps as one made before.
 */
export function legacyCreateDateColumn(runner: QueryRunner, name = 'created_at'): TableColumnOptions {
  const sqlite = runner.connection.driver.options.type === 'better-sqlite3';
  return sqlite
    ? { name, type: 'datetime', default: "datetime('now')" }
    : { name, type: 'datetime', precision: 6, default: 'CURRENT_TIMESTAMP(6)' };
}
