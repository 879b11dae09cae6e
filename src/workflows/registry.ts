import type { QueueJobDefinition } from '../queue/index.js';
import { qaRunWorkflow, type QaRunDeps } from './qa-run.js';

export type WorkflowDeps = QaRunDeps;

/**
 * Every kind of queued work the worker runs; each workflow module adds its definition here. Onboarding's handler
 * lands with the onboarding issue, so its runs stay queued until then.
 */
export function workflowJobs(deps: WorkflowDeps): QueueJobDefinition[] {
  return [qaRunWorkflow(deps)];
}
