/**
 * The import boundaries of ARCHITECTURE.md, proven on eslint.config.js itself: for every zone, an import it may
 * make passes and one it may not make is refused, written as a static import, an `export … from`, a dynamic
 * `import()` and a `typeof import()` type. The code is linted as text under a path in that zone, so the test needs no
 * files of its own in src/.
 */
import { describe, expect, it } from '@jest/globals';
import { ESLint } from 'eslint';

const eslint = new ESLint({
  cwd: process.cwd(),
  // Type information is not needed for import rules, and the linted paths are not in the TypeScript project.
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false, project: null } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-misused-promises': 'off',
      '@typescript-eslint/await-thenable': 'off',
      '@typescript-eslint/only-throw-error': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/no-unused-vars': 'off',
    },
  },
});

const BOUNDARY_RULES = ['boundaries/imports', '@typescript-eslint/no-restricted-imports'];

/** The boundary messages for `source` as if it were the file at `path`. */
async function boundaryErrors(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path });
  const fatal = result!.messages.filter((message) => message.fatal);
  expect(fatal).toEqual([]);
  return result!.messages.filter((message) => BOUNDARY_RULES.includes(message.ruleId ?? '')).map((message) => message.message);
}

/** The ways a module names another; each must be refused where a static import is. */
const FORMS: [string, (specifier: string) => string][] = [
  ['import', (specifier) => `import { x } from '${specifier}';\nexport const y = x;\n`],
  ['export from', (specifier) => `export { x } from '${specifier}';\n`],
  ['import()', (specifier) => `export const y = async () => (await import('${specifier}')).x;\n`],
  ['typeof import()', (specifier) => `export type Y = typeof import('${specifier}');\n`],
];

/** [file, import that must be refused, import that must pass]: every zone, its folders, its packages. */
const CASES: [string, string, string][] = [
  ['src/core/x.ts', '../store/entities/job.entity.js', './errors.js'],
  ['src/core/x.ts', '../../bot/app.js', './plan.js'],
  ['src/core/x.ts', '../planner/planner.js', '../core/../core/check.js'],
  ['src/core/x.ts', 'typeorm', 'zod'],
  ['src/core/x.ts', 'node:fs', 'node:crypto'],
  ['src/core/x.ts', 'fs/promises', 'cron-parser'],
  ['src/store/x.ts', '../config.js', './mysql-url.js'],
  ['src/store/x.ts', '../jobs/job-service.js', '../core/errors.js'],
  ['src/store/x.ts', '../queue/index.js', './entities/job.entity.js'],
  ['src/store/x.ts', '../../migrations/1763710000000-create-jobs.js', '../logger.js'],
  ['src/store/x.ts', 'express', 'typeorm'],
  ['src/store/schema-registry.ts', '../queue/index.js', '../queue/mysql-backend/agenda-job.entity.js'],
  ['src/store/schema-registry.ts', '../jobs/job-service.js', '../../migrations/1763710000000-create-jobs.js'],
  ['src/queue/x.ts', '../jobs/job-service.js', '../store/write-batch.js'],
  ['src/queue/x.ts', '../workflows/registry.js', './mysql-backend/index.js'],
  ['src/queue/x.ts', 'playwright', 'agenda'],
  ['src/queue/mysql-backend/x.ts', '../../core/errors.js', './claim.js'],
  ['src/queue/mysql-backend/x.ts', '../enqueue.js', 'mysql2/promise'],
  ['src/browser/x.ts', '../store/entities/job.entity.js', '../core/findings.js'],
  ['src/browser/x.ts', '../planner/planner.js', './locate.js'],
  ['src/browser/x.ts', 'typeorm', 'playwright'],
  ['src/artifacts/x.ts', '../store/entities/artifact.entity.js', '../core/errors.js'],
  ['src/artifacts/x.ts', 'playwright', 'node:fs/promises'],
  ['src/planner/x.ts', '../config.js', './planner.js'],
  ['src/planner/x.ts', '../jobs/job-service.js', '../core/plan.js'],
  ['src/planner/x.ts', '../browser/ground.js', '../core/grounding.js'],
  ['src/planner/x.ts', 'playwright', 'compromise'],
  ['src/planner/x.ts', 'undici', 'zod'],
  // Resolved, not matched as text: a detour through an allowed folder still lands in the store.
  ['src/planner/x.ts', '../core/../store/entities/job.entity.js', './../core/plan.js'],
  ['src/checks/x.ts', '../workflows/registry.js', '../browser/locate.js'],
  ['src/checks/x.ts', 'playwright', '../core/check.js'],
  ['src/probes/x.ts', '../browser/locate.js', '../core/errors.js'],
  ['src/probes/x.ts', 'typeorm', 'node:https'],
  ['src/repos/x.ts', '../jobs/job-service.js', '../store/raw-values.js'],
  ['src/repos/x.ts', 'playwright', 'typeorm'],
  ['src/onboarding/x.ts', './fetch/revision-fetcher.js', '../core/errors.js'],
  ['src/onboarding/x.ts', 'node:child_process', './model.js'],
  ['src/onboarding/fetch/x.ts', '../../store/entities/job.entity.js', '../model.js'],
  ['src/onboarding/fetch/x.ts', 'typeorm', 'node:child_process'],
  ['src/identity/x.ts', '../jobs/job-service.js', '../store/entities/api-key.entity.js'],
  ['src/identity/x.ts', 'express', '../core/principal.js'],
  ['src/codehost/x.ts', '../store/entities/job.entity.js', '../core/errors.js'],
  ['src/codehost/x.ts', 'typeorm', '@octokit/rest'],
  ['src/jobs/x.ts', '../workflows/registry.js', '../queue/index.js'],
  ['src/jobs/x.ts', '../api/app.js', '../planner/planner.js'],
  ['src/jobs/x.ts', '../compose/index.js', '../core/errors.js'],
  ['src/jobs/x.ts', '../../bot/app.js', '../artifacts/artifact-storage.js'],
  ['src/jobs/x.ts', 'playwright', 'typeorm'],
  ['src/webhooks/x.ts', '../store/entities/job.entity.js', '../jobs/job-service.js'],
  ['src/webhooks/x.ts', '../queue/index.js', '../core/errors.js'],
  ['src/webhooks/x.ts', '../../bot/app.js', '../identity/api-keys.js'],
  ['src/webhooks/x.ts', '@octokit/rest', '@octokit/webhooks-methods'],
  ['src/notify/x.ts', '../store/entities/job.entity.js', '../jobs/job-progress.js'],
  ['src/notify/x.ts', '../queue/index.js', '../core/errors.js'],
  ['src/notify/x.ts', '../../bot/progress/slack-sink.js', '../codehost/codehost-client.js'],
  ['src/notify/codehost/x.ts', '../../repos/codehost-repositories.js', '../../codehost/codehost-client.js'],
  ['src/workflows/x.ts', '../config.js', '../queue/index.js'],
  ['src/workflows/x.ts', '../api/app.js', '../jobs/job-service.js'],
  ['src/workflows/x.ts', '../../bot/app.js', '../browser/browser-pool.js'],
  ['src/workflows/x.ts', 'express', 'agenda'],
  ['src/api/x.ts', '../compose/index.js', '../workflows/registry.js'],
  ['src/api/x.ts', '../../bot/app.js', './schemas/jobs.js'],
  ['src/api/x.ts', '../cli/main.js', '../config.js'],
  ['src/api/x.ts', '@slack/bolt', 'express'],
  ['src/metrics/x.ts', '../queue/index.js', '../core/telemetry.js'],
  ['src/metrics/x.ts', 'typeorm', 'prom-client'],
  ['src/api/schemas/x.ts', '../app.js', '../../core/errors.js'],
  ['src/api/schemas/x.ts', '../../store/entities/job.entity.js', './jobs.js'],
  ['src/api/schemas/x.ts', 'express', 'zod'],
  ['src/mcp/x.ts', '../compose/index.js', '../api/jobs.router.js'],
  ['src/mcp/x.ts', '../store/entities/job.entity.js', '../jobs/job-service.js'],
  ['src/mcp/x.ts', '@slack/bolt', '@modelcontextprotocol/sdk/server/mcp.js'],
  ['src/api/x.ts', '../mcp/tools.js', '../api/schemas/jobs.js'],
  ['src/api/x.ts', '@modelcontextprotocol/sdk/server/mcp.js', 'express'],
  ['src/cli/x.ts', '../../bot/app.js', '../compose/index.js'],
  ['src/cli/x.ts', '../../test/support/database.js', '../store/data-source.js'],
  ['src/compose/x.ts', '../../test/support/database.js', '../../bot/app.js'],
  ['src/compose/x.ts', '../../web/src/main.js', '../webhooks/codehost-receiver.js'],
  ['src/config.ts', './api/app.js', './core/errors.js'],
  ['src/config.ts', './jobs/job-service.js', './store/mysql-url.js'],
  ['src/config.ts', '../bot/app.js', './logger.js'],
  ['src/config.ts', 'typeorm', 'zod'],
  ['src/logger.ts', './config.js', 'pino'],
  ['src/logger.ts', './core/errors.js', 'pino-pretty'],
  ['bot/listeners/events/x.ts', '../../../src/store/entities/job.entity.js', '../../../src/jobs/job-service.js'],
  ['bot/listeners/events/x.ts', '../../../src/queue/index.js', '../../../src/core/errors.js'],
  ['bot/listeners/events/x.ts', '../../../src/config.js', '../../../src/notify/progress-sink.js'],
  ['bot/listeners/events/x.ts', 'typeorm', '@slack/bolt'],
  ['web/src/x.ts', '../../src/core/errors.js', '../../src/api/schemas/jobs.js'],
  ['web/src/x.ts', '../../src/api/app.js', './y.js'],
  ['web/src/x.ts', '../../bot/app.js', '../lib/format.js'],
  ['web/src/x.ts', 'node:fs', 'react'],
  ['web/src/x.ts', 'path', 'zod'],
  ['migrations/1-x.ts', '../src/store/entities/job.entity.js', 'typeorm'],
  ['migrations/1-x.ts', '../src/queue/mysql-backend/claim.js', '../src/queue/mysql-backend/schema.js'],
  ['migrations/1-x.ts', 'agenda', './support/columns.js'],
];

/** [file, import refused as a value but allowed for its types: a handle passed through, never called] */
const TYPE_ONLY: [string, string][] = [
  ['src/core/x.ts', '../logger.js'],
  ['src/store/x.ts', 'pino'],
  ['src/webhooks/x.ts', 'typeorm'],
  ['src/notify/codehost/x.ts', '@octokit/rest'],
  ['src/workflows/x.ts', 'playwright'],
  ['src/mcp/x.ts', 'typeorm'],
];

describe('import boundaries (eslint.config.js)', () => {
  it.each(CASES)('%s may not import %s but may import %s', async (path, refused, allowed) => {
    for (const [form, write] of FORMS) {
      expect([form, (await boundaryErrors(path, write(refused))).length]).toEqual([form, 1]);
    }
    expect(await boundaryErrors(path, `import { x } from '${allowed}';\nexport const y = x;\n`)).toEqual([]);
    expect(await boundaryErrors(path, `export const y = async () => (await import('${allowed}')).x;\n`)).toEqual([]);
  });

  it.each(TYPE_ONLY)('%s may import the types of %s, not its values', async (path, specifier) => {
    expect(await boundaryErrors(path, `import type { X } from '${specifier}';\nexport type Y = X;\n`)).toEqual([]);
    expect(await boundaryErrors(path, `import { type X, type Z } from '${specifier}';\nexport type Y = X | Z;\n`)).toEqual([]);
    expect(await boundaryErrors(path, `import { x } from '${specifier}';\nexport const y = x;\n`)).toHaveLength(1);
    expect(await boundaryErrors(path, `import { x, type X } from '${specifier}';\nexport const y: X = x;\n`)).toHaveLength(1);
  });

  it('refuses a dynamic import whose module is not named literally', async () => {
    const errors = await boundaryErrors('src/core/x.ts', 'export const load = (name: string) => import(name);\n');
    expect(errors).toEqual([expect.stringContaining('literally')]);
  });

  it('refuses every file of a src/ folder that is in no zone, so that a new folder is placed before it holds code', async () => {
    expect(await boundaryErrors('src/newfolder/x.ts', 'export const y = 1;\n')).toEqual([expect.stringContaining('in no zone')]);
  });

  it('lets only src/cli read the environment (loadConfig), while the API may take the Config type', async () => {
    expect(await boundaryErrors('src/api/x.ts', `import { loadConfig } from '../config.js';\nexport const y = loadConfig;\n`)).toHaveLength(1);
    expect(await boundaryErrors('src/api/x.ts', `import type { Config } from '../config.js';\nexport type Y = Config;\n`)).toEqual([]);
    expect(await boundaryErrors('src/cli/x.ts', `import { loadConfig } from '../config.js';\nexport const y = loadConfig;\n`)).toEqual([]);
  });
});
