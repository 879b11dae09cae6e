import type { DataSource } from 'typeorm';
import type { ReadinessCheck } from '../api/health.router.js';
import type { BrowserPool } from '../browser/browser-pool.js';
import { DEFAULT_TABLE_NAME } from '../queue/mysql-backend/index.js';

/** The queue: its table answers, and in a process with job processors, they are running (not starting or stopping). */
export function queueReadiness(dataSource: DataSource, processors?: { unready(): string | undefined }): ReadinessCheck {
  return {
    dependency: 'queue',
    async unready() {
      try {
        await dataSource.query(`SELECT 1 FROM ${DEFAULT_TABLE_NAME} LIMIT 1`);
      } catch {
        return 'queue table unreachable';
      }
      return processors?.unready();
    },
  };
}

/** A worker's browser: its last launch (or connection) did not fail; before the first run it is not launched yet, and ready. */
export function browserReadiness(browsers: Pick<BrowserPool, 'unready'>): ReadinessCheck {
  return { dependency: 'browser', unready: async () => browsers.unready() };
}
