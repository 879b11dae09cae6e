/**
 * Runs once after all test files: removes what the run kept for its workers in the temporary folder (the migrated
 * SQLite files that stores copy, databases.ts). Jest loads this file outside its module system, like the global
 * setup, so it imports packages only; the folder's name is databases.ts's `testRunFolder`.
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function globalTeardown(): void {
  const runId = process.env.QA_TEST_RUN_ID;
  if (runId !== undefined) rmSync(join(tmpdir(), `qa-test-run-${runId}`), { recursive: true, force: true });
}
