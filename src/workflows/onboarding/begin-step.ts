import type { OnboardingStep } from '../../core/ingestion-status.js';
import type { StepContext } from './types.js';

/**
 * Marks `step` as the one the run is in: `step.started` the first time, `step.resumed` when an earlier attempt started
 * it and did not finish (a crash, a lock taken over). `quietWhenCurrent`: a step that polls (build) says nothing when
 * it is already current.
 */
export async function beginStep(context: StepContext, step: OnboardingStep, data: Record<string, unknown> = {}, quietWhenCurrent = false): Promise<void> {
  await context.recorder.commit(async (writes) => {
    if (writes.run.step === step) {
      if (!quietWhenCurrent) await writes.event('step.resumed', { step, attempt: context.recorder.attempt });
      return;
    }
    await writes.update({ step });
    await writes.event('step.started', { step, ...data });
  });
}
