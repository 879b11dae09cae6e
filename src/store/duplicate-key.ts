/**
 * Whether a failed write broke a primary or unique key, on either driver: MySQL/MariaDB's ER_DUP_ENTRY (1062) from
 * mysql2 directly (the write batch) or wrapped by TypeORM (`driverError`), and SQLite's constraint codes.
 */
export function isDuplicateKey(error: unknown): boolean {
  const candidates = [error, (error as { driverError?: unknown } | null)?.driverError];
  return candidates.some((candidate) => {
    const { code, errno } = (candidate ?? {}) as { code?: unknown; errno?: unknown };
    return errno === 1062 || code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
  });
}
