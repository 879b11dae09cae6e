import { InvalidArgumentError } from 'commander';
import type { NamingSet } from '../core/naming.js';
import { createApiClient, type ApiClient } from './api-client.js';
import type { CliContext } from './context.js';
import { followJob } from './follow-job.js';
import { createFollowRenderer } from './follow-renderer.js';
import { settle } from './job-outcome.js';
import type { Terminal } from './terminal.js';

/**
 * What the client verbs (`qa jobs`, `qa runs`, `qa follow`, `qa answer`, `qa repos`) share. They talk to the
 * running service's REST API (QA_API_URL, QA_API_KEY) and never open the database.
 */

/** The API client of this run's configuration; fails when QA_API_KEY is unset. */
export function apiClientOf(context: CliContext): ApiClient {
  return createApiClient(context.config().client);
}

/** A repeatable option's values, in the order given (`--allow a --allow b`). */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** `--after <n>`: an event index. */
export function eventIndex(value: string): number {
  if (!/^[0-9]{1,15}$/.test(value)) throw new InvalidArgumentError('must be an event index (a whole number, 0 or more)');
  return Number(value);
}

/** `qa follow` and `create --follow`: shows the events until the job is finished, then settles its exit code. */
export async function followToTheEnd(
  client: ApiClient,
  terminal: Terminal,
  names: NamingSet,
  jobId: string,
  after?: number,
): Promise<void> {
  const record = await followJob({ client, renderer: createFollowRenderer(terminal.stdout) }, names, jobId, after);
  settle(terminal.stderr, names, jobId, record);
}
