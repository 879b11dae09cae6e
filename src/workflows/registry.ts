import type { QueueJobDefinition } from '../queue/index.js';
import { qaRunWorkflow, type QaRunDeps } from './qa-run.js';
import { scheduleFireJob, type ScheduleFireDeps } from './schedule-fire.js';

export type WorkflowDeps = QaRunDeps & {
  /**
   * What schedules' fires need (the job service's create, the repeat jobs). `qa worker` and `qa start` always
   * give it; a worker built without it (tests of the browser workflows) leaves `schedule-fire` jobs to others.
   */
  schedules?: Omit<ScheduleFireDeps, 'dataSource'>;
};

/**
 * Every kind of queued work the worker runs; each workflow module adds its definition here. Onboarding's handler
 * lands with the onboarding issue, so its runs stay queued until then.
 */
export function workflowJobs(deps: WorkflowDeps): QueueJobDefinition[] {
  const schedules = deps.schedules ? [scheduleFireJob({ dataSource: deps.dataSource, ...deps.schedules })] : [];
  return [qaRunWorkflow(deps), ...schedules];
}
