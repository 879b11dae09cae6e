import { z } from 'zod';

/** The queue job that onboards a repository revision. */
export const ONBOARDING_JOB = 'repository-onboarding';

export const onboardingPayload = z.object({ ingestionRunId: z.string().uuid() });
