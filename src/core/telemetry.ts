import type { JobStatus } from './job-lifecycle.js';
import type { JobTrigger } from './job.js';
import type { WebhookProvider } from './webhook-receipt.js';

/**
 * What the service counts about itself, as it happens. src/metrics implements it with prom-client; the composition
 * root passes it to each part that records (no module imports a global one); `NO_TELEMETRY` records nothing.
 *
 * Contract: every argument is one of a small fixed set (a kind, an outcome, a route pattern), never an id or free
 * text, so the series stay bounded whatever the traffic. An `organizationId` is never a label itself: the
 * implementation drops it, or labels by the organization's slug when asked to (METRICS_ORG_LABEL).
 */
export interface Telemetry {
  /** One HTTP request answered: `route` is the matched pattern (`/api/jobs/:id`), never the raw path. */
  httpRequest(route: string, method: string, status: number, seconds: number): void;
  /** This process claimed a queue job of `kind`; `takeover` when it took the job from a lock that had expired. */
  queueClaim(kind: string, takeover: boolean): void;
  /** This process handed a run of `kind` back to the queue (shutdown, claimed while stopping). */
  queueHandBack(kind: string): void;
  /** A job row was created (committed), by what started it (one of `JOB_TRIGGERS`, as stored). */
  jobCreated(trigger: JobTrigger | string, organizationId: string): void;
  /** A job reached a terminal status (passed, failed, errored, cancelled). */
  jobFinished(trigger: JobTrigger | string, outcome: JobStatus, organizationId: string): void;
  /** One attempt of a QA run, from pick-up to its end: `outcome` is the verdict, `retry`, `errored` or `stopped`. */
  runAttempt(outcome: string, seconds: number): void;
  /** One named step of a workflow (`start`, `run`, `visit`, `compile`, `propose`, `finish`) that did its work. */
  workflowStep(workflow: string, step: string, seconds: number): void;
  /** One request to a model planner: `outcome` answer, invalid or failed, with the tokens it reported. */
  plannerCall(planner: string, outcome: string, tokens: { prompt: number; completion: number }): void;
  /** A verified webhook delivery stored (or not) as a receipt: `outcome` is the receipt's (accepted, duplicate, …). */
  webhookReceipt(provider: WebhookProvider, outcome: string): void;
  /** A webhook delivery's processing failed: `dead` when it will not be tried again (a dead letter). */
  webhookFailure(provider: WebhookProvider, dead: boolean): void;
  /** A progress delivery (`chat`, `codehost`) went out, or failed: `retry`, `given_up`, `refused`. */
  progressDelivery(channel: string, outcome: 'delivered' | 'retry' | 'given_up' | 'refused'): void;
  /** The worker's browser was launched (or connected to): `ok` or `failed`. */
  browserLaunch(outcome: 'ok' | 'failed'): void;
  /** A browser context was opened (+1) or closed (-1). */
  browserContexts(change: 1 | -1): void;
}

const nothing = (): void => undefined;

/** Records nothing: the default of every part that takes a `Telemetry`. */
export const NO_TELEMETRY: Telemetry = {
  httpRequest: nothing,
  queueClaim: nothing,
  queueHandBack: nothing,
  jobCreated: nothing,
  jobFinished: nothing,
  runAttempt: nothing,
  workflowStep: nothing,
  plannerCall: nothing,
  webhookReceipt: nothing,
  webhookFailure: nothing,
  progressDelivery: nothing,
  browserLaunch: nothing,
  browserContexts: nothing,
};
