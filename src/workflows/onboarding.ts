import { z } from 'zod';
import type { Queue } from '../queue/index.js';
import type { OnboardingStarter } from '../repos/repository-service.js';
import { stageWorkflow } from './stage-workflow.js';

/** The queue job that onboards a repository revision. Its handler lands with the onboarding issue. */
export const ONBOARDING_JOB = 'repository-onboarding';

export const onboardingPayload = z.object({ ingestionRunId: z.string().uuid() });

/** Onboarding workflows staged on `queue`: the workflow's id is its queue job's id. */
export function onboardingStarter(queue: Queue): OnboardingStarter {
  return {
    stage: async (ingestionRunId) => stageWorkflow(queue, { name: ONBOARDING_JOB, payload: onboardingPayload }, { ingestionRunId }),
  };
}
