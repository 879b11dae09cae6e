// Lint for the whole tree: typescript-eslint with type information, plus the import boundaries of
// ../shared/ARCHITECTURE.md ("Folder layout") so that CI, not review, keeps the layers apart.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

/**
 * Folders of src/ and the other src/ folders each may import (ARCHITECTURE.md, "Folder layout"). Missing: may import
 * all (workflows, api, cli, compose). The edges that come later (bot/, webhooks/, notify/) reach the job core through
 * the use cases in src/jobs and never write to the store or the queue themselves.
 */
const MAY_IMPORT = {
  core: [],
  store: ['core'],
  queue: ['core', 'store'],
  browser: ['core'],
  artifacts: ['core'],
  planner: ['core'],
  checks: ['core', 'browser'],
  probes: ['core'],
  repos: ['core', 'store'],
  identity: ['core', 'store'],
  codehost: ['core'],
  jobs: ['core', 'store', 'queue', 'planner', 'artifacts'],
  webhooks: ['core', 'jobs', 'identity'],
  notify: ['core', 'jobs', 'codehost'],
};
const SRC_FOLDERS = [...Object.keys(MAY_IMPORT), 'workflows', 'api', 'cli', 'compose'];
/** What the Slack app in bot/ may import from src/ (it calls the use cases; never the store or the queue). */
const BOT_MAY_IMPORT = ['core', 'jobs', 'notify'];

/** Packages and modules that do I/O: src/core receives such things through ports, never imports them. */
const IO_MODULES = [
  'typeorm', 'mysql2', 'mysql2/*', 'better-sqlite3', 'ioredis', 'express', 'pino', 'pino-pretty', 'undici',
  'playwright', 'playwright-core', '@playwright/*', 'agenda', '@agendajs/*', '@slack/*', '@octokit/*',
  ...['fs', 'fs/promises', 'net', 'http', 'https', 'http2', 'child_process', 'dgram', 'dns', 'tls', 'worker_threads']
    .flatMap((name) => [name, `node:${name}`]),
];
/** What src/store may not import although it does I/O itself: it talks to the database and nothing else. */
const NOT_FOR_STORE = [
  'ioredis', 'express', 'undici', 'playwright', 'playwright-core', '@playwright/*', 'agenda', '@agendajs/*',
  '@slack/*', '@octokit/*',
];

const relativeTo = (name) => `^(\\./|(\\.\\./)+)${name}`;
const NO_COMPOSE = {
  regex: `${relativeTo('compose')}(/|$)`,
  message: 'src/compose is the composition root: only src/cli imports it. Take what you need as a parameter.',
};
const NO_LOAD_CONFIG = {
  regex: `${relativeTo('config')}(\\.js)?$`,
  importNames: ['loadConfig'],
  message: 'Only src/cli reads the environment (loadConfig); take the Config or the group you need as a parameter.',
};
/**
 * src/config.ts sits above every folder it configures (it reads the environment and names the groups the layers
 * define): below the composition root, the CLI and the API, nothing imports it, so no layer depends on a higher one.
 */
const NO_CONFIG = {
  regex: `${relativeTo('config')}(\\.js)?$`,
  message: 'src/config.ts is above this folder: take your settings as a parameter and define their type here.',
};
const noFolders = (folder, allowed) =>
  SRC_FOLDERS.filter((other) => other !== folder && !allowed.includes(other)).map((other) => ({
    regex: `^(\\.\\./)+${other}(/|$)`,
    message: `src/${folder} may import ${allowed.length ? `only ${allowed.join(', ')}` : 'nothing else'} from src (ARCHITECTURE.md).`,
  }));
const noModules = (names, why) => ({ group: names, message: why });

/** One `no-restricted-imports` entry per scope: flat config replaces a rule's options, it does not merge them. */
const restrict = (files, patterns, ignores = []) => ({
  files,
  ignores,
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
});

const boundaries = [
  restrict(['src/**/*.ts'], [NO_COMPOSE, NO_LOAD_CONFIG], ['src/cli/**']),
  ...Object.entries(MAY_IMPORT).map(([folder, allowed]) =>
    restrict([`src/${folder}/**/*.ts`], [NO_COMPOSE, NO_CONFIG, ...noFolders(folder, allowed)]),
  ),
  restrict(['src/workflows/**/*.ts', 'src/logger.ts'], [NO_COMPOSE, NO_CONFIG]),
  // Migrations are the bottom of the store: schema changes written against TypeORM alone, run by src/store.
  // The Agenda table's migration delegates to the backend's own versioned schema (the backend stands on its own).
  restrict(['migrations/**/*.ts'], [{
    regex: '^\\.\\./(?!src/queue/mysql-backend/schema\\.js$)',
    message: 'A migration imports typeorm and migrations/support only: it must read the same in a year.',
  }]),
  restrict(['src/core/**/*.ts'], [
    NO_COMPOSE,
    NO_CONFIG,
    ...noFolders('core', []),
    noModules(IO_MODULES, 'src/core does no I/O: inject a port (store, clock, client, logger) instead.'),
    { regex: `${relativeTo('logger')}(\\.js)?$`, allowTypeImports: true, message: 'src/core takes a logger as a parameter.' },
  ]),
  restrict(['src/store/**/*.ts'], [
    NO_COMPOSE,
    NO_CONFIG,
    ...noFolders('store', ['core']),
    noModules(NOT_FOR_STORE, 'src/store talks to the database only (typeorm and its drivers).'),
    { group: ['pino', 'pino-pretty'], allowTypeImports: true, message: 'src/store takes a logger as a parameter.' },
  ]),
  restrict(['bot/**/*.ts'], [
    ...SRC_FOLDERS.filter((folder) => !BOT_MAY_IMPORT.includes(folder)).map((folder) => ({
      regex: `^(\\.\\./)+src/${folder}(/|$)`,
      message: `bot/ may import only ${BOT_MAY_IMPORT.map((name) => `src/${name}`).join(', ')} (ARCHITECTURE.md): call the use cases.`,
    })),
    { regex: `^(\\.\\./)+src/config(\\.js)?$`, message: 'bot/ receives its configuration and services from the composition root.' },
  ]),
  // The one list of every table of the service names the queue's entity (schema-registry.ts says why).
  restrict(['src/store/schema-registry.ts'], [NO_COMPOSE, NO_CONFIG, ...noFolders('store', ['core', 'queue'])]),
  // The API's response schemas are shared with the dashboard: zod and src/core only.
  restrict(['src/api/schemas/**/*.ts'], [
    NO_COMPOSE,
    NO_CONFIG,
    ...noFolders('api/schemas', ['core']),
    { regex: '^\\.\\./(?!\\.\\./)', message: 'src/api/schemas is shared with the dashboard: import only zod, src/core and each other.' },
    noModules(IO_MODULES, 'src/api/schemas is shared with the dashboard: no I/O modules.'),
  ]),
];

export default defineConfig(
  globalIgnores(['dist/', 'coverage/', 'data/', 'node_modules/']),
  js.configs.recommended,
  {
    files: ['**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    files: ['**/*.ts'],
    // The syntax-level recommended set, plus the type-aware rules that catch bugs rather than style.
    extends: [tseslint.configs.recommended],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/no-base-to-string': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': 'off',
    },
  },
  { files: ['src/**/*.ts'], ignores: ['src/cli/**'], rules: { 'no-console': 'error' } },
  ...boundaries,
);
