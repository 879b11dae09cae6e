import type { DataSource } from 'typeorm';
import type { CompiledCheck, CompiledStep } from '../../core/check.js';
import type { Plan } from '../../core/plan.js';
import { CheckVersion } from '../../store/entities/check-version.entity.js';
import { Check } from '../../store/entities/check.entity.js';
import { ConnectedRepository } from '../../store/entities/connected-repository.entity.js';
import type { Job } from '../../store/entities/job.entity.js';
import type { StepOutcome } from '../checkpoints.js';
import type { RunWrites } from '../run-recorder.js';
import type { SourceInput } from './types.js';

export interface CompileInput {
  job: Job;
  plan: Plan;
  checkId: string;
  /** The steps as they ran, with every target as it resolved. */
  resolved: CompiledStep[];
}

/** The next version of a check: numbered inside the commit that writes it, so two compiles cannot take one number. */
export async function nextVersion(writes: RunWrites, checkId: string): Promise<number> {
  const [{ latest }] = await writes.read<{ latest: number | string }>(`SELECT COALESCE(MAX(version), 0) AS latest FROM check_versions WHERE check_id = ?`, [checkId]);
  return Number(latest) + 1;
}

type SourceDeps = { dataSource: DataSource; generateSource(input: SourceInput): string };

/** The Playwright source of a version of the job's check, with the secret names of the job's repository. */
export async function sourceOfVersion(deps: SourceDeps, job: Job, check: CompiledCheck): Promise<string> {
  const repository = await deps.dataSource.getRepository(ConnectedRepository).findOneByOrFail({ id: job.repositoryId });
  return deps.generateSource({
    name: job.task ?? 'Compiled check',
    check,
    baseUrl: job.baseUrl,
    testValueSecretRefs: repository.testValueSecretRefs,
    evidenceProbeRefs: repository.evidenceProbeRefs,
  });
}

/**
 * The `compile` step of a passing natural-language run: the check's next version, a step list the replayer runs
 * with no planner and the Playwright source made from it (which names secrets, never holds their values), and the
 * check becomes active at that version. Proposals a replay's healing left open are superseded: they were made from
 * an older version, and the check now replays this one.
 */
export async function compileStep(deps: SourceDeps, input: CompileInput): Promise<StepOutcome<object>> {
  const { job, plan, checkId } = input;
  const compiled: CompiledCheck = {
    steps: input.resolved,
    successCriteria: plan.successCriteria,
    ...(plan.sideEffects === true ? { sideEffects: true } : {}),
    ...(plan.allowedSideEffects !== undefined ? { allowedSideEffects: plan.allowedSideEffects } : {}),
  };
  const source = await sourceOfVersion(deps, job, compiled);
  return {
    result: {},
    async record(writes) {
      const version = await nextVersion(writes, checkId);
      await writes.insert(CheckVersion, { checkId, version, compiled, source, jobId: job.id });
      await writes.update(Check, { id: checkId }, { status: 'active', version });
      await writes.update(CheckVersion, { checkId, state: 'proposed' }, { state: 'superseded' });
      await writes.event('check.compiled', { checkId, version, steps: compiled.steps.length });
    },
  };
}
