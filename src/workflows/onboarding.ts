import type { Queue } from '../queue/index.js';
import type { OnboardingStarter } from '../repos/repository-service.js';
import { ONBOARDING_JOB, onboardingPayload } from './onboarding/job.js';
import { stageWorkflow } from './stage-workflow.js';

export { ONBOARDING_JOB, onboardingPayload } from './onboarding/job.js';
export { onboardingWorkflow, ONBOARDING_RETRY } from './onboarding/workflow.js';
export type { OnboardingDeps, CatalogSettings } from './onboarding/types.js';
export type { OnboardingPorts, OnboardingRepository, CoverageCheck } from './onboarding/ports.js';

/** Onboarding workflows staged on `queue`: the workflow's id is its queue job's id. */
export function onboardingStarter(queue: Queue): OnboardingStarter {
  return {
    stage: async (ingestionRunId) => stageWorkflow(queue, { name: ONBOARDING_JOB, payload: onboardingPayload }, { ingestionRunId }),
  };
}
