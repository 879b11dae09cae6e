import { checkListSchema } from '../api/schemas/checks.js';
import { jobSchemas } from '../api/schemas/jobs.js';
import { ErrorCode, operationalError } from '../core/errors.js';
import { SET_A } from '../core/naming.js';
import type { CheckSummary, JobCreated, JobView, QaPort } from '../mcp/port.js';
import type { ApiClient } from './api-client.js';
import { parseEventLine } from './job-shapes.js';

const schemas = jobSchemas.A;
const path = (jobId: string) => `/api/jobs/${encodeURIComponent(jobId)}`;

/** The API's answer as its response schema reads it: the service is a trust boundary for the client too. */
function read<T>(schema: { safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: Error } }, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw operationalError(ErrorCode.ApiBadResponse, `The QA API answered ${what} that this client does not understand: ${parsed.error.message}`);
  return parsed.data as T;
}

/**
 * The MCP tools' port over the REST API (QA_API_URL, QA_API_KEY), for `qa mcp`: every tool is one or two calls of
 * the same API the other client verbs call. Links point at QA_API_URL, where the service answers.
 */
export function createRestPort(client: ApiClient): QaPort {
  return {
    publicBase: client.apiUrl,

    async createJob(request) {
      return read<JobCreated>(schemas.created, await client.call('POST', '/api/jobs', request), 'a created job');
    },

    async answer(jobId, answers) {
      return read<JobCreated>(schemas.created, await client.call('POST', `${path(jobId)}/clarifications`, { answers }), 'a created job');
    },

    async getJob(jobId) {
      return read<JobView>(schemas.view, await client.call('GET', path(jobId)), 'a job');
    },

    async *events(jobId, after, signal) {
      try {
        for await (const line of client.lines(`${path(jobId)}/events${after >= 0 ? `?after=${after}` : ''}`, { signal })) {
          const event = parseEventLine(line);
          if (event.index > after) yield { ...event, data: (event.data ?? {}) as Record<string, unknown> };
        }
      } catch (error) {
        // The wait ran out (or the client cancelled): the stream was closed on purpose.
        if (!signal.aborted) throw error;
      }
    },

    async cancelJob(jobId) {
      return read<{ jobId: string; status: 'cancelled' }>(schemas.cancelled, await client.call('POST', `${path(jobId)}/cancel`), 'a cancelled job');
    },

    async listChecks({ projectId, limit }) {
      const query = new URLSearchParams({ ...(projectId !== undefined ? { projectId } : {}), limit: String(limit) });
      return read<{ checks: CheckSummary[] }>(checkListSchema(SET_A), await client.call('GET', `/api/checks?${query.toString()}`), 'a check list').checks;
    },

    async checkSource(testId, version) {
      return client.text(`/api/checks/${encodeURIComponent(testId)}/source${version === undefined ? '' : `?version=${version}`}`);
    },
  };
}
