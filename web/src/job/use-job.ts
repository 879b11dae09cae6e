/**
 * A job as the page follows it: `GET /api/jobs/:id` once, then its event stream (`…/events?after=<last index>`)
 * until the job is finished, resuming after the last index seen whenever the connection drops (follow-stream.ts).
 * Lines are merged into the view's history (merge-events.ts), a burst of them in one render. When the stream ends
 * cleanly the job is finished: the view is fetched once more for its final findings and artifacts.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { jobEventSchema } from '../../../src/api/schemas/jobs.js';
import { query, type ApiError } from '../api/client.js';
import { followStream, type StreamState } from '../api/follow-stream.js';
import { fetchJobView, jobPath, jobStatuses, type JobView } from './job-view.js';
import { lastIndexOf, mergeEvents, type JobEvent } from './merge-events.js';
import { isFinishedStatus, statusAfterEvents } from './job-progress.js';

export const jobKey = (jobId: string) => ['job', jobId] as const;

/** Lines that arrive within this long are rendered together (a resumed history comes as a burst). */
const FLUSH_MS = 60;

export interface FollowedJob {
  view: JobView;
  /** The view's history and every line streamed since, ordered, each index once. */
  events: readonly JobEvent[];
  /** The status as the events tell it (the view's until a newer event names another). */
  status: string;
  stream: StreamState | 'idle';
  /** Why following stopped (a 4xx: the session ended, the job went away). */
  streamError: ApiError | undefined;
}

export function useJob(jobId: string) {
  const queryClient = useQueryClient();
  const view = useQuery({
    queryKey: jobKey(jobId),
    queryFn: ({ signal }) => fetchJobView(jobId, signal),
    // The stream keeps it current; a refetch on focus would send the whole history again. Opened again later, it is
    // fetched again (the default staleness): a cached view may miss findings and answers written meanwhile.
    refetchOnWindowFocus: false,
  });
  const [streamed, setStreamed] = useState<readonly JobEvent[]>([]);
  const [stream, setStream] = useState<StreamState | 'idle'>('idle');
  const [streamError, setStreamError] = useState<ApiError>();

  const follow = view.data !== undefined && !isFinishedStatus(view.data.job.status);
  useEffect(() => {
    if (!follow) return;
    const controller = new AbortController();
    const known = queryClient.getQueryData<JobView>(jobKey(jobId))?.events ?? [];
    const from = lastIndexOf(known);
    let buffer: JobEvent[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const lines = buffer;
      buffer = [];
      if (lines.length > 0) setStreamed((current) => mergeEvents(current, lines));
    };
    followStream({
      url: (after) => `${jobPath(jobId)}/events${query({ after })}`,
      schema: jobEventSchema,
      cursorOf: (event) => String(event.index),
      onLine: (event) => {
        buffer.push(event);
        timer ??= setTimeout(flush, FLUSH_MS);
      },
      onState: (state) => setStream(state),
      signal: controller.signal,
      after: from === undefined ? undefined : String(from),
    }).then(
      () => {
        if (controller.signal.aborted) return;
        clearTimeout(timer);
        flush();
        // Finished: its final findings, artifacts and times.
        void queryClient.invalidateQueries({ queryKey: jobKey(jobId) });
      },
      (error: ApiError) => {
        if (!controller.signal.aborted) setStreamError(error);
      },
    );
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [follow, jobId, queryClient]);

  const followed = useMemo((): FollowedJob | undefined => {
    if (view.data === undefined) return undefined;
    const events = mergeEvents(view.data.events, streamed);
    const viewLast = lastIndexOf(view.data.events) ?? -1;
    const newer = streamed.filter((event) => event.index > viewLast);
    // A follow stopped because the job finished (a cancel, the final view) is no longer live, whatever it last said.
    return { view: view.data, events, status: statusAfterEvents(view.data.job.status, newer, jobStatuses), stream: follow ? stream : 'idle', streamError };
  }, [view.data, streamed, stream, streamError, follow]);

  return { query: view, followed };
}
