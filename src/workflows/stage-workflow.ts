import type { z } from 'zod';
import { stageNow, type JobKind, type Queue } from '../queue/index.js';
import type { StagedWorkflow } from '../store/write-batch.js';

/**
 * A workflow of `kind` staged on `queue` for the caller's transaction (see `stageNow`): the workflow's id is its queue
 * job's id, and workers are told when the caller calls `announce` after its commit.
 */
export function stageWorkflow<Schema extends z.ZodType>(queue: Queue, kind: JobKind<Schema>, payload: z.input<Schema>): StagedWorkflow {
  const staged = stageNow(queue, kind, payload);
  return { workflowId: staged.id, statement: staged.statement, announce: () => staged.announce() };
}
