import { ErrorCode, operationalError } from '../core/errors.js';
import type { NamingSet } from '../core/naming.js';
import { isRetryable, type ApiClient } from './api-client.js';
import { statusAfter, type FollowRenderer } from './follow-renderer.js';
import { FINISHED } from '../core/job-lifecycle.js';
import { parseEventLine, recordOf, type JobRecord } from './job-shapes.js';

export interface FollowDeps {
  client: ApiClient;
  renderer: FollowRenderer;
  sleep?: (ms: number) => Promise<void>;
  /** Reconnections in a row, without a new event in between, before giving up. */
  retries?: number;
  /** The wait before the first reconnection; it doubles with each further one. */
  backoffMs?: number;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Follows a job's events (`GET …/:id/events`) until it is finished and returns its final record.
 *
 * Only events after `after` are shown. The stream ends when the job is finished; if it ends or drops before that,
 * the follower reconnects with `?after=<last index seen>`, so no event is missed or shown twice, waiting
 * `backoffMs`, then twice that, and so on, `retries` times in a row before it gives up. An error answer (401, 404,
 * …) is final at once.
 */
export async function followJob(deps: FollowDeps, names: NamingSet, jobId: string, after?: number): Promise<JobRecord> {
  const { client, renderer, sleep = sleepFor, retries = 5, backoffMs = 250 } = deps;
  const path = `/api/${names.collection}/${encodeURIComponent(jobId)}`;
  const fetchRecord = async () => recordOf(names, await client.call('GET', path));

  let record = await fetchRecord();
  let status = record.status;
  let last = after;
  renderer.start(status, record.createdAt === undefined ? Number.NaN : Date.parse(record.createdAt));
  try {
    for (let failures = 0; ; ) {
      let problem: string;
      try {
        for await (const line of client.lines(`${path}/events${last === undefined ? '' : `?after=${last}`}`)) {
          const event = parseEventLine(line);
          if (last !== undefined && event.index <= last) continue;
          last = event.index;
          failures = 0;
          status = statusAfter(status, event.type);
          renderer.event(event, status);
        }
        record = await fetchRecord();
        status = record.status;
        if (FINISHED.has(record.status)) return record;
        problem = `the stream ended while the job was still ${record.status}`;
      } catch (error) {
        if (!isRetryable(error)) throw error;
        problem = error instanceof Error ? error.message : String(error);
      }
      failures += 1;
      if (failures > retries) {
        const resume = `qa follow ${jobId}${names.set === 'B' ? ' --runs' : ''}${last === undefined ? '' : ` --after ${last}`}`;
        throw operationalError(ErrorCode.FollowLost, `Lost the events of ${names.record} ${jobId} after ${retries} reconnections (${problem}); resume with: ${resume}`);
      }
      await sleep(backoffMs * 2 ** (failures - 1));
    }
  } finally {
    renderer.end();
  }
}
