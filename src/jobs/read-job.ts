import type { Readable } from 'node:stream';
import type { DataSource } from 'typeorm';
import type { ArtifactStorage } from '../artifacts/artifact-storage.js';
import { notFoundError as notFound } from '../core/errors.js';
import type { Principal } from '../core/principal.js';
import { Artifact } from '../store/entities/artifact.entity.js';
import { Finding } from '../store/entities/finding.entity.js';
import { JobEvent } from '../store/entities/job-event.entity.js';
import { Job } from '../store/entities/job.entity.js';
import { checkSourceKey } from './job-records.js';

export interface JobView {
  job: Job;
  childJobIds: string[];
  events: JobEvent[];
  artifacts: Artifact[];
  findings: Finding[];
}

export interface ReadJobDeps {
  dataSource: DataSource;
  /** Where the workflows keep artifact bytes (read for downloads). */
  artifacts: ArtifactStorage;
}

/**
 * Artifacts in the order the run made them: by time, then by step (run-wide ones such as the trace last), then by
 * name. SQLite keeps creation times to the second, so ties are common there.
 */
function inRunOrder(artifacts: Artifact[]): Artifact[] {
  const step = (artifact: Artifact) => artifact.stepIndex ?? Number.MAX_SAFE_INTEGER;
  return artifacts.sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || step(a) - step(b) || a.name.localeCompare(b.name),
  );
}

/** The read use case: a job with what it left, its artifacts' bytes, and the job a request made. */
export function readJobUseCase({ dataSource, artifacts: artifactStorage }: ReadJobDeps) {
  return {
    /** The id of the organization's job made under `sourceKey` (a request that may come again), or null. */
    async madeFor(principal: Principal, sourceKey: string): Promise<string | null> {
      checkSourceKey(sourceKey);
      const job = await dataSource.getRepository(Job).findOne({ select: { id: true }, where: { organizationId: principal.organizationId, sourceKey } });
      return job?.id ?? null;
    },

    /** A job with its children, ordered history, artifacts and findings. */
    async get(principal: Principal, jobId: string): Promise<JobView> {
      const { organizationId } = principal;
      const job = await dataSource.getRepository(Job).findOneBy({ id: jobId, organizationId });
      if (!job) throw notFound('job');
      const [children, events, artifacts, findings] = await Promise.all([
        dataSource.getRepository(Job).find({ select: { id: true }, where: { parentJobId: job.id, organizationId }, order: { createdAt: 'ASC' } }),
        dataSource.getRepository(JobEvent).find({ where: { jobId: job.id }, order: { seq: 'ASC' } }),
        dataSource.getRepository(Artifact).find({ where: { jobId: job.id, organizationId } }).then(inRunOrder),
        dataSource.getRepository(Finding).find({ where: { jobId: job.id, organizationId }, order: { position: 'ASC' } }),
      ]);
      return { job, childJobIds: children.map((child) => child.id), events, artifacts, findings };
    },

    /** An artifact of one of the organization's jobs, with its bytes; 404 for anything else. */
    async openArtifact(principal: Principal, jobId: string, artifactId: string): Promise<{ artifact: Artifact; content: Readable }> {
      const { organizationId } = principal;
      const artifact = await dataSource.getRepository(Artifact).findOneBy({ id: artifactId, jobId, organizationId });
      if (!artifact) throw notFound('artifact');
      return { artifact, content: await artifactStorage.open(artifact.storageKey) };
    },
  };
}
