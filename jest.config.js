/** Jest in ESM mode (see STACK.md): esbuild strips types (test/support/esbuild-transform.cjs), `npm run typecheck` type-checks. */
export default {
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': '<rootDir>/test/support/esbuild-transform.cjs' },
  // With JEST_CPU_FILE set, Node's environment also records each file's CPU (test/support/cpu-environment.cjs).
  testEnvironment: process.env.JEST_CPU_FILE ? '<rootDir>/test/support/cpu-environment.cjs' : 'node',
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // Integration and end-to-end tests start real processes, browsers and databases; the slowest take about 25 s on
  // the 2-core development machine. A limit that holds on a machine three times slower (CI shares its cores with
  // whatever else runs there) fails only a test that hangs.
  testTimeout: 120_000,
  // Four test files at a time on the 2-core machine: most of a file's time is waiting (browsers, child processes,
  // timers), and more files at once fill it. Measured on a quiet 2-core machine, whole runs, all green: 2 workers
  // 690 s, 3 workers 556 s (1.80 of the 2 cores busy), 4 workers 500 and 518 s (1.92 and 1.95 busy; about 1,000 s of
  // CPU in each run, so more workers cannot help). Each file has its own database, `_w<JEST_WORKER_ID>`, and its own
  // ports. Tests with a timing window keep a margin for a machine this busy (backlog-kill's lock lifetime).
  maxWorkers: 4,
  // Jest keeps each finished file's module registry alive in its worker: a worker's heap grew 30–50 MB a file and
  // reached 1.3–1.6 GB by the end of a run, and every major collection marks all of it (on helper threads too, CPU
  // the 2 cores do not have). A worker past 500 MB after a file is replaced before its next: on 3,004 tests of the
  // unit, API, jobs, identity, webhook and notify files, 366 and 374 s of CPU against 397 and 380 without.
  workerIdleMemoryLimit: '500MB',
  // Slowest files first, on a fresh clone too (from test/support/file-durations.json), so the workers end together.
  testSequencer: '<rootDir>/test/support/slowest-first-sequencer.cjs',
  // The progress reporter writes the counts after every file (JEST_PROGRESS_FILE), so a run that CI's guard kills
  // still says what finished.
  reporters: ['default', '<rootDir>/test/support/progress-reporter.cjs'],
};
