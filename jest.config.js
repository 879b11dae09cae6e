/** Jest in ESM mode (see STACK.md): ts-jest transpiles, `npm run typecheck` type-checks. */
export default {
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
  testEnvironment: 'node',
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // Integration and end-to-end tests start real processes, browsers and databases; the slowest take about 25 s on
  // the 2-core development machine. A limit that holds on a machine three times slower (CI shares its cores with
  // whatever else runs there) fails only a test that hangs.
  testTimeout: 120_000,
  // Two test files at a time. Jest's default on 2 cores is one, and most of a file's time is waiting (browsers, child
  // processes, timers): on the 2-core machine the suite took 748 s with one worker and 403 s with two, all green
  // (each file has its own database, `_w<JEST_WORKER_ID>`, and its own ports).
  maxWorkers: 2,
  // Slowest files first, on a fresh clone too (from test/support/file-durations.json), so both workers end together.
  testSequencer: '<rootDir>/test/support/slowest-first-sequencer.cjs',
  // The progress reporter writes the counts after every file (JEST_PROGRESS_FILE), so a run that CI's guard kills
  // still says what finished.
  reporters: ['default', '<rootDir>/test/support/progress-reporter.cjs'],
};
