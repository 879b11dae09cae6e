import { statusNamedBy, type JobStatus } from '../core/job-lifecycle.js';
import type { JobEventLine } from './job-shapes.js';
import { printable, type OutputStream } from './terminal.js';

/** How `qa follow` shows a job's events as they come. */
export interface FollowRenderer {
  /** Following begins: the job's status now and when it was created (epoch ms), for the elapsed time. */
  start(status: JobStatus, since: number): void;
  event(event: JobEventLine, status: JobStatus): void;
  /** Following ends (also on an error); nothing is drawn after this. */
  end(): void;
}

export interface RendererOptions {
  now?: () => number;
  /** Runs `tick` every `ms` until the returned function is called (the live line's clock). */
  every?: (ms: number, tick: () => void) => () => void;
}

/** Events written about a job before or beside its run: they do not mean that a workflow has picked it up. */
const BEFORE_THE_RUN = new Set(['job.created', 'job.answered']);

/**
 * The job's status as its events tell it, for the progress line: `job.<status>` events name it; any other event of
 * a queued job (`job.started`, `page.visited`, …) means its workflow has picked it up. The job's own status (GET)
 * stays the truth at the end.
 */
export function statusAfter(current: JobStatus, eventType: string): JobStatus {
  const named = statusNamedBy(eventType);
  if (named !== undefined) return named;
  if (current === 'queued' && !BEFORE_THE_RUN.has(eventType)) return 'running';
  return current;
}

/** `12s`, `4m 05s`, `1h 02m`. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

const compact = (data: unknown) => printable(JSON.stringify(data ?? null));

/** Piped output: one plain line per event, `<index> <at> <type> <compact data JSON>`, no control characters. */
export function plainEventLine(event: JobEventLine): string {
  return `${event.index} ${printable(event.at)} ${printable(event.type)} ${compact(event.data)}`;
}

/** A terminal's line for a person: `#3  14:02:11  step.passed  {"step":"…"}` (local time), cut to `width`. */
export function humanEventLine(event: JobEventLine, width: number | undefined): string {
  const at = new Date(event.at);
  const time = Number.isNaN(at.getTime()) ? printable(event.at) : at.toTimeString().slice(0, 8);
  const line = `#${event.index}  ${time}  ${printable(event.type)}  ${compact(event.data)}`;
  return width !== undefined && width > 1 && line.length > width - 1 ? `${line.slice(0, width - 2)}…` : line;
}

const CLEAR_LINE = '\r\x1b[2K';

function defaultEvery(ms: number, tick: () => void): () => void {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * On a terminal (`stream.isTTY`): a human line per event and, below them, a live progress line (status, events
 * seen, elapsed time) rewritten in place every second and cleared at the end. Anywhere else: plain lines only.
 */
export function createFollowRenderer(stream: OutputStream, options: RendererOptions = {}): FollowRenderer {
  if (stream.isTTY !== true) {
    return {
      start() {},
      event(event) {
        stream.write(`${plainEventLine(event)}\n`);
      },
      end() {},
    };
  }

  const now = options.now ?? Date.now;
  const every = options.every ?? defaultEvery;
  let status: JobStatus = 'queued';
  let since = now();
  let count = 0;
  let stop: (() => void) | undefined;
  const progress = () =>
    `${CLEAR_LINE}… ${status} · ${count} event${count === 1 ? '' : 's'} · ${formatElapsed(now() - since)}`;

  return {
    start(current, createdAt) {
      status = current;
      since = Number.isFinite(createdAt) ? createdAt : now();
      stream.write(progress());
      stop = every(1000, () => stream.write(progress()));
    },
    event(event, current) {
      status = current;
      count += 1;
      stream.write(`${CLEAR_LINE}${humanEventLine(event, stream.columns)}\n${progress()}`);
    },
    end() {
      stop?.();
      stop = undefined;
      stream.write(CLEAR_LINE);
    },
  };
}
