/**
 * The import boundaries of ARCHITECTURE.md, proven on eslint.config.js itself: for every folder, an import it may
 * make passes and one it may not make is refused. The code is linted as text under a path in that folder, so the
 * test needs no files of its own in src/.
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

/** The boundary messages for `source` as if it were the file at `path`. */
async function boundaryErrors(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path });
  return result!.messages.filter((message) => message.ruleId === '@typescript-eslint/no-restricted-imports').map((message) => message.message);
}

/** [file, import that must be refused, import that must pass] */
const CASES: [string, string, string][] = [
  ['src/core/x.ts', '../store/entities/job.entity.js', './errors.js'],
  ['src/core/x.ts', 'typeorm', 'zod'],
  ['src/store/x.ts', '../config.js', './mysql-url.js'],
  ['src/planner/x.ts', '../config.js', './planner.js'],
  ['src/workflows/x.ts', '../config.js', '../queue/index.js'],
  ['src/logger.ts', './config.js', 'pino'],
  ['migrations/1-x.ts', '../src/store/entities/job.entity.js', 'typeorm'],
  ['src/jobs/x.ts', '../compose/index.js', '../core/errors.js'],
  ['src/store/x.ts', '../jobs/job-service.js', '../core/errors.js'],
  ['src/store/x.ts', '../queue/index.js', './entities/job.entity.js'],
  ['src/queue/x.ts', '../jobs/job-service.js', '../store/write-batch.js'],
  ['src/browser/x.ts', '../store/entities/job.entity.js', '../core/findings.js'],
  ['src/planner/x.ts', '../jobs/job-service.js', '../core/plan.js'],
  ['src/checks/x.ts', '../workflows/registry.js', '../browser/locate.js'],
  ['src/probes/x.ts', '../browser/locate.js', '../core/errors.js'],
  ['src/repos/x.ts', '../jobs/job-service.js', '../store/raw-values.js'],
  ['src/jobs/x.ts', '../workflows/registry.js', '../queue/index.js'],
  ['src/jobs/x.ts', '../api/app.js', '../planner/planner.js'],
  ['src/identity/x.ts', '../jobs/job-service.js', '../store/entities/api-key.entity.js'],
  ['src/webhooks/x.ts', '../store/entities/job.entity.js', '../jobs/job-service.js'],
  ['src/webhooks/x.ts', '../queue/index.js', '../core/errors.js'],
  ['src/notify/x.ts', '../store/entities/job.entity.js', '../jobs/job-progress.js'],
  ['src/notify/x.ts', '../queue/index.js', '../core/errors.js'],
  ['src/notify/codehost/x.ts', '../../repos/codehost-repositories.js', '../../codehost/codehost-client.js'],
  ['bot/listeners/events/x.ts', '../../../src/store/entities/job.entity.js', '../../../src/jobs/job-service.js'],
  ['bot/listeners/events/x.ts', '../../../src/queue/index.js', '../../../src/core/errors.js'],
];

describe('import boundaries (eslint.config.js)', () => {
  it.each(CASES)('%s may not import %s but may import %s', async (path, refused, allowed) => {
    expect((await boundaryErrors(path, `import { x } from '${refused}';\nexport const y = x;\n`)).length).toBeGreaterThan(0);
    expect(await boundaryErrors(path, `import { x } from '${allowed}';\nexport const y = x;\n`)).toEqual([]);
  });
});
