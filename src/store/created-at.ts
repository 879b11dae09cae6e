import type { DataSource } from 'typeorm';

/**
 * Millisecond `created_at` on both dialects. TypeORM's `@CreateDateColumn` takes its precision and default from the
 * driver's `mappedDataTypes`: microseconds on MySQL, and `datetime('now')` on SQLite, which keeps whole seconds, so
 * rows made within one second came back in any order. Milliseconds are what a JavaScript Date holds, so a value
 * read back compares equal to the stored one on both dialects. Set before `initialize()`, when the entity metadata
 * reads them; migration 1763804000000 moves existing tables to this shape.
 */
export const MILLISECOND_CREATE_DATE = {
  mysql: { precision: 3, default: 'CURRENT_TIMESTAMP(3)' },
  sqlite: { precision: undefined, default: "strftime('%Y-%m-%d %H:%M:%f', 'now')" },
} as const;

export function useMillisecondCreateDates(dataSource: DataSource): DataSource {
  const shape = dataSource.options.type === 'better-sqlite3' ? MILLISECOND_CREATE_DATE.sqlite : MILLISECOND_CREATE_DATE.mysql;
  const types = dataSource.driver.mappedDataTypes;
  types.createDatePrecision = shape.precision;
  types.createDateDefault = shape.default;
  return dataSource;
}
