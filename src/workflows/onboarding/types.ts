import type { DataSource } from 'typeorm';
import type { CreatedJob, CreateJobInput } from '../../jobs/job-records.js';
import type { Principal } from '../../core/principal.js';
import type { RetryPolicy } from '../../queue/index.js';
import type { OnboardingPorts, OnboardingRepository } from './ports.js';
import type { IngestionRecorder } from './recorder.js';

/** The bounds of an onboarding's child catalog builds (CATALOG_MAX_BUILDS, CATALOG_MAX_CONCURRENCY, ONBOARDING_POLL_MS). */
export interface CatalogSettings {
  maxBuilds: number;
  maxConcurrency: number;
  /** How soon the workflow looks again at running children, or at a paused capability. */
  pollMs: number;
}

export interface OnboardingDeps {
  dataSource: DataSource;
  ports: OnboardingPorts;
  /** The job service's create (src/jobs/create-job.ts): child builds are jobs like any other. */
  createJob(principal: Principal, input: CreateJobInput): Promise<CreatedJob>;
  catalog: CatalogSettings;
  now?: () => Date;
  retry?: RetryPolicy;
  /** Called after each commit that wrote events (an ingestion follower in this process may look at once). */
  eventsWritten?: (ingestionRunId: string) => void;
}

/** What one step of one attempt works with. */
export interface StepContext {
  deps: OnboardingDeps;
  recorder: IngestionRecorder;
  repository: OnboardingRepository;
  ingestionRunId: string;
  organizationId: string;
  /** The revision asked for, or the commit an earlier attempt pinned. */
  revision: string | null;
  signal: AbortSignal;
  now: () => Date;
}
