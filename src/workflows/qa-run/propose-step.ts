import type { DataSource } from 'typeorm';
import { compiledCheckSchema, type CompiledCheck, type CompiledStep } from '../../core/check.js';
import { CheckVersion } from '../../store/entities/check-version.entity.js';
import type { Job } from '../../store/entities/job.entity.js';
import type { StepOutcome } from '../checkpoints.js';
import { nextVersion, sourceOfVersion } from './compile-step.js';
import type { SourceInput } from './types.js';

export interface ProposeInput {
  job: Job;
  checkId: string;
  /** The version the replay ran. */
  basedOn: number;
  /** Every step as it ran, the healed ones with their proposed locator and a fresh record. */
  resolved: CompiledStep[];
  healed: number[];
}

/** What makes two proposals the same: the steps and their locators (records may differ in a text snippet). */
const stepsKey = (steps: readonly CompiledStep[]) => JSON.stringify(steps.map(({ step, locator }) => ({ step, locator: locator ?? null })));

/**
 * The `propose` step of a replay that passed by healing: the next version of the check with the healed locators, in
 * state `proposed`. Nothing replays it until a person accepts it (POST /api/checks/:id/versions/:version/accept);
 * the check's `version` stays where it was. A replay that heals the same way again points to the open proposal
 * instead of adding another.
 */
export async function proposeStep(deps: { dataSource: DataSource; generateSource(input: SourceInput): string }, input: ProposeInput): Promise<StepOutcome<object>> {
  const { job, checkId, basedOn } = input;
  const base = await deps.dataSource.getRepository(CheckVersion).findOneByOrFail({ checkId, version: basedOn });
  const baseCompiled = compiledCheckSchema.parse(base.compiled);
  const compiled: CompiledCheck = { ...baseCompiled, steps: input.resolved };
  const source = await sourceOfVersion(deps, job, compiled);
  const key = stepsKey(compiled.steps);
  return {
    result: {},
    async record(writes) {
      const open = await writes.read<{ version: number | string; compiled: unknown }>(
        `SELECT version, compiled FROM check_versions WHERE check_id = ? AND state = 'proposed' AND based_on = ? ORDER BY version`,
        [checkId, basedOn],
      );
      const same = open.find((row) => {
        const parsed = compiledCheckSchema.safeParse(typeof row.compiled === 'string' ? JSON.parse(row.compiled) : row.compiled);
        return parsed.success && stepsKey(parsed.data.steps) === key;
      });
      if (same !== undefined) {
        await writes.event('check.proposed', { checkId, version: Number(same.version), basedOn, healedSteps: input.healed, existing: true });
        return;
      }
      const version = await nextVersion(writes, checkId);
      await writes.insert(CheckVersion, { checkId, version, compiled, source, jobId: job.id, state: 'proposed', basedOn });
      await writes.event('check.proposed', { checkId, version, basedOn, healedSteps: input.healed, existing: false });
    },
  };
}
