import type { Agenda } from 'agenda';
import { z } from 'zod';

/** The queue job that onboards a repository revision. Its handler lands with the onboarding issue. */
export const ONBOARDING_JOB = 'repository-onboarding';

export const onboardingPayload = z.object({ ingestionRunId: z.string().uuid() });

/** Starts the onboarding workflow of an ingestion run; resolves with the workflow's id (the queue job's id). */
export async function enqueueOnboarding(agenda: Agenda, ingestionRunId: string): Promise<string> {
  const job = await agenda.now(ONBOARDING_JOB, onboardingPayload.parse({ ingestionRunId }));
  return String(job.attrs._id);
}
