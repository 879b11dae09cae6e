import type { DataSource, EntityManager } from 'typeorm';
import type { Resolution } from '../core/job.js';
import { dialectOf } from '../store/data-source.js';
import { Artifact } from '../store/entities/artifact.entity.js';
import { Check } from '../store/entities/check.entity.js';
import { CheckVersion } from '../store/entities/check-version.entity.js';
import { Finding } from '../store/entities/finding.entity.js';
import { JobEvent } from '../store/entities/job-event.entity.js';
import { Job } from '../store/entities/job.entity.js';

/** What a progress message is built from: the job, its history, findings and artifacts (no artifact bytes). */
export interface JobForNotification {
  job: {
    id: string;
    organizationId: string;
    status: string;
    trigger: string;
    task: string | null;
    checkId: string | null;
    resolution: Resolution | null;
    startedAt: Date | null;
    finishedAt: Date | null;
    createdAt: Date;
  };
  /** The task of the check a replay runs (a replay has no task of its own). */
  checkTask: string | null;
  /** How many steps the run has: its plan's, or its check's latest version's; null before there is either. */
  stepCount: number | null;
  events: { seq: number; type: string; at: Date; data: Record<string, unknown> }[];
  findings: {
    id: string;
    kind: string;
    severity: string;
    title: string;
    detail: string;
    stepIndex: number | null;
    artifactIds: string[];
    /** A failed expectation's comparison (src/core/findings.ts); absent for other findings. */
    expected?: string | null;
    actual?: string[] | null;
  }[];
  artifacts: { id: string; kind: string; name: string; stepIndex: number | null }[];
}

/**
 * A job as its notifications show it, read by the delivery worker. Not scoped by organization: the worker acts
 * for the job's own outbox row, never for a caller; null when the job is gone.
 *
 * All reads see one snapshot (one REPEATABLE READ transaction on MySQL; SQLite's read transaction is one already).
 * Read apart, a run that finished between the job row and its events gave a job still `running` with its final
 * events: the delivery edited "running", counted those events as shown, and so never edited the final state in.
 */
export async function readJobForNotification(dataSource: DataSource, jobId: string): Promise<JobForNotification | null> {
  const read = (manager: EntityManager) => readSnapshot(manager, jobId);
  return dialectOf(dataSource) === 'mysql' ? dataSource.transaction('REPEATABLE READ', read) : dataSource.transaction(read);
}

async function readSnapshot(manager: EntityManager, jobId: string): Promise<JobForNotification | null> {
  const job = await manager.getRepository(Job).findOneBy({ id: jobId });
  if (!job) return null;
  const [events, findings, artifacts, check] = await Promise.all([
    manager.getRepository(JobEvent).find({ where: { jobId }, order: { seq: 'ASC' } }),
    manager.getRepository(Finding).find({ where: { jobId }, order: { position: 'ASC' } }),
    manager.getRepository(Artifact).find({ select: { id: true, kind: true, name: true, stepIndex: true, createdAt: true }, where: { jobId }, order: { createdAt: 'ASC', name: 'ASC' } }),
    job.checkId && job.task === null ? manager.getRepository(Check).findOne({ select: { id: true, task: true }, where: { id: job.checkId } }) : null,
  ]);
  const version =
    job.plan === null && job.checkId !== null
      ? await manager.getRepository(CheckVersion).findOne({ select: { checkId: true, version: true, compiled: true }, where: { checkId: job.checkId }, order: { version: 'DESC' } })
      : null;
  return {
    job: {
      id: job.id,
      organizationId: job.organizationId,
      status: job.status,
      trigger: job.trigger,
      task: job.task,
      checkId: job.checkId,
      resolution: job.resolution,
      startedAt: job.startedAt,
      finishedAt: job.finishedAt,
      createdAt: job.createdAt,
    },
    checkTask: check?.task ?? null,
    stepCount: job.plan?.steps.length ?? version?.compiled.steps.length ?? null,
    events: events.map((event) => ({ seq: event.seq, type: event.type, at: event.at, data: event.data as Record<string, unknown> })),
    findings: findings.map(({ id, kind, severity, title, detail, stepIndex, artifactIds, expected, actual }) => ({ id, kind, severity, title, detail, stepIndex, artifactIds, expected, actual })),
    artifacts: artifacts.map(({ id, kind, name, stepIndex }) => ({ id, kind, name, stepIndex })),
  };
}
