import { jobViewSchema } from '../../api/schemas/jobs.js';
import { SET_A } from '../../core/naming.js';
import { FINISHED } from '../../core/job-lifecycle.js';
import { followJob } from '../follow-job.js';
import type { ApiClient } from '../api-client.js';
import type { FollowRenderer } from '../follow-renderer.js';
import type { ReplayResult } from './replay-result.js';

/** A check to replay: its id and the words a person knows it by. */
export interface ReplayTarget {
  checkId: string;
  name: string;
}

export interface ReplayPlan {
  repositoryId: string;
  baseUrl: string;
  networkAllowlist: string[];
  targets: readonly ReplayTarget[];
  /** Replays in flight at once. */
  parallel: number;
}

export interface ReplayDeps {
  client: ApiClient;
  /** Aborted on `--timeout` or a stop signal: unfinished replays are cancelled and reported `timed_out`. */
  signal: AbortSignal;
  /** Each check's result, as it finishes (for the line `qa replay` prints). */
  onResult(result: ReplayResult): void;
  now?: () => number;
}

const quiet: FollowRenderer = { start: () => undefined, event: () => undefined, end: () => undefined };

/** What the job view says of the replay: status, findings, the links, and how long it ran. */
async function resultOf(client: ApiClient, target: ReplayTarget, jobId: string, fallbackMs: number): Promise<ReplayResult> {
  const view = jobViewSchema(SET_A).parse(await client.call('GET', `/api/jobs/${encodeURIComponent(jobId)}`)) as unknown as {
    job: { status: string; startedAt: string | null; finishedAt: string | null };
    artifacts: { kind: string; downloadPath: string; stepIndex: number | null }[];
    findings: ReplayResult['findings'];
  };
  const { job, artifacts, findings } = view;
  const absolute = (path: string | undefined) => (path === undefined ? null : `${client.apiUrl}${path}`);
  const failedStep = findings.find((finding) => finding.severity === 'error')?.stepIndex;
  const screenshots = artifacts.filter((artifact) => artifact.kind === 'screenshot');
  const screenshot = screenshots.find((artifact) => artifact.stepIndex === failedStep) ?? screenshots.at(-1);
  const ran = job.startedAt && job.finishedAt ? Date.parse(job.finishedAt) - Date.parse(job.startedAt) : Number.NaN;
  return {
    ...target,
    jobId,
    status: job.status === 'passed' || job.status === 'failed' || job.status === 'errored' || job.status === 'cancelled' || job.status === 'review_required' ? job.status : 'errored',
    durationMs: Number.isFinite(ran) ? ran : fallbackMs,
    findings,
    links: {
      job: `${client.apiUrl}/jobs/${encodeURIComponent(jobId)}`,
      screenshot: absolute(screenshot?.downloadPath),
      trace: absolute(artifacts.find((artifact) => artifact.kind === 'trace')?.downloadPath),
    },
    error: null,
  };
}

function unfinished(target: ReplayTarget, jobId: string | null, status: ReplayResult['status'], durationMs: number, error: string, apiUrl: string): ReplayResult {
  return {
    ...target, jobId, status, durationMs, findings: [], error,
    links: { job: jobId === null ? null : `${apiUrl}/jobs/${encodeURIComponent(jobId)}`, screenshot: null, trace: null },
  };
}

/**
 * Replays the plan's checks through the API (`POST /api/jobs` with `testId`, trigger `cli`), `parallel` at a time,
 * following each job's events on a connection of its own (resumed with `after` after a cut) until it is finished.
 * When `signal` aborts, no further replay starts and those under way are cancelled (`POST …/cancel`) and reported
 * `timed_out`. Resolves with every check's result, in the plan's order.
 */
export async function runReplays(deps: ReplayDeps, plan: ReplayPlan): Promise<ReplayResult[]> {
  const { client, signal, onResult, now = Date.now } = deps;
  const results = new Map<string, ReplayResult>();
  const aborted = new Promise<'aborted'>((resolve) => {
    if (signal.aborted) resolve('aborted');
    signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
  let next = 0;

  /**
   * Runs one replay until its job is finished, and resolves then with its result still being read: the job view is one
   * more request, which runs beside the lane's next replay instead of before it (the slot is free once the job is).
   */
  async function replay(target: ReplayTarget): Promise<{ result: Promise<ReplayResult> }> {
    const started = now();
    let jobId: string | null = null;
    const failed = (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      return unfinished(target, jobId, 'errored', now() - started, `Could not replay: ${message}`, client.apiUrl);
    };
    try {
      const created = (await client.call('POST', '/api/jobs', {
        projectId: plan.repositoryId, testId: target.checkId, baseUrl: plan.baseUrl, trigger: 'cli',
        ...(plan.networkAllowlist.length > 0 ? { networkAllowlist: plan.networkAllowlist } : {}),
      })) as { jobId?: unknown; status?: unknown };
      if (typeof created?.jobId !== 'string') throw new Error('the API answered without a jobId');
      const id = created.jobId;
      jobId = id;
      if (created.status !== 'review_required') {
        const outcome = await Promise.race([followJob({ client, renderer: quiet }, SET_A, id), aborted]);
        if (outcome === 'aborted') {
          await client.call('POST', `/api/jobs/${encodeURIComponent(id)}/cancel`).catch(() => undefined);
          const result = unfinished(target, id, 'timed_out', now() - started, 'The replay did not finish in time; it was cancelled', client.apiUrl);
          return { result: Promise.resolve(result) };
        }
        if (!FINISHED.has(outcome.status)) throw new Error(`the job ended the stream ${outcome.status}`);
      }
      const ended = now() - started;
      return { result: resultOf(client, target, id, ended).catch(failed) };
    } catch (error) {
      return { result: Promise.resolve(failed(error)) };
    }
  }

  const reads: Promise<void>[] = [];
  async function lane(): Promise<void> {
    while (!signal.aborted && next < plan.targets.length) {
      const target = plan.targets[next++]!;
      const { result: read } = await replay(target);
      reads.push(read.then((result) => {
        results.set(target.checkId, result);
        onResult(result);
      }));
    }
  }

  await Promise.all(Array.from({ length: Math.max(1, Math.min(plan.parallel, plan.targets.length)) }, lane));
  await Promise.all(reads);
  return plan.targets.map(
    (target) => results.get(target.checkId) ?? unfinished(target, null, 'timed_out', 0, 'Not started: the replay ran out of time first', client.apiUrl),
  );
}
