import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Telemetry } from '../core/telemetry.js';

/** What waits in the queue for one kind of job, read at scrape time. */
export interface QueueBacklog {
  kind: string;
  due: number;
  oldestDueSeconds: number;
}

export interface PrometheusTelemetryDeps {
  /** The queue's backlog by kind, read from the store when Prometheus scrapes (a failed read leaves the gauges empty). */
  readBacklog?: () => Promise<readonly QueueBacklog[]>;
  /**
   * An organization's slug by id, for the `organization` label (METRICS_ORG_LABEL=1); without it no job count
   * carries that label.
   */
  organizationSlug?: (organizationId: string) => Promise<string | undefined>;
}

export interface PrometheusTelemetry {
  telemetry: Telemetry;
  /** This process's registry (never prom-client's global one: two graphs in one process, as in tests, each have their own). */
  registry: Registry;
  /** The exposition, in Prometheus's text format (`registry.contentType`). */
  render(): Promise<string>;
  contentType: string;
}

/** Seconds: from a fast API answer to a long browser run. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const RUN_BUCKETS = [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];
const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The service's metrics on a registry of their own, with Node's default metrics. Every label takes a value from a
 * small fixed set (see `Telemetry`); the organization label exists only when `organizationSlug` is given.
 */
export function createPrometheusTelemetry({ readBacklog, organizationSlug }: PrometheusTelemetryDeps = {}): PrometheusTelemetry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const byOrganization = organizationSlug !== undefined;
  const jobLabels = byOrganization ? ['organization'] : [];

  const httpRequests = new Counter({ name: 'qa_http_requests_total', help: 'HTTP requests answered, by route pattern, method and status', labelNames: ['route', 'method', 'status'], registers });
  const httpDuration = new Histogram({ name: 'qa_http_request_duration_seconds', help: 'Time to answer an HTTP request', labelNames: ['route', 'method', 'status'], buckets: HTTP_BUCKETS, registers });
  const claims = new Counter({ name: 'qa_queue_claims_total', help: 'Queue jobs this process claimed, by kind', labelNames: ['kind'], registers });
  const takeovers = new Counter({ name: 'qa_queue_lock_takeovers_total', help: 'Queue jobs this process took over from an expired lock (a worker presumed dead), by kind', labelNames: ['kind'], registers });
  const handBacks = new Counter({ name: 'qa_queue_hand_backs_total', help: 'Runs this process handed back to the queue (shutdown), by kind', labelNames: ['kind'], registers });
  const jobsCreated = new Counter({ name: 'qa_jobs_created_total', help: 'Jobs created, by trigger', labelNames: ['trigger', ...jobLabels], registers });
  const jobsFinished = new Counter({ name: 'qa_jobs_finished_total', help: 'Jobs finished, by trigger and outcome (passed, failed, errored, cancelled)', labelNames: ['trigger', 'outcome', ...jobLabels], registers });
  const runAttempts = new Histogram({ name: 'qa_run_attempt_duration_seconds', help: 'One attempt of a QA run, by outcome (passed, failed, errored, cancelled, retry, stopped)', labelNames: ['outcome'], buckets: RUN_BUCKETS, registers });
  const steps = new Histogram({ name: 'qa_workflow_step_duration_seconds', help: "A workflow's named step that did its work, with its commit", labelNames: ['workflow', 'step'], buckets: RUN_BUCKETS, registers });
  const plannerCalls = new Counter({ name: 'qa_planner_calls_total', help: 'Requests to a model planner, by outcome (answer, invalid, failed)', labelNames: ['planner', 'outcome'], registers });
  const plannerTokens = new Counter({ name: 'qa_planner_tokens_total', help: 'Tokens a model planner reported, by kind (prompt, completion)', labelNames: ['planner', 'kind'], registers });
  const receipts = new Counter({ name: 'qa_webhook_receipts_total', help: 'Verified webhook deliveries, by provider and what the receipt came to (accepted, duplicate, requeued, in_progress, conflict)', labelNames: ['provider', 'outcome'], registers });
  const webhookRetries = new Counter({ name: 'qa_webhook_retries_total', help: 'Webhook deliveries whose processing failed and will be retried, by provider', labelNames: ['provider'], registers });
  const deadLetters = new Counter({ name: 'qa_webhook_dead_letters_total', help: 'Webhook deliveries that failed for the last time (left for an operator), by provider', labelNames: ['provider'], registers });
  const deliveries = new Counter({ name: 'qa_progress_deliveries_total', help: 'Progress messages (chat, codehost pull requests) by outcome (delivered, given_up, refused)', labelNames: ['channel', 'outcome'], registers });
  const deliveryRetries = new Counter({ name: 'qa_progress_delivery_retries_total', help: 'Progress deliveries that failed and will be retried, by channel', labelNames: ['channel'], registers });
  const launches = new Counter({ name: 'qa_browser_launches_total', help: "Launches of (or connections to) this worker's browser, by outcome", labelNames: ['outcome'], registers });
  const contexts = new Gauge({ name: 'qa_browser_contexts_open', help: 'Browser contexts open in this process (runs, and the one kept ready)', registers });

  // Both queue gauges come from one read per scrape: `render` makes it before the gauges are collected.
  const readFresh = (): Promise<readonly QueueBacklog[]> => (readBacklog ? readBacklog().catch(() => []) : Promise.resolve([]));
  let scrape: Promise<readonly QueueBacklog[]> | undefined;
  const readOnce = (): Promise<readonly QueueBacklog[]> => scrape ?? readFresh();
  new Gauge({
    name: 'qa_queue_depth', help: 'Queue jobs due and waiting for a worker, by kind (read at scrape time)', labelNames: ['kind'], registers,
    async collect() {
      const kinds = await readOnce();
      this.reset();
      for (const { kind, due } of kinds) this.set({ kind }, due);
    },
  });
  new Gauge({
    name: 'qa_queue_oldest_due_seconds', help: 'How long the oldest waiting queue job of a kind has been due (read at scrape time)', labelNames: ['kind'], registers,
    async collect() {
      const kinds = await readOnce();
      this.reset();
      for (const { kind, oldestDueSeconds } of kinds) this.set({ kind }, oldestDueSeconds);
    },
  });
  contexts.set(0);

  // Job counts wait for the slug when labelled by organization (one read per organization, then remembered).
  const slugs = new Map<string, Promise<string>>();
  const withOrganization = (organizationId: string, count: (labels: { organization?: string }) => void): void => {
    if (!organizationSlug) return count({});
    let slug = slugs.get(organizationId);
    if (!slug) slugs.set(organizationId, (slug = organizationSlug(organizationId).then((found) => found ?? 'unknown', () => 'unknown')));
    void slug.then((organization) => count({ organization }));
  };

  const telemetry: Telemetry = {
    httpRequest(route, method, status, seconds) {
      const labels = { route, method: METHODS.has(method) ? method : 'other', status: String(status) };
      httpRequests.inc(labels);
      httpDuration.observe(labels, seconds);
    },
    queueClaim(kind, takeover) {
      claims.inc({ kind });
      if (takeover) takeovers.inc({ kind });
    },
    queueHandBack: (kind) => handBacks.inc({ kind }),
    jobCreated: (trigger, organizationId) => withOrganization(organizationId, (labels) => jobsCreated.inc({ trigger, ...labels })),
    jobFinished: (trigger, outcome, organizationId) => withOrganization(organizationId, (labels) => jobsFinished.inc({ trigger, outcome, ...labels })),
    runAttempt: (outcome, seconds) => runAttempts.observe({ outcome }, seconds),
    workflowStep: (workflow, step, seconds) => steps.observe({ workflow, step }, seconds),
    plannerCall(planner, outcome, tokens) {
      plannerCalls.inc({ planner, outcome });
      plannerTokens.inc({ planner, kind: 'prompt' }, tokens.prompt);
      plannerTokens.inc({ planner, kind: 'completion' }, tokens.completion);
    },
    webhookReceipt: (provider, outcome) => receipts.inc({ provider, outcome }),
    webhookFailure: (provider, dead) => (dead ? deadLetters : webhookRetries).inc({ provider }),
    progressDelivery: (channel, outcome) => (outcome === 'retry' ? deliveryRetries.inc({ channel }) : deliveries.inc({ channel, outcome })),
    browserLaunch: (outcome) => launches.inc({ outcome }),
    browserContexts: (change) => contexts.inc(change),
  };
  const render = async (): Promise<string> => {
    const read = readFresh();
    scrape = read;
    try {
      return await registry.metrics();
    } finally {
      if (scrape === read) scrape = undefined;
    }
  };
  return { telemetry, registry, render, contentType: registry.contentType };
}
