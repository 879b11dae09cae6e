import { createHash } from 'node:crypto';
import { In } from 'typeorm';
import { AppError, ErrorCode } from '../../core/errors.js';
import { isFinished } from '../../core/job-lifecycle.js';
import { onboardingPrincipal } from '../../core/principal.js';
import { CatalogBuild } from '../../store/entities/catalog-build.entity.js';
import { ConnectedRepository } from '../../store/entities/connected-repository.entity.js';
import { CoverageLinkRecord } from '../../store/entities/coverage-link.entity.js';
import { Job } from '../../store/entities/job.entity.js';
import { beginStep } from './begin-step.js';
import { buildTaskOf } from './build-task.js';
import { coveredFlowCount } from './coverage-step.js';
import { storedFlows } from './flow-rows.js';
import type { IngestionWrites } from './recorder.js';
import type { StepContext } from './types.js';

/** `done`: every build this onboarding may start has ended; `later`: children still run, or a capability is paused. */
export type BuildProgress = 'done' | 'later';

/** The child's create request key: a retried attempt gets the job the first one made instead of a second. */
const sourceKeyOf = (ingestionRunId: string, flowKey: string) => `onboarding:${ingestionRunId}:${createHash('sha256').update(flowKey).digest('hex').slice(0, 40)}`;

async function buildCounts(writes: IngestionWrites, context: StepContext) {
  const rows = await writes.manager.getRepository(CatalogBuild).findBy({ ingestionRunId: context.ingestionRunId });
  const flows = await storedFlows(writes.manager, context.repository.id);
  return {
    builds: rows.length,
    buildsPassed: rows.filter((row) => row.status === 'built').length,
    buildsFailed: rows.filter((row) => row.status === 'failed').length,
    coveredFlows: await coveredFlowCount(writes.manager, context.repository.id, flows.map((flow) => flow.key)),
  };
}

/**
 * Children that ended since the last look: a passed child's compiled check now covers its flow (`built` link); a
 * failed one leaves its findings on its job and the flow uncovered.
 */
async function settleChildren(context: StepContext): Promise<void> {
  const { deps, recorder, ingestionRunId, repository, now } = context;
  const open = await deps.dataSource.getRepository(CatalogBuild).findBy({ ingestionRunId, status: 'building' });
  const jobIds = open.flatMap((row) => (row.jobId === null ? [] : [row.jobId]));
  if (jobIds.length === 0) return;
  const jobs = new Map((await deps.dataSource.getRepository(Job).findBy({ id: In(jobIds) })).map((job) => [job.id, job]));
  const ended = open.filter((row) => row.jobId !== null && isFinished(jobs.get(row.jobId)?.status ?? 'cancelled'));
  if (ended.length === 0) return;
  await recorder.commit(async (writes) => {
    for (const row of ended) {
      const job = jobs.get(row.jobId!);
      const outcome = job?.status ?? 'deleted';
      const built = outcome === 'passed' && job?.checkId != null;
      await writes.manager.update(CatalogBuild, { ingestionRunId, flowKey: row.flowKey, status: 'building' }, { status: built ? 'built' : 'failed', outcome, finishedAt: now() });
      if (built) {
        await writes.manager.upsert(
          CoverageLinkRecord,
          { repositoryId: repository.id, flowKey: row.flowKey, checkId: job.checkId!, organizationId: repository.organizationId, reason: 'built', source: 'built', createdAt: now() },
          ['repositoryId', 'flowKey', 'checkId'],
        );
      }
      await writes.event('build.finished', { flowKey: row.flowKey, jobId: row.jobId, outcome, checkId: built ? job.checkId : null });
    }
    await writes.update({ counts: await buildCounts(writes, context) });
  });
}

/**
 * Claims the next builds, most valuable uncovered flow first, within the bounds: counted on the run's build rows
 * while the run's row is locked (the recorder's commit), so no two attempts can both take the last slot.
 */
async function claimBuilds(context: StepContext): Promise<number> {
  const { deps, recorder, ingestionRunId, repository, now } = context;
  const { maxBuilds, maxConcurrency } = deps.catalog;
  return recorder.commit(async ({ manager }) => {
    const rows = await manager.getRepository(CatalogBuild).findBy({ ingestionRunId });
    const open = rows.filter((row) => row.status === 'building').length;
    const slots = Math.min(maxConcurrency - open, maxBuilds - rows.length);
    if (slots <= 0) return 0;
    const tried = new Set(rows.map((row) => row.flowKey));
    const covered = new Set((await manager.getRepository(CoverageLinkRecord).findBy({ repositoryId: repository.id })).map((link) => link.flowKey));
    const allowed = (await manager.getRepository(ConnectedRepository).findOneBy({ id: repository.id }))?.allowedSideEffects ?? [];
    const claims = (await storedFlows(manager, repository.id))
      .filter((flow) => !covered.has(flow.key) && !tried.has(flow.key))
      .flatMap((flow) => {
        const build = buildTaskOf(flow, allowed);
        return build ? [{ flowKey: flow.key, ...build }] : [];
      })
      .slice(0, slots);
    for (const claim of claims) {
      await manager.insert(CatalogBuild, {
        ingestionRunId, flowKey: claim.flowKey, organizationId: repository.organizationId, repositoryId: repository.id, jobId: null, status: 'building',
        task: claim.task, stopsBeforeEffect: claim.stopsBeforeEffect, outcome: null, createdAt: now(), finishedAt: null,
      });
    }
    return claims.length;
  });
}

/** The job of a claimed build; a create refused for good (a planner that failed) ends the build as failed. */
async function createChild(context: StepContext, row: CatalogBuild): Promise<{ jobId: string | null; outcome: string | null }> {
  const { deps, repository, ingestionRunId } = context;
  try {
    const created = await deps.createJob(onboardingPrincipal(repository.organizationId, ingestionRunId), {
      repositoryId: repository.id,
      naturalLanguageTask: row.task,
      baseUrl: repository.baseUrl,
      networkAllowlist: repository.networkAllowlist,
      trigger: 'system',
      ...(context.revision === null ? {} : { commitSha: context.revision }),
      sourceKey: sourceKeyOf(ingestionRunId, row.flowKey),
      ingestionRunId,
    });
    return { jobId: created.jobId, outcome: created.kind === 'review_required' ? 'review_required' : null };
  } catch (error) {
    if (!(error instanceof AppError) || error.code === ErrorCode.ExecutionPaused || (error.kind === 'operational' && error.code !== ErrorCode.PlannerFailed)) throw error;
    const jobId = typeof error.details?.jobId === 'string' ? error.details.jobId : null;
    return { jobId, outcome: error.code.slice(0, 32) };
  }
}

/** Creates the jobs of claimed builds that have none yet (this attempt's claims, or a crashed attempt's). */
async function startClaimed(context: StepContext): Promise<void> {
  const { deps, recorder, ingestionRunId, now } = context;
  const claimed = await deps.dataSource.getRepository(CatalogBuild).find({ where: { ingestionRunId, status: 'building' }, order: { createdAt: 'ASC', flowKey: 'ASC' } });
  for (const row of claimed.filter((build) => build.jobId === null)) {
    const { jobId, outcome } = await createChild(context, row);
    await recorder.commit(async (writes) => {
      await writes.manager.update(CatalogBuild, { ingestionRunId, flowKey: row.flowKey }, { jobId, ...(outcome === null ? {} : { status: 'failed', outcome, finishedAt: now() }) });
      await writes.event('build.started', { flowKey: row.flowKey, jobId, stopsBeforeEffect: row.stopsBeforeEffect });
      if (outcome !== null) await writes.event('build.finished', { flowKey: row.flowKey, jobId, outcome, checkId: null });
      await writes.update({ counts: await buildCounts(writes, context) });
    });
  }
}

/**
 * The build step, as far as it can go now: settle children that ended, claim and start new builds within the bounds,
 * until no slot or flow is left. It is `done` once nothing runs and nothing more may start; otherwise the workflow
 * comes back later (the queue job runs again: no process has to stay around for the children).
 */
export async function buildStep(context: StepContext): Promise<BuildProgress> {
  const { deps, recorder, ingestionRunId } = context;
  await beginStep(context, 'build', { maxBuilds: deps.catalog.maxBuilds, maxConcurrency: deps.catalog.maxConcurrency }, true);
  for (;;) {
    await settleChildren(context);
    await startClaimed(context);
    if ((await claimBuilds(context)) === 0) break;
  }
  const open = await deps.dataSource.getRepository(CatalogBuild).countBy({ ingestionRunId, status: 'building' });
  if (open > 0) return 'later';
  await recorder.commit(async (writes) => {
    const counts = await buildCounts(writes, context);
    await writes.update({ counts });
    await writes.event('step.finished', { step: 'build', ...counts });
    await writes.checkpoint('build', counts);
  });
  return 'done';
}
