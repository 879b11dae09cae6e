import { afterAll, afterEach, beforeAll, describe } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { cleanTables, closeTestStore, openTestStore, testDialects, type Dialect } from './databases.js';

/** Runs `body` once per dialect of this run (MySQL and SQLite unless TEST_DIALECTS narrows it). */
export function forEachDialect(title: string, body: (dialect: Dialect) => void): void {
  describe.each(testDialects())(`${title} [%s]`, body);
}

/**
 * Inside a describe block: a migrated store that is empty when the block starts, emptied after each test, closed at
 * the end. On MySQL it is the worker's database of this run, migrated once (test-run-marker.ts): a test that changes
 * its schema calls `markTestStoreDirty` first.
 * Returns a getter, because the store only exists once `beforeAll` has run.
 */
export function useTestStore(dialect: Dialect): () => DataSource {
  let dataSource: DataSource | undefined;
  beforeAll(async () => {
    dataSource = await openTestStore(dialect);
  });
  afterEach(async () => {
    if (dataSource !== undefined) await cleanTables(dataSource);
  });
  afterAll(async () => {
    await closeTestStore(dataSource);
  });
  return () => {
    if (dataSource === undefined) throw new Error('useTestStore: the store is not open (beforeAll failed?)');
    return dataSource;
  };
}
