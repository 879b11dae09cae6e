/**
 * A job's history as the page holds it: the events of `GET /api/jobs/:id` and the lines of its event stream merged
 * into one list ordered by index, each index once. A resumed stream, a refetched view and a line that arrives twice
 * all land here, so none of them can show a step twice or drop one.
 */
import type { z } from 'zod';
import type { jobEventSchema } from '../../../src/api/schemas/jobs.js';

export type JobEvent = z.output<typeof jobEventSchema>;

/**
 * `known` and `incoming` merged, ordered by index, one event per index (the one already known wins: an event is
 * never rewritten). Returns `known` itself when nothing is new, so a caller can skip a render.
 */
export function mergeEvents(known: readonly JobEvent[], incoming: readonly JobEvent[]): readonly JobEvent[] {
  if (incoming.length === 0) return known;
  const last = known.length > 0 ? known[known.length - 1]!.index : -1;
  // The usual case, a stream's lines in order after what is known: append without sorting.
  if (isAscending(incoming) && incoming[0]!.index > last) return [...known, ...incoming];
  const byIndex = new Map<number, JobEvent>();
  for (const event of known) byIndex.set(event.index, event);
  let added = false;
  for (const event of incoming) {
    if (byIndex.has(event.index)) continue;
    byIndex.set(event.index, event);
    added = true;
  }
  if (!added) return known;
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

function isAscending(events: readonly JobEvent[]): boolean {
  for (let i = 1; i < events.length; i += 1) if (events[i]!.index <= events[i - 1]!.index) return false;
  return true;
}

/** The index to resume the stream after (`?after=`), or undefined when nothing is known yet. */
export function lastIndexOf(events: readonly JobEvent[]): number | undefined {
  return events.length > 0 ? events[events.length - 1]!.index : undefined;
}
