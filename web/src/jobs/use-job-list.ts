/**
 * The jobs list of a filter, kept live: pages from GET /api/jobs (keyset, "Load more" with `nextCursor`) and one
 * NDJSON stream of the organization's job updates (GET /api/jobs/updates) merged into every cached list, instead of
 * polling rows. The stream's cursor and the recent updates live as long as the page (not the screen), so leaving the
 * jobs screen and coming back resumes where it stopped and the cached pages catch up.
 *
 * Order matters once: with no cursor yet, the first page waits for the stream's first line (a heartbeat whose cursor
 * is where the stream starts), so no change falls between the page's read and the stream's start.
 */
import { useInfiniteQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, ApiError, query } from '../api/client.js';
import { followStream, type StreamState } from '../api/follow-stream.js';
import { jobListSchema, jobPageOf, jobUpdateLineSchema, jobUpdateOf, type JobPage, type JobSummary } from '../api/job-summary.js';
import { connection } from '../connection.js';
import { useSession } from '../session.js';
import { filterFromSearch, filterKey, listPathOf, type JobFilter } from './job-filter.js';
import { JOB_LISTS_KEY } from './keys.js';
import { mergeIntoFetchedPage, mergeJob, type LoadedPages } from './job-pages.js';
import { createUpdateBuffer, type UpdateBuffer } from './update-buffer.js';

export { JOB_LISTS_KEY };

interface Live {
  organizationId: string;
  cursor: string | undefined;
  buffer: UpdateBuffer;
}

let live: Live | undefined;

function liveOf(organizationId: string): Live {
  if (live?.organizationId !== organizationId) live = { organizationId, cursor: undefined, buffer: createUpdateBuffer() };
  return live;
}

/** The cache key of an organization's list under a filter: `['jobs', 'list', <query string>, <organization id>]`. */
const listKey = (filter: JobFilter, organizationId: string) => [...JOB_LISTS_KEY, filterKey(filter), organizationId] as const;

/** Every cached list of the organization with `job` merged in under its own filter (the key's query string). */
function applyToLists(queryClient: QueryClient, organizationId: string, job: JobSummary): void {
  for (const [key, data] of queryClient.getQueriesData<LoadedPages>({ queryKey: JOB_LISTS_KEY })) {
    if (!data || key[3] !== organizationId) continue;
    const next = mergeJob(data, job, filterFromSearch(typeof key[2] === 'string' ? key[2] : ''));
    if (next !== data) queryClient.setQueryData(key, next);
  }
}

export type LiveState = { state: StreamState; error?: ApiError };

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * The service sends a heartbeat at least every 15 s: a stream quiet for longer is a connection that died without
 * closing (a laptop lid, a dropped Wi-Fi), which `fetch` would wait on for ever. It is cut and followed again from
 * the cursor.
 */
export const STREAM_SILENCE_MS = 25_000;

/** Follows the updates stream while mounted; `ready` once the list may load (see the module comment). */
function useJobUpdates(organizationId: string): { ready: boolean; live: LiveState } {
  const queryClient = useQueryClient();
  const [ready, setReady] = useState(() => liveOf(organizationId).cursor !== undefined);
  const [state, setState] = useState<LiveState>({ state: 'connecting' });

  useEffect(() => {
    const current = liveOf(organizationId);
    // Another organization's stream has no cursor yet: its lists wait for the first line, as on a first visit.
    if (current.cursor === undefined) setReady(false);
    const controller = new AbortController();
    const { signal } = controller;
    /** The lists loaded while the stream had no cursor: what changed before it starts must be read again. */
    let loadedBlind = false;
    const letListsLoad = () => {
      if (current.cursor === undefined) loadedBlind = true;
      setReady(true);
    };
    async function run() {
      while (!signal.aborted) {
        const attempt = new AbortController();
        const stopAttempt = () => attempt.abort();
        signal.addEventListener('abort', stopAttempt);
        let silence: ReturnType<typeof setTimeout> | undefined;
        let stalled = false;
        const heard = () => {
          clearTimeout(silence);
          silence = setTimeout(() => {
            stalled = true;
            attempt.abort();
          }, STREAM_SILENCE_MS);
        };
        try {
          await followStream({
            url: (after) => `/api/jobs/updates${query({ after })}`,
            schema: jobUpdateLineSchema,
            cursorOf: (line) => line.cursor as string,
            after: current.cursor,
            signal: attempt.signal,
            onLine(line) {
              heard();
              const update = jobUpdateOf(line);
              current.cursor = update.cursor;
              setReady(true);
              if (loadedBlind) {
                loadedBlind = false;
                void queryClient.invalidateQueries({ queryKey: JOB_LISTS_KEY });
              }
              if (update.job) {
                current.buffer.push(update.job);
                applyToLists(queryClient, organizationId, update.job);
              }
            },
            onState(next, error) {
              if (next === 'open') {
                connection.up();
                heard();
              }
              if (next === 'retrying') {
                clearTimeout(silence);
                connection.down();
                // The list need not wait for a stream that is not there.
                letListsLoad();
              }
              setState({ state: next, error });
            },
          });
          if (signal.aborted) return;
          if (stalled) {
            connection.down();
            setState({ state: 'retrying' });
            continue;
          }
          // A clean end: the service is closing (a restart); follow again from the cursor after a pause.
          await sleep(1_000, signal);
        } catch (error) {
          if (signal.aborted) return;
          letListsLoad();
          if (error instanceof ApiError && error.status === 400 && current.cursor !== undefined) {
            // A cursor the service no longer takes: start afresh, and load the lists again to miss nothing.
            current.cursor = undefined;
            void queryClient.invalidateQueries({ queryKey: JOB_LISTS_KEY });
            continue;
          }
          setState({ state: 'ended', error: error instanceof ApiError ? error : undefined });
          return;
        } finally {
          clearTimeout(silence);
          signal.removeEventListener('abort', stopAttempt);
        }
      }
    }
    void run();
    return () => controller.abort();
  }, [organizationId, queryClient]);

  return { ready, live: state };
}

/** Fetches one page and merges in the updates that arrived meanwhile (update-buffer.ts). */
async function fetchPage(filter: JobFilter, cursor: string | undefined, buffer: UpdateBuffer, signal: AbortSignal): Promise<JobPage> {
  for (let attempt = 1; ; attempt += 1) {
    const mark = buffer.mark();
    const page = jobPageOf(await api(jobListSchema, listPathOf(filter, cursor), { signal }));
    const { jobs, lost } = buffer.since(mark);
    // More updates than the buffer holds arrived during the fetch: read the page again (it is that fresh now).
    if (lost && attempt < 3) continue;
    return mergeIntoFetchedPage(page, jobs, filter, cursor === undefined);
  }
}

export function useJobList(filter: JobFilter) {
  const session = useSession();
  const organizationId = session.organization.id;
  const { ready, live: liveState } = useJobUpdates(organizationId);
  const list = useInfiniteQuery({
    queryKey: listKey(filter, organizationId),
    queryFn: ({ pageParam, signal }) => fetchPage(filter, pageParam, liveOf(organizationId).buffer, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: ready,
    // The stream keeps loaded pages current; refetching every page on focus would only repeat it.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  return { list, live: liveState };
}
