import { z } from 'zod';
import { idSchema, timestampSchema } from './common.js';

/** What an ingestion found so far (absent: its step has not run). */
export const ingestionCountsSchema = z.object({
  files: z.number().optional(),
  filesRead: z.number().optional(),
  filesReused: z.number().optional(),
  routes: z.number().optional(),
  pages: z.number().optional(),
  flows: z.number().optional(),
  edgeCases: z.number().optional(),
  coveredFlows: z.number().optional(),
  builds: z.number().optional(),
  buildsPassed: z.number().optional(),
  buildsFailed: z.number().optional(),
});

/** An ingestion run's state: in GET /api/repositories/:id (its latest) and GET /api/ingestions/:id. */
export const ingestionStateSchema = z.object({
  ingestionRunId: idSchema,
  repositoryId: idSchema,
  /** queued, running, waiting (live or AI execution paused: `waitingFor`), succeeded, failed (`error`). */
  status: z.string(),
  step: z.string().nullable(),
  /** The revision asked for (null: the default branch's head). */
  revision: z.string().nullable(),
  /** The commit fetched. */
  commitSha: z.string().nullable(),
  waitingFor: z.string().nullable(),
  counts: ingestionCountsSchema,
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  createdAt: timestampSchema,
  startedAt: timestampSchema.nullable(),
  finishedAt: timestampSchema.nullable(),
});
export type IngestionStateBody = z.input<typeof ingestionStateSchema>;

/** 200 of GET /api/ingestions/:id. */
export const ingestionDetailSchema = ingestionStateSchema.extend({
  workflowRunId: idSchema.nullable(),
  steps: z.array(z.object({ step: z.string(), completedAt: timestampSchema, result: z.record(z.string(), z.unknown()) })),
  builds: z.array(
    z.object({
      flowKey: z.string(),
      jobId: idSchema.nullable(),
      status: z.string(),
      outcome: z.string().nullable(),
      stopsBeforeEffect: z.boolean(),
      createdAt: timestampSchema,
      finishedAt: timestampSchema.nullable(),
    }),
  ),
});

/** One line of GET /api/ingestions/:id/events. */
export const ingestionEventSchema = z.object({ index: z.number(), type: z.string(), at: timestampSchema, data: z.record(z.string(), z.unknown()) });

/** 200 of GET /api/repositories/:id/coverage. */
export const coverageSchema = z.object({
  repositoryId: idSchema,
  flows: z.array(
    z.object({
      key: z.string(),
      name: z.string(),
      /** One sentence from the model planner that named the flow; null when the rules named it. */
      description: z.string().nullable(),
      namedBy: z.enum(['rules', 'model']),
      entryPath: z.string(),
      origin: z.string(),
      sideEffect: z.string().nullable(),
      value: z.number(),
      files: z.array(z.string()),
      covered: z.boolean(),
      checks: z.array(z.object({ checkId: idSchema, reason: z.string(), source: z.string() })),
      edgeCases: z.array(z.object({ key: z.string(), kind: z.string(), name: z.string(), task: z.string() })),
    }),
  ),
  summary: z.object({ flows: z.number(), coveredFlows: z.number(), edgeCases: z.number(), coveredShare: z.number() }),
});
