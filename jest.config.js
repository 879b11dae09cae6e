/** Jest in ESM mode (see STACK.md): ts-jest transpiles, `npm run typecheck` type-checks. */
export default {
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
  testEnvironment: 'node',
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testTimeout: 30000,
};
