import { pausedCapabilities } from '../../store/execution-flags.js';
import { STEP_NEEDS, type OnboardingStep } from '../../core/ingestion-status.js';
import type { StepContext } from './types.js';

/**
 * Whether `step` must wait: a capability it needs is paused for the organization. A run that must wait says so once
 * (`ingestion.waiting`, status `waiting`) and is looked at again later; one that waited and may go on says that too.
 */
export async function mustWait(context: StepContext, step: OnboardingStep): Promise<boolean> {
  const paused = await pausedCapabilities(context.deps.dataSource, context.organizationId);
  const blocked = STEP_NEEDS[step].find((capability) => paused.has(capability));
  await context.recorder.commit(async (writes) => {
    if (blocked !== undefined && writes.run.status !== 'waiting') {
      await writes.update({ status: 'waiting', waitingFor: blocked });
      await writes.event('ingestion.waiting', { step, capability: blocked, reason: `${blocked === 'live' ? 'Live' : 'AI'} execution is paused; the ${step} step goes on once it is resumed` });
    } else if (blocked === undefined && writes.run.status === 'waiting') {
      await writes.update({ status: 'running', waitingFor: null });
      await writes.event('ingestion.continued', { step });
    }
  });
  return blocked !== undefined;
}
