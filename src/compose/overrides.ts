import type { DataSource } from 'typeorm';
import type { ArtifactStorage } from '../artifacts/artifact-storage.js';
import type { ReadProgress } from '../jobs/event-feed.js';
import type { JobEventType } from '../core/job-lifecycle.js';
import type { ProgressSinks } from '../notify/progress-sink.js';
import type { Planner } from '../planner/planner.js';
import type { ProbeClientOptions } from '../probes/probe-client.js';
import type { RetryPolicy } from '../queue/index.js';
import type { DeliveryHandlers } from '../workflows/webhook-delivery.js';
import type { ReadSecret } from '../workflows/test-values.js';
import type { ReadAccess } from '../identity/access-state.js';
import type { CoverageSource } from '../webhooks/codehost/pull-request-selection.js';
import type { Reindexer } from '../webhooks/codehost/push-handler.js';
import type { OnboardingPorts } from '../workflows/onboarding.js';

/**
 * What a test or a bench gives the composition root instead of what `Config` would build. Everything else (queue
 * timings, concurrency, browser, artifacts folder, HTTP address, excluded owners) is configuration: pass a
 * `Config` with those values.
 */
export interface ComposeOverrides {
  /** An open, migrated store to use instead of opening `config.database`; the caller closes it. */
  dataSource?: DataSource;
  /** The server's environment secrets by variable name (default: this process's environment). */
  readSecret?: ReadSecret;
  /** Default: the planner `config.planner` names. */
  planner?: Planner;
  /** Default: files under `config.artifacts.dir`. */
  artifacts?: ArtifactStorage;
  /** Added to the probe client's options (a test CA, a resolver); `allowCidrs` defaults to `config.probes`. */
  probes?: ProbeClientOptions;
  /** Wraps the event feed's read (to count or fail reads). */
  feedRead?: (read: ReadProgress) => ReadProgress;
  /** Called after a commit that added events to a job, with their types, besides waking this process's event feed. */
  eventsWritten?: (jobId: string, written: readonly JobEventType[]) => void;
  /** The `qa-run` workflow's retry policy (default: its own). */
  retry?: RetryPolicy;
  /** How often a running job looks whether it was cancelled (default: the workflow's). */
  cancelPollMs?: number;
  /** The tick and settle window of the pollers behind GET /api/jobs/updates (default: job-updates-feed.ts's, 1 s each). */
  updatesTimings?: { tickMs?: number; settleMs?: number };
  /** `host:port` origins no run may reach besides the service's own HTTP address (which is always forbidden). */
  forbiddenOrigins?: readonly string[];
  /** Where notified jobs' progress goes, by channel (default: none; the chat wiring adds Slack's, the code host's its PR sink). */
  progressSinks?: ProgressSinks;
  /** Replaces a webhook provider's delivery handler (a bench counts its calls); default: the composed ones. */
  webhookHandlers?: DeliveryHandlers;
  /** What the access directory answers for a signed-in user (default: the directory in the store). */
  readAccess?: ReadAccess;
  /** The flows and coverage links pull requests choose their checks by (default: none, every check runs). */
  coverage?: CoverageSource;
  /** Starts a re-index when a repository's default branch moves (default: none; `push` does nothing). */
  reindexer?: Reindexer;
  /** The onboarding steps' implementations (fetch, index, crawl, discover, linkCoverage); without them onboardings stay queued. */
  onboardingPorts?: OnboardingPorts;
}
