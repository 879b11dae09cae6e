import type { DataSource } from 'typeorm';
import { compiledCheckSchema, type CompiledStep } from '../../core/check.js';
import { allowedSideEffectsOf } from '../../core/plan.js';
import { ErrorCode, userError } from '../../core/errors.js';
import { CheckVersion } from '../../store/entities/check-version.entity.js';
import { Check } from '../../store/entities/check.entity.js';
import { JobEvent } from '../../store/entities/job-event.entity.js';
import type { Job } from '../../store/entities/job.entity.js';

export interface Planned {
  steps: CompiledStep[];
  /** The task's answers allowed a real side effect (plan.ts `sideEffects`). */
  sideEffects: boolean;
  /** The side-effect kinds the answers allowed (plan.ts `allowedSideEffects`); a click naming another is blocked. */
  allowedSideEffects: readonly string[] | 'all';
  /** The check version a replay runs. */
  version?: number;
}

/**
 * The steps a job runs: its plan (a natural-language job) or the version its check replays (a replay): the check's
 * `version`, compiled or accepted, never a proposal nobody accepted yet even when it is newer.
 */
export async function plannedSteps(dataSource: DataSource, job: Job): Promise<Planned | null> {
  if (job.plan !== null) {
    return { steps: job.plan.steps.map((step) => ({ step })), sideEffects: job.plan.sideEffects === true, allowedSideEffects: allowedSideEffectsOf(job.plan) };
  }
  if (job.checkId === null) return null;
  const check = await dataSource.getRepository(Check).findOne({ select: { id: true, version: true }, where: { id: job.checkId } });
  if (!check || check.version === 0) return null;
  const replayed = await dataSource.getRepository(CheckVersion).findOneBy({ checkId: job.checkId, version: check.version });
  if (!replayed) return null;
  const compiled = compiledCheckSchema.parse(replayed.compiled);
  return { steps: compiled.steps, sideEffects: compiled.sideEffects === true, allowedSideEffects: allowedSideEffectsOf(compiled), version: replayed.version };
}

/**
 * A run taken over from a worker that died, or retried after the browser failed, starts its steps again from the
 * first in a new browser. For a read-only check that is harmless. For one whose answers allowed a real side effect
 * (placing an order), the earlier attempt may already have caused it: once any step has started, the run is not
 * repeated behind the team's back; the job errors saying so, and a new job runs it again on purpose.
 */
export async function refuseRepeatedSideEffects(dataSource: DataSource, job: Job, planned: Planned): Promise<void> {
  if (!planned.sideEffects) return;
  const started = await dataSource.getRepository(JobEvent).find({ select: { seq: true, data: true }, where: { jobId: job.id, type: 'step.started' }, order: { seq: 'DESC' }, take: 1 });
  if (started.length === 0) return;
  const last = started[0]!.data as { index?: number; description?: string };
  throw userError(
    ErrorCode.RunNotRepeated,
    `The run stopped after step ${(last.index ?? 0) + 1} (${last.description ?? 'a step'}) had started, and this check may cause a real ` +
      'side effect (one the answers allowed), so it is not repeated automatically; start a new job to run it again',
  );
}
