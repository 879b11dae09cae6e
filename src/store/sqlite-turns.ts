import type { DataSource } from 'typeorm';

const turns = new WeakMap<DataSource, Promise<unknown>>();

/**
 * Runs `work` when the data source's previous turn is over. SQLite has one connection, where a second transaction
 * begun while one is open fails ("cannot start a transaction within a transaction"), so writers that open their own
 * transactions concurrently (the write batch, installation records) take turns, one queue per data source.
 */
export function inTurn<T>(dataSource: DataSource, work: () => Promise<T>): Promise<T> {
  const previous = turns.get(dataSource) ?? Promise.resolve();
  const run = previous.then(work);
  turns.set(dataSource, run.catch(() => undefined));
  return run;
}
