/**
 * What a job's history says, read for the page: its steps with their timings and outcome, the pages it visited, its
 * status as the events tell it, and artifacts announced by the stream before the job view lists them. Pure: the page
 * recomputes it from the merged events. Event data is whatever the run wrote (`Record<string, unknown>`): every
 * field is read with its type checked, and an event of a kind this page does not know is only listed.
 */
import type { Artifact } from './job-view.js';
import type { JobEvent } from './merge-events.js';

/** One of the API's statuses (job-view.ts `jobStatuses`). */
export type JobStatus = string;

export interface StepView {
  /** 0-based, as the events and artifacts number it. */
  index: number;
  description: string;
  action: string;
  state: 'running' | 'passed' | 'failed';
  startedAt: string;
  finishedAt?: string;
  ms?: number;
  /** The run's attempt that ran it (a resumed run starts the step again). */
  attempt?: number;
  failureKind?: string;
  message?: string;
  expected?: string;
  actual?: string[];
  /** The failure was held by a dispute ("not a bug") and the run went on. */
  disputed?: boolean;
  healed: boolean;
}

export interface PageVisit {
  at: string;
  url: string;
  title: string;
  httpStatus?: number;
  ms?: number;
}

export interface ArtifactAnnouncement {
  id: string;
  kind: string;
  name: string;
  sizeBytes: number;
  stepIndex: number | null;
  createdAt: string;
}

export interface JobProgress {
  steps: StepView[];
  visits: PageVisit[];
  artifacts: ArtifactAnnouncement[];
  /** Jobs that answered this one's questions (`job.answered`). */
  childJobIds: string[];
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const texts = (value: unknown): string[] | undefined => (Array.isArray(value) && value.every((item) => typeof item === 'string') ? (value as string[]) : undefined);

export function progressOf(events: readonly JobEvent[]): JobProgress {
  const steps = new Map<number, StepView>();
  const visits: PageVisit[] = [];
  const artifacts: ArtifactAnnouncement[] = [];
  const childJobIds: string[] = [];
  let current: StepView | undefined;
  for (const event of events) {
    const { data } = event;
    switch (event.type) {
      case 'step.started': {
        const index = count(data.index);
        if (index === undefined) break;
        // Started again by a resumed attempt: the latest start is the step's story.
        current = {
          index,
          description: text(data.description) ?? `Step ${index + 1}`,
          action: text(data.action) ?? '',
          state: 'running',
          startedAt: event.at,
          attempt: count(data.attempt),
          healed: false,
        };
        steps.set(index, current);
        break;
      }
      case 'step.passed':
      case 'step.failed': {
        const index = count(data.index);
        const step = index === undefined ? undefined : steps.get(index);
        if (step === undefined) break;
        step.state = event.type === 'step.passed' ? 'passed' : 'failed';
        step.finishedAt = event.at;
        step.ms = count(data.ms);
        step.failureKind = text(data.kind);
        step.message = text(data.message);
        step.expected = text(data.expected);
        step.actual = texts(data.actual);
        step.disputed = data.disputed === true ? true : undefined;
        step.healed = data.healed !== undefined && data.healed !== null;
        if (current === step) current = undefined;
        break;
      }
      case 'artifact.created': {
        const id = text(data.artifactId);
        if (id === undefined) break;
        // A step's artifacts are written in the commit that ends it, before its `step.passed`/`step.failed`.
        const stepIndex = current?.index ?? null;
        artifacts.push({ id, kind: text(data.kind) ?? 'file', name: text(data.name) ?? id, sizeBytes: count(data.sizeBytes) ?? 0, stepIndex, createdAt: event.at });
        break;
      }
      case 'page.visited':
        visits.push({ at: event.at, url: text(data.url) ?? '', title: text(data.title) ?? '', httpStatus: count(data.status), ms: count(data.ms) });
        break;
      case 'job.answered': {
        const child = text(data.childJobId);
        if (child !== undefined && !childJobIds.includes(child)) childJobIds.push(child);
        break;
      }
      default:
        break;
    }
  }
  return { steps: [...steps.values()].sort((a, b) => a.index - b.index), visits, artifacts, childJobIds };
}

/** Events written before or beside a run: they do not mean that a workflow picked the job up. */
const BEFORE_THE_RUN = new Set(['job.created', 'job.answered', 'planner.called']);

/**
 * The job's status after its events: `job.<status>` names it; any other event of a queued job (`job.started`, a
 * step, …) means it runs. `statuses` is the API's own list (the record schema's enum), so a new status needs no
 * change here.
 */
export function statusAfterEvents(status: JobStatus, events: readonly JobEvent[], statuses: readonly JobStatus[]): JobStatus {
  let current = status;
  for (const event of events) {
    const named = event.type.startsWith('job.') ? event.type.slice('job.'.length) : '';
    if ((statuses as readonly string[]).includes(named)) current = named as JobStatus;
    else if (current === 'queued' && !BEFORE_THE_RUN.has(event.type)) current = 'running';
  }
  return current;
}

/** No more events will come (the service ends the stream): a verdict, an error, a cancel, or a stop for review. */
export const isFinishedStatus = (status: JobStatus) => status !== 'queued' && status !== 'running';

/** The service accepts a cancel (src/core/job-lifecycle.ts CANCELLABLE); it answers 409 otherwise. */
export const isCancellableStatus = (status: JobStatus) => status === 'queued' || status === 'running' || status === 'review_required';

/**
 * The job view's artifacts, then those only announced so far (their bytes are at the same download route the view
 * would give them: `/api/jobs/:id/artifacts/:artifactId`).
 */
export function artifactsWithAnnounced(jobId: string, listed: readonly Artifact[], announced: readonly ArtifactAnnouncement[]): Artifact[] {
  const known = new Set(listed.map((artifact) => artifact.id));
  const extra = announced
    .filter((artifact) => !known.has(artifact.id))
    .map(
      (artifact): Artifact => ({
        id: artifact.id,
        kind: artifact.kind,
        name: artifact.name,
        contentType: artifact.kind === 'screenshot' ? 'image/png' : 'application/octet-stream',
        sizeBytes: artifact.sizeBytes,
        sha256: '',
        stepIndex: artifact.stepIndex,
        createdAt: artifact.createdAt,
        downloadPath: `/api/jobs/${encodeURIComponent(jobId)}/artifacts/${encodeURIComponent(artifact.id)}`,
      }),
    );
  return [...listed, ...extra];
}
