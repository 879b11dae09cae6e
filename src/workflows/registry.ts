import type { QueueJobDefinition } from '../queue/index.js';

/**
 * Every kind of queued work the worker runs. Empty until the QA-run and onboarding workflows land (job API and
 * browser issues); each workflow module adds its `defineQueueJob(...)` here.
 */
export function workflowJobs(): QueueJobDefinition[] {
  return [];
}
