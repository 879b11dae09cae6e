import type { IngestionRun } from '../store/entities/ingestion-run.entity.js';
import type { FlowCoverage, IngestionDetail } from '../repos/ingestion-reads.js';
import { iso } from './respond.js';
import type { IngestionStateBody } from './schemas/ingestions.js';

const isoOrNull = (date: Date | null) => (date === null ? null : iso(date));

export function ingestionStateBody(run: IngestionRun): IngestionStateBody {
  return {
    ingestionRunId: run.id,
    repositoryId: run.repositoryId,
    status: run.status,
    step: run.step,
    revision: run.revision,
    commitSha: run.commitSha,
    waitingFor: run.waitingFor,
    counts: run.counts ?? {},
    error: run.errorCode === null ? null : { code: run.errorCode, message: run.errorMessage ?? '' },
    createdAt: iso(run.createdAt),
    startedAt: isoOrNull(run.startedAt),
    finishedAt: isoOrNull(run.finishedAt),
  };
}

export function ingestionDetailBody({ run, checkpoints, builds }: IngestionDetail) {
  return {
    ...ingestionStateBody(run),
    workflowRunId: run.workflowId,
    // The crawl's checkpoint holds the crawled pages: the detail says how many, not what.
    steps: checkpoints.map((checkpoint) => ({
      step: checkpoint.step,
      completedAt: iso(checkpoint.completedAt),
      result: checkpoint.step === 'crawl' ? { pages: ((checkpoint.result as { pages?: unknown[] }).pages ?? []).length } : (checkpoint.result as Record<string, unknown>),
    })),
    builds: builds.map((build) => ({
      flowKey: build.flowKey, jobId: build.jobId, status: build.status, outcome: build.outcome, stopsBeforeEffect: Boolean(build.stopsBeforeEffect),
      createdAt: iso(build.createdAt), finishedAt: isoOrNull(build.finishedAt),
    })),
  };
}

export function coverageBody(repositoryId: string, flows: FlowCoverage[]) {
  const covered = flows.filter((item) => item.links.length > 0).length;
  return {
    repositoryId,
    flows: flows.map(({ flow, links }) => ({
      key: flow.key, name: flow.name, description: flow.description ?? null, namedBy: flow.namedBy ?? 'rules', entryPath: flow.entryPath, origin: flow.origin, sideEffect: flow.sideEffect, value: flow.value, files: flow.files,
      covered: links.length > 0, checks: links, edgeCases: flow.edgeCases,
    })),
    summary: {
      flows: flows.length,
      coveredFlows: covered,
      edgeCases: flows.reduce((sum, item) => sum + item.flow.edgeCases.length, 0),
      coveredShare: flows.length === 0 ? 0 : Math.round((covered / flows.length) * 1000) / 1000,
    },
  };
}
