/**
 * What a job's history says about how it was run, read from the database only: which attempts ran it (the fencing
 * token each attempt's `job.started`, `job.resumed` and `step.started` events carry), whether two attempts' events
 * interleave in time, whether anything was written after the event that ends it, and whether any attempt stored a
 * step's screenshot twice. Shared by the backlog test and `bench:soak`.
 */
import type { DataSource } from 'typeorm';
import { isTerminalEvent } from '../../src/core/job-lifecycle.js';

/** The events that name their attempt; every other event belongs to the attempt of the last of these before it. */
const ATTEMPT_EVENTS = new Set(['job.started', 'job.resumed', 'step.started']);

export interface JobAudit {
  jobId: string;
  status: string;
  /** The attempts seen in the history, in the order they first appear. */
  attempts: number[];
  /** `job.resumed` events. */
  resumed: number;
  terminalEvents: number;
  /** Events after the first terminal event. */
  eventsAfterTerminal: number;
  /**
   * Pairs of attempts whose events interleave: a later attempt wrote before an earlier one's last event, or an
   * earlier attempt's event follows a later one's in the history.
   */
  overlaps: number;
  /** Screenshots beyond one per step per attempt. */
  duplicateScreenshots: number;
  /** Artifact rows no `artifact.created` event announced (written outside the run's recorder). */
  unannouncedArtifacts: number;
  /** Step indexes the last attempt stored a screenshot of. */
  lastAttemptScreenshotSteps: number[];
  /**
   * `step.passed` events per step index in the last attempt (a resumed run starts over from the first step): a step
   * that attempt recorded as passed twice shows as 2, one it never passed as 0.
   */
  lastAttemptPassedSteps: number[];
}

interface EventRow {
  job_id: string;
  seq: number;
  type: string;
  at: Date;
  data: string | Record<string, unknown>;
}

interface ArtifactRow {
  id: string;
  job_id: string;
  kind: string;
  step_index: number | null;
}

const parse = (data: EventRow['data']): Record<string, unknown> => (typeof data === 'string' ? (JSON.parse(data) as Record<string, unknown>) : data);

function auditOne(jobId: string, status: string, events: EventRow[], artifacts: ArtifactRow[]): JobAudit {
  let current = 0;
  let terminalAt: number | undefined;
  let terminalEvents = 0;
  let eventsAfterTerminal = 0;
  let resumed = 0;
  let outOfOrder = 0;
  const attempts: number[] = [];
  const spans = new Map<number, { first: number; last: number }>();
  const attemptOfArtifact = new Map<string, number>();
  const passedByAttempt = new Map<number, number[]>();
  for (const [position, event] of events.entries()) {
    const data = parse(event.data);
    if (ATTEMPT_EVENTS.has(event.type)) {
      const attempt = Number(data.attempt);
      if (attempt < current) outOfOrder += 1;
      current = attempt;
      if (!attempts.includes(attempt)) attempts.push(attempt);
    }
    if (event.type === 'job.resumed') resumed += 1;
    if (terminalAt !== undefined) eventsAfterTerminal += 1;
    if (isTerminalEvent(event.type)) {
      terminalEvents += 1;
      terminalAt ??= position;
    }
    if (event.type === 'artifact.created') attemptOfArtifact.set(String(data.artifactId), current);
    if (event.type === 'step.passed') {
      const passed = passedByAttempt.get(current) ?? [];
      passedByAttempt.set(current, passed);
      const index = Number(data.index);
      for (let step = passed.length; step <= index; step++) passed.push(0);
      passed[index]! += 1;
    }
    if (current > 0) {
      const at = new Date(event.at).getTime();
      const span = spans.get(current);
      if (span) span.last = Math.max(span.last, at);
      else spans.set(current, { first: at, last: at });
    }
  }
  const ordered = [...spans.entries()].sort(([a], [b]) => a - b);
  let overlaps = outOfOrder;
  for (let i = 0; i < ordered.length; i++) {
    for (let j = i + 1; j < ordered.length; j++) if (ordered[i]![1].last > ordered[j]![1].first) overlaps += 1;
  }
  const screenshots = new Map<string, number>();
  let unannouncedArtifacts = 0;
  for (const artifact of artifacts) {
    const attempt = attemptOfArtifact.get(artifact.id);
    if (attempt === undefined) {
      unannouncedArtifacts += 1;
      continue;
    }
    if (artifact.kind !== 'screenshot') continue;
    const key = `${attempt}:${artifact.step_index}`;
    screenshots.set(key, (screenshots.get(key) ?? 0) + 1);
  }
  const last = attempts.length > 0 ? Math.max(...attempts) : 0;
  return {
    jobId,
    status,
    attempts,
    resumed,
    terminalEvents,
    eventsAfterTerminal,
    overlaps,
    duplicateScreenshots: [...screenshots.values()].reduce((sum, count) => sum + count - 1, 0),
    unannouncedArtifacts,
    lastAttemptScreenshotSteps: [...screenshots.keys()]
      .filter((key) => key.startsWith(`${last}:`))
      .map((key) => Number(key.slice(key.indexOf(':') + 1)))
      .sort((a, b) => a - b),
    lastAttemptPassedSteps: passedByAttempt.get(last) ?? [],
  };
}

/** The audit of each job of `jobIds`, in that order. */
export async function auditRuns(dataSource: DataSource, jobIds: readonly string[]): Promise<JobAudit[]> {
  const audits: JobAudit[] = [];
  // In slices, so that a bench's hundreds of jobs stay within a sane IN list.
  for (let start = 0; start < jobIds.length; start += 100) {
    const slice = jobIds.slice(start, start + 100);
    const marks = slice.map(() => '?').join(', ');
    const jobs = (await dataSource.query(`SELECT id, status FROM jobs WHERE id IN (${marks})`, slice)) as { id: string; status: string }[];
    const events = (await dataSource.query(`SELECT job_id, seq, type, at, data FROM job_events WHERE job_id IN (${marks}) ORDER BY job_id, seq`, slice)) as EventRow[];
    const artifacts = (await dataSource.query(`SELECT id, job_id, kind, step_index FROM artifacts WHERE job_id IN (${marks})`, slice)) as ArtifactRow[];
    const statusOf = new Map(jobs.map((job) => [job.id, job.status]));
    for (const jobId of slice) {
      audits.push(auditOne(jobId, statusOf.get(jobId) ?? 'missing', events.filter((event) => event.job_id === jobId), artifacts.filter((artifact) => artifact.job_id === jobId)));
    }
  }
  return audits;
}
