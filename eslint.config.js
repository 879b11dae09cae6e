// Lint for the whole tree: typescript-eslint with type information, plus the import boundaries of
// ../shared/ARCHITECTURE.md ("Folder layout") so that CI, not review, keeps the layers apart.
import { builtinModules } from 'node:module';
import path from 'node:path';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

/**
 * Packages that do I/O, by what they talk to. A zone names the groups it is for; every other group is refused in it.
 * Packages not listed (zod, compromise, commander, node:crypto, node:path …) do no I/O and are free.
 */
const IO_PACKAGES = {
  database: ['typeorm', 'mysql2', 'better-sqlite3', 'pg'],
  queue: ['agenda', '@agendajs/*', 'ioredis'],
  browser: ['playwright', 'playwright-core', '@playwright/*', '@axe-core/*'],
  'http server': ['express'],
  'http client': ['undici', 'openid-client'],
  chat: ['@slack/*'],
  'code host': ['@octokit/*'],
  // The Model Context Protocol's transports (stdio, streamable HTTP) and the server that speaks it.
  'agent protocol': ['@modelcontextprotocol/*'],
  logging: ['pino', 'pino-pretty'],
  files: ['fs'],
  network: ['net', 'http', 'https', 'http2', 'dns', 'tls', 'dgram'],
  processes: ['child_process', 'worker_threads', 'cluster'],
};
const ALL_IO = Object.keys(IO_PACKAGES);
/** Packages inside an I/O group's scope that do no I/O themselves. */
const NO_IO = ['@octokit/webhooks-methods' /* HMAC signatures of a webhook body */];

/** Single files with more than their zone may import, and why. */
const FILE_MAY = {
  // The one list of every table and migration of the service names the queue's entity (schema-registry.ts says why).
  'src/store/schema-registry.ts': ['migrations', 'src/queue/mysql-backend/agenda-job.entity.ts'],
};
const BELOW_WORKFLOWS = [
  'core', 'store', 'queue', 'browser', 'artifacts', 'planner', 'checks', 'probes', 'repos', 'identity', 'codehost',
  'jobs', 'notify', 'logger', 'onboarding/model',
];
/**
 * The zones (ARCHITECTURE.md, "Folder layout"; docs/architecture.md's import table says the same): a path prefix, the other
 * zones it may import (its own always), the I/O groups it is for (`io`), and what it may import for types only
 * (`types`: a handle passed through, never called). A file belongs to the zone of its longest prefix; so does the
 * module an import resolves to. Folders in no zone (test/, bench/, the top-level files) may import anything;
 * nothing in a zone imports them.
 */
const ZONES = {
  core: { path: 'src/core', may: [], io: [], types: ['logger'], why: 'inject a port (store, clock, client, logger) instead' },
  store: { path: 'src/store', may: ['core', 'logger'], io: ['database', 'files'], types: ['logging'], why: 'it talks to the database (and its SQLite file) only' },
  queue: { path: 'src/queue', may: ['core', 'store', 'queue/mysql-backend', 'logger'], io: ['queue', 'database'] },
  // The Agenda storage backend stands on its own (it could be published as it is): packages only.
  'queue/mysql-backend': { path: 'src/queue/mysql-backend', may: [], io: ['queue', 'database'] },
  browser: { path: 'src/browser', may: ['core', 'logger'], io: ['browser', 'network', 'files'] },
  artifacts: { path: 'src/artifacts', may: ['core', 'logger'], io: ['files'] },
  planner: {
    path: 'src/planner', may: ['core', 'logger'], io: [],
    why: 'the planner receives page snapshots as data and its model client as a port, never a Playwright object',
  },
  checks: { path: 'src/checks', may: ['core', 'browser', 'logger'], io: [], why: 'it drives the page through src/browser' },
  probes: { path: 'src/probes', may: ['core', 'logger'], io: ['network', 'http client'] },
  // Onboarding (issue 28): the shapes its steps store, and the steps. Fetching runs git in child processes, in a
  // temporary folder, and reads node:tls only for Node's root certificates (git gets the same trust as Node).
  onboarding: { path: 'src/onboarding', may: ['core', 'logger', 'onboarding/model'], io: [] },
  'onboarding/fetch': { path: 'src/onboarding/fetch', may: ['core', 'logger', 'onboarding', 'onboarding/model'], io: ['processes', 'files', 'network'] },
  'onboarding/index': { path: 'src/onboarding/index', may: ['onboarding', 'onboarding/model', 'core'], io: ['files'] },
  // What onboarding's steps produce (plain JSON shapes): the contract between the steps and the workflow.
  'onboarding/model': { path: 'src/onboarding/model.ts', may: [], io: [] },
  repos: { path: 'src/repos', may: ['core', 'store', 'logger', 'onboarding/model'], io: ['database'] },
  // The OpenID client (sign-in) talks to the identity provider.
  identity: { path: 'src/identity', may: ['core', 'store', 'logger'], io: ['database', 'http client'] },
  codehost: { path: 'src/codehost', may: ['core', 'logger'], io: ['code host', 'http client', 'files'] },
  jobs: { path: 'src/jobs', may: ['core', 'store', 'queue', 'planner', 'artifacts', 'logger'], io: ['database'] },
  webhooks: {
    path: 'src/webhooks', may: ['core', 'jobs', 'identity', 'logger'], io: ['http server'], types: ['database'],
    why: 'an edge verifies, persists through the use cases in src/jobs and enqueues',
  },
  notify: { path: 'src/notify', may: ['core', 'jobs', 'codehost', 'logger'], io: [], types: ['code host'] },
  // Discovery reads pages through src/browser and tasks through the planner.
  'onboarding/discover': { path: 'src/onboarding/discover', may: ['core', 'onboarding', 'onboarding/model', 'planner', 'browser', 'logger'], io: [], types: ['browser'] },
  workflows: { path: 'src/workflows', may: BELOW_WORKFLOWS, io: ['database', 'queue'], types: ['browser'] },
  api: {
    path: 'src/api', may: [...BELOW_WORKFLOWS, 'workflows', 'webhooks', 'api/schemas', 'config'], io: ['http server'],
    types: ['database', 'network'],
  },
  // The MCP server for coding agents (docs/mcp.md): an edge beside the API, built on its request fields, response
  // bodies and authentication; its tools call a port (the REST client for `qa mcp`, the use cases in `/mcp`).
  mcp: {
    path: 'src/mcp', may: ['core', 'jobs', 'api', 'api/schemas', 'logger'], io: ['agent protocol', 'http server'],
    types: ['database'], why: 'its tools call the API or the use cases through the port in src/mcp/port.ts',
  },
  // Prometheus metrics: the Telemetry port of src/core on a prom-client registry; the composition root feeds it reads.
  metrics: { path: 'src/metrics', may: ['core'], io: [], why: 'the composition root gives it what it reads at scrape time' },
  // The API's response schemas are shared with the dashboard: zod, src/core and each other.
  'api/schemas': { path: 'src/api/schemas', may: ['core'], io: [], why: 'it is shared with the dashboard' },
  cli: { path: 'src/cli', may: ['*'], io: ALL_IO },
  compose: { path: 'src/compose', may: ['*', 'bot'], io: ALL_IO },
  // config.ts sits above every folder it configures: each layer defines the settings type it takes, and only the
  // API, the composition root and the CLI import config.ts. `node:net` is there for `isIP`, which only parses.
  config: {
    path: 'src/config.ts', may: ['core', 'store', 'planner', 'repos', 'probes', 'browser', 'logger'], io: ['network'],
  },
  logger: { path: 'src/logger.ts', may: [], io: ['logging'] },
  // The Slack app calls the use cases, never the store or the queue.
  bot: { path: 'bot', may: ['core', 'jobs', 'notify', 'logger'], io: ['chat', 'http server'], why: 'call the use cases' },
  // The dashboard runs in a browser: its own code and the API's response schemas, nothing of the server.
  web: { path: 'web', may: ['api/schemas'], io: [], why: 'it is a client of the /api routes', browser: true },
  // The dashboard's build report runs in Node at build time (vite.config.ts): it reads the built files.
  'web/build': { path: 'web/build', may: [], io: ['files'] },
  // A migration must read the same in a year: typeorm and migrations/support; the Agenda table's migration delegates
  // to the backend's own versioned schema (the backend stands on its own).
  migrations: { path: 'migrations', may: ['src/queue/mysql-backend/schema.ts'], io: ['database'] },
};

const ROOT = import.meta.dirname;
const SRC_ZONES = Object.keys(ZONES).filter((name) => ZONES[name].path.startsWith('src/'));
const BY_LENGTH = Object.entries(ZONES).sort(([, a], [, b]) => b.path.length - a.path.length);
const NODE_BUILTINS = new Set(builtinModules);

/** The zone of a path relative to the root, or undefined outside every zone. */
function zoneOf(relative) {
  const file = relative.replace(/\.js$/, '.ts');
  return BY_LENGTH.find(([, zone]) => file === zone.path || file.startsWith(`${zone.path}/`))?.[0];
}

/** The I/O group of a package specifier (`node:fs/promises` → files), or undefined. */
function ioGroupOf(specifier) {
  const bare = specifier.replace(/^node:/, '');
  const name = bare.startsWith('@') ? bare.split('/').slice(0, 2).join('/') : bare.split('/')[0];
  if (NO_IO.includes(name)) return undefined;
  return ALL_IO.find((group) =>
    IO_PACKAGES[group].some((pattern) => (pattern.endsWith('/*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern)),
  );
}

function mayImportZone(zoneName, file, target) {
  const { may } = ZONES[zoneName];
  const targetZone = zoneOf(target);
  if (targetZone === zoneName) return true;
  const granted = [...may, ...(FILE_MAY[file] ?? [])];
  if (granted.includes(target.replace(/\.js$/, '.ts'))) return true;
  if (granted.includes(targetZone)) return true;
  return granted.includes('*') && SRC_ZONES.includes(targetZone);
}

/** Why `specifier` may not be imported by `file` (paths relative to the root), or undefined when it may. */
function refusal(file, specifier, typeOnly) {
  const zoneName = zoneOf(file);
  if (zoneName === undefined) return undefined;
  const zone = ZONES[zoneName];
  const because = zone.why ? `: ${zone.why}` : '';
  const types = zone.types ?? [];
  if (specifier.startsWith('.')) {
    const target = path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), specifier)).split(path.sep).join('/');
    if (mayImportZone(zoneName, file, target)) return undefined;
    if (typeOnly && types.includes(zoneOf(target))) return undefined;
    const allowed = zone.may.length ? zone.may.join(', ') : 'nothing';
    return `${zone.path} may import ${allowed} of the other folders (ARCHITECTURE.md), not ${target}${because}.`;
  }
  if (zone.browser && (specifier.startsWith('node:') || NODE_BUILTINS.has(specifier.split('/')[0]))) {
    return `${zone.path} runs in a browser: no Node module (${specifier})${because}.`;
  }
  const group = ioGroupOf(specifier);
  if (group === undefined || zone.io.includes(group) || (typeOnly && types.includes(group))) return undefined;
  const allowedIo = zone.io.length ? `${zone.io.join(', ')} only` : 'none';
  return `${zone.path} does no ${group} I/O (${specifier}; its I/O: ${allowedIo})${because}.`;
}

/** Every way a module names another: import and export declarations, `import()`, and `typeof import()` types. */
const importBoundaries = {
  meta: { type: 'problem', schema: [], docs: { description: 'The import boundaries of ARCHITECTURE.md' } },
  create(context) {
    const file = path.relative(ROOT, context.filename).split(path.sep).join('/');
    if (zoneOf(file) === undefined) {
      // A new folder of src/ is placed in the layers before it holds code: else it would import what it likes.
      if (!file.startsWith('src/')) return {};
      return { Program: (node) => context.report({ node, message: `${file} is in no zone: add its folder to ZONES in eslint.config.js.` }) };
    }
    const check = (node, source, typeOnly) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') {
        context.report({ node, message: 'Name the imported module literally, so that its boundary can be checked.' });
        return;
      }
      const message = refusal(file, source.value, typeOnly);
      if (message) context.report({ node, message });
    };
    const typeOnlyImport = (node) =>
      node.importKind === 'type' ||
      (node.specifiers.length > 0 && node.specifiers.every((specifier) => specifier.importKind === 'type'));
    return {
      ImportDeclaration: (node) => check(node, node.source, typeOnlyImport(node)),
      ExportAllDeclaration: (node) => check(node, node.source, node.exportKind === 'type'),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source, node.exportKind === 'type'),
      ImportExpression: (node) => check(node, node.source, false),
      TSImportType: (node) => check(node, node.source ?? node.argument.literal, true),
      TSExternalModuleReference: (node) => check(node, node.expression, false),
    };
  },
};

export default defineConfig(
  globalIgnores(['dist/', 'coverage/', 'data/', 'node_modules/', 'test/fixtures/repos/']),
  js.configs.recommended,
  {
    files: ['**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
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
  {
    files: ['src/**/*.ts', 'bot/**/*.ts', 'migrations/**/*.ts', 'web/**/*.{ts,tsx}'],
    languageOptions: { parser: tseslint.parser },
    plugins: { boundaries: { rules: { imports: importBoundaries } } },
    rules: { 'boundaries/imports': 'error' },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{
          regex: '^(\\./|(\\.\\./)+)config(\\.js)?$',
          importNames: ['loadConfig'],
          message: 'Only src/cli reads the environment (loadConfig); take the Config or the group you need as a parameter.',
        }],
      }],
    },
  },
);
