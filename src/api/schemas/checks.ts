import { z } from 'zod';
import { CHECK_VERSION_STATES } from '../../core/check.js';
import { JOB_STATUSES } from '../../core/job-lifecycle.js';
import { JOB_TRIGGERS } from '../../core/job.js';
import { SET_A, SET_B, type NamingSet } from '../../core/naming.js';
import { idSchema, timestampSchema } from './common.js';

/** A compiled check (Set A test, Set B scenario). */
export function checkSchema(names: NamingSet) {
  return z.object({
    [names.checkId]: idSchema,
    [names.repositoryId]: idSchema,
    status: z.enum(['draft', 'active']),
    version: z.number().int().min(0),
    naturalLanguageTask: z.string(),
    createdAt: timestampSchema,
  });
}

/**
 * One compiled version. Steps and criteria are the stored compiled check's (src/core/check.ts); they are passed on
 * as objects, as versions stored by older releases must still read.
 */
export function checkVersionSchema(names: NamingSet) {
  return z.object({
    version: z.number().int().min(1),
    /** `compiled`, `proposed` (a healing replay's, not replayed until accepted), `accepted`, `superseded`. */
    state: z.enum(CHECK_VERSION_STATES),
    /** A proposal's: the version the replay that healed ran. */
    basedOn: z.number().int().min(1).nullable(),
    acceptedBy: z.string().nullable(),
    acceptedAt: timestampSchema.nullable(),
    [names.id]: idSchema.nullable(),
    steps: z.array(z.record(z.string(), z.unknown())),
    successCriteria: z.array(z.record(z.string(), z.unknown())),
    createdAt: timestampSchema,
  });
}

/** GET /api/checks (or /api/scenarios). */
export function checkListSchema(names: NamingSet) {
  return z.object({ checks: z.array(checkSchema(names)) });
}

/** GET /api/checks/:id: the check, its versions and the jobs (runs) that produced or replayed it. */
export function checkDetailSchema(names: NamingSet) {
  return z.object({
    check: checkSchema(names),
    versions: z.array(checkVersionSchema(names)),
    [names.collection]: z.array(
      z.object({
        [names.id]: idSchema,
        status: z.enum(JOB_STATUSES),
        trigger: z.enum(JOB_TRIGGERS),
        role: z.enum(['produced', 'replayed', 'attempted']),
        createdAt: timestampSchema,
      }),
    ),
  });
}

/** POST /api/checks/:id/versions/:version/accept: the check (now replaying that version) and the version. */
export function checkAcceptedSchema(names: NamingSet) {
  return z.object({ check: checkSchema(names), version: checkVersionSchema(names) });
}

export const checkSchemas = Object.fromEntries(
  [SET_A, SET_B].map((names) => [names.set, { list: checkListSchema(names), detail: checkDetailSchema(names), accepted: checkAcceptedSchema(names) }]),
) as Record<
  NamingSet['set'],
  { list: ReturnType<typeof checkListSchema>; detail: ReturnType<typeof checkDetailSchema>; accepted: ReturnType<typeof checkAcceptedSchema> }
>;

/**
 * A check as `GET /api/checks` answers it in Set A's names (`checkSchema(SET_A)`, whose computed id keys widen zod's
 * inferred type): the dashboard's list and the MCP tools read this one shape.
 */
export type CheckSummaryA = {
  testId: string;
  projectId: string;
  status: 'draft' | 'active';
  version: number;
  naturalLanguageTask: string;
  createdAt: string;
};
