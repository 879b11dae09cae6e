import { describe, expect, it } from '@jest/globals';
import type { z } from 'zod';
import { SET_A, SET_B } from '../../../src/core/naming.js';
import { createBody as jobCreateBody } from '../../../src/api/requests/jobs.js';
import { connectBody } from '../../../src/api/requests/repositories.js';
import { createBody as scheduleCreateBody } from '../../../src/api/requests/schedules.js';
import { ConnectedRepository } from '../../../src/store/entities/connected-repository.entity.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { Schedule } from '../../../src/store/entities/schedule.entity.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

/** A string leaf of a request schema: its path and the longest value it accepts (null: unbounded). */
interface StringLeaf {
  path: string;
  maxLength: number | null;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
}

/** Every string a request schema accepts anywhere (object fields, array elements, record keys and values). */
function stringLeaves(schema: z.ZodType, path: string): StringLeaf[] {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'nullable':
      return stringLeaves(def.innerType!, path);
    case 'pipe':
      return stringLeaves(def.in!, path);
    case 'string':
      return [{ path, maxLength: (schema as z.ZodString).maxLength }];
    case 'array':
      return stringLeaves(def.element!, `${path}[]`);
    case 'record':
      return [...stringLeaves(def.keyType!, `${path}{key}`), ...stringLeaves(def.valueType!, `${path}{value}`)];
    case 'object':
      return Object.entries(def.shape!).flatMap(([field, inner]) => stringLeaves(inner, path ? `${path}.${field}` : field));
    default:
      // enums, literals, numbers, booleans: fixed or bounded values; `custom` is the bounded opaque JSON.
      return [];
  }
}

/** Where a request string ends up: a varchar column, an id (canonical UUIDs only reach a query), TEXT, or inside JSON. */
type Target = { column: [entity: typeof Job | typeof ConnectedRepository | typeof Schedule, property: string] } | 'id' | 'text' | 'json';

const jobTargets = (names: typeof SET_A): Record<string, Target> => ({
  [names.repositoryId]: 'id',
  [names.checkId]: 'id',
  naturalLanguageTask: 'text',
  commitSha: { column: [Job, 'commitSha'] },
  baseUrl: { column: [Job, 'baseUrl'] },
  'networkAllowlist[]': 'json',
});

const REQUESTS: [string, z.ZodType, Record<string, Target>][] = [
  ['POST /api/jobs', jobCreateBody(SET_A), jobTargets(SET_A)],
  ['POST /api/runs', jobCreateBody(SET_B), jobTargets(SET_B)],
  [
    'POST /api/repositories',
    connectBody,
    {
      providerInstallationId: { column: [ConnectedRepository, 'providerInstallationId'] },
      owner: { column: [ConnectedRepository, 'owner'] },
      name: { column: [ConnectedRepository, 'name'] },
      defaultBranch: { column: [ConnectedRepository, 'defaultBranch'] },
      cloneUrl: { column: [ConnectedRepository, 'cloneUrl'] },
      baseUrl: { column: [ConnectedRepository, 'baseUrl'] },
      revision: { column: [ConnectedRepository, 'revision'] },
      'networkAllowlist[]': 'json',
      'testValueSecretRefs{key}': 'json',
      'testValueSecretRefs{value}': 'json',
      'evidenceProbeRefs{key}': 'json',
      'evidenceProbeRefs{value}.urlValueRef': 'json',
      'evidenceProbeRefs{value}.tokenValueRef': 'json',
      'pullRequests.previewUrlTemplate': 'json',
      'pullRequests.deploymentEnvironment': 'json',
      'pullRequests.alwaysRun[]': 'json',
      'pullRequests.sharedFiles[]': 'json',
      'allowedSideEffects[]': 'json',
    },
  ],
  [
    'POST /api/schedules',
    scheduleCreateBody,
    {
      testId: 'id',
      scenarioId: 'id',
      cron: { column: [Schedule, 'cron'] },
      timezone: { column: [Schedule, 'timezone'] },
      baseUrl: { column: [Schedule, 'baseUrl'] },
      'networkAllowlist[]': 'json',
    },
  ],
];

/** MariaDB's TEXT holds 65,535 bytes; utf8mb4 takes up to 4 bytes a character. */
const TEXT_CHARACTERS = Math.floor(65_535 / 4);

forEachDialect('request limits', (dialect) => {
  const store = useTestStore(dialect);

  async function databaseLength(table: string, column: string): Promise<number> {
    const rows = (await store().query(
      'SELECT CHARACTER_MAXIMUM_LENGTH AS length FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = ?',
      [table, column],
    )) as { length: number | string }[];
    return Number(rows[0]?.length);
  }

  describe.each(REQUESTS)('%s', (_route, schema, targets) => {
    const leaves = stringLeaves(schema, '');

    it('knows where every string it accepts is stored, and bounds every one stored in a column', () => {
      expect(leaves.length).toBeGreaterThan(0);
      for (const leaf of leaves) {
        expect({ path: leaf.path, mapped: leaf.path in targets }).toEqual({ path: leaf.path, mapped: true });
        // Strings inside a JSON column (LONGTEXT) are bounded by their own rules and the body limit, not a column.
        if (targets[leaf.path] === 'json') continue;
        expect({ path: leaf.path, bounded: leaf.maxLength !== null }).toEqual({ path: leaf.path, bounded: true });
      }
    });

    it("accepts no string longer than the column it is stored in", async () => {
      for (const leaf of leaves) {
        const target = targets[leaf.path]!;
        if (target === 'text') expect(leaf.maxLength).toBeLessThanOrEqual(TEXT_CHARACTERS);
        if (typeof target !== 'object') continue;
        const [entity, property] = target.column;
        const column = store().getMetadata(entity).findColumnWithPropertyName(property)!;
        expect({ path: leaf.path, fits: leaf.maxLength! <= Number(column.length) }).toEqual({ path: leaf.path, fits: true });
        if (dialect === 'mysql') {
          // The column as the migrations built it, which is what says "Data too long".
          const actual = await databaseLength(store().getMetadata(entity).tableName, column.databaseName);
          expect({ path: leaf.path, fits: leaf.maxLength! <= actual }).toEqual({ path: leaf.path, fits: true });
        }
      }
    });
  });
});
