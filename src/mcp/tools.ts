import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { listQuery as checkListQuery, sourceQuery as checkSourceQuery } from '../api/requests/checks.js';
import { answersBody, jobRequestFields } from '../api/requests/jobs.js';
import { ErrorCode, isAppError, userError } from '../core/errors.js';
import { createdText, jobReport, reportText } from './job-report.js';
import type { CheckSummary, JobCreated, QaPort } from './port.js';
import type { McpServerInfo } from './server-info.js';
import { DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS, waitForJob, type WaitOutcome } from './wait-for-job.js';

/**
 * The MCP tools, one definition for both transports (`qa mcp` over stdio, `/mcp` over streamable HTTP): each is a
 * thin call through the port, with the API's own request fields as its input schema. Results carry structured
 * content and a short text. A job that waits for answers (review_required) is an answer to relay, not an error;
 * an API error (404 for another organization's id, 400 for bad input) is a tool error with the catalogue's code.
 */

/** The most checks replay_checks starts at once; like `qa replay`, a repository with more names them. */
const MAX_REPLAYS = 50;
/** The most checks one list reads (GET /api/checks' own limit). */
const CHECK_PAGE = 200;

const { id, naturalLanguageTask, commitSha, baseUrl, networkAllowlist } = jobRequestFields;
const jobId = id.describe('A job id (jobId) from create_job, answer_questions or replay_checks');
const projectId = id.describe('The connected repository (projectId); list_checks shows the ids of its checks');

const inputs = {
  create_job: z.strictObject({
    projectId,
    naturalLanguageTask: naturalLanguageTask.optional().describe('What to check, in plain language; or give testId'),
    testId: id.optional().describe('Replay this stored check (testId) instead of a task'),
    baseUrl: baseUrl.describe('The web app to test: http(s) URL, e.g. a preview deployment'),
    networkAllowlist: networkAllowlist.describe('Other hosts (host or host:port) the browser may contact'),
    commitSha: commitSha.optional().describe('The repository revision under test'),
  }),
  answer_questions: answersBody.extend({ jobId }),
  get_job: z.strictObject({ jobId }),
  wait_for_job: z.strictObject({
    jobId,
    after: z.number().int().min(0).optional().describe('The `after` of the previous wait_for_job answer: resume after that event'),
    waitSeconds: z.number().int().min(1).max(MAX_WAIT_SECONDS).default(DEFAULT_WAIT_SECONDS).describe('How long to wait before answering with the job still running'),
  }),
  list_checks: checkListQuery.pick({ projectId: true, limit: true }),
  replay_checks: z.strictObject({
    projectId,
    baseUrl: baseUrl.describe('The deployment to replay against, e.g. a preview URL'),
    testIds: z.array(id).min(1).max(MAX_REPLAYS).optional().describe('Only these checks (testId); every active check of the repository when absent'),
    networkAllowlist,
    commitSha: commitSha.optional(),
  }),
  get_check_source: checkSourceQuery.extend({ testId: id }),
  cancel_job: z.strictObject({ jobId }),
};

function result(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** An API error as a tool error: the catalogue's code and HTTP status, and the API's message. */
function failure(error: unknown): CallToolResult {
  if (!isAppError(error)) throw error;
  const status = error.status ?? 500;
  const text = error.message.includes(error.code) ? error.message : `${error.message} (${error.code}, HTTP ${status})`;
  return {
    isError: true,
    content: [{ type: 'text', text }],
    structuredContent: { error: { code: error.code, status, message: error.message, ...(error.details ? { details: error.details } : {}) } },
  };
}

const guarded = <A>(run: (args: A) => Promise<CallToolResult>) => async (args: A): Promise<CallToolResult> => {
  try {
    return await run(args);
  } catch (error) {
    return failure(error);
  }
};

function createdResult(created: JobCreated): CallToolResult {
  return result(createdText(created), { ...created, status: created.status ?? 'queued' });
}

function waitText(outcome: WaitOutcome): string {
  if (outcome.finished) return reportText(outcome);
  const done = outcome.steps.filter((step) => step.status !== 'running').length;
  return `Job ${outcome.jobId} is still ${outcome.status} (${done} step(s) done). Call wait_for_job again with jobId ${outcome.jobId}${outcome.after === null ? '' : ` and after ${outcome.after}`} to keep waiting.`;
}

const checkLine = (check: CheckSummary) => `${check.testId}  ${check.status}  v${check.version}  ${check.naturalLanguageTask}`;

/** An MCP server whose tools call `port`; connect it to one transport. */
export function createQaMcpServer(port: QaPort, info: McpServerInfo): McpServer {
  const server = new McpServer(info, {
    instructions:
      'QA job service: plain-language checks of a web app, run in a real browser. create_job (or replay_checks) starts jobs; ' +
      'wait_for_job follows one to its verdict; a job in review_required asks questions: relay them to the user and call answer_questions.',
  });

  server.registerTool('create_job', {
    title: 'Start a QA job',
    description: 'Start a QA job on a connected repository: a plain-language task (naturalLanguageTask) or a replay of a stored check (testId), against baseUrl. Answers with the queued job, or with questions to relay to the user (review_required).',
    inputSchema: inputs.create_job,
    annotations: { destructiveHint: false, openWorldHint: true },
  }, guarded(async (args) => createdResult(await port.createJob({ ...args, trigger: 'cli' }))));

  server.registerTool('answer_questions', {
    title: 'Answer a job\'s questions',
    description: 'Answer the questions of a review_required job, in question order. Starts a new job (its parentJobId is the answered one) or asks again.',
    inputSchema: inputs.answer_questions,
    annotations: { destructiveHint: false },
  }, guarded(async ({ jobId, answers }) => createdResult(await port.answer(jobId, answers))));

  server.registerTool('get_job', {
    title: 'Read a job',
    description: 'A job now: its status, steps, findings (with expected and actual), and links to its page, screenshot and trace.',
    inputSchema: inputs.get_job,
    annotations: { readOnlyHint: true },
  }, guarded(async ({ jobId }) => {
    const report = jobReport(await port.getJob(jobId), port.publicBase);
    return result(reportText(report), report);
  }));

  server.registerTool('wait_for_job', {
    title: 'Wait for a job\'s verdict',
    description: `Follow a job until it finishes, with progress notifications, and answer its verdict. Waits at most waitSeconds (≤ ${MAX_WAIT_SECONDS}); if the job still runs then, answers finished: false with \`after\`: call again with it.`,
    inputSchema: inputs.wait_for_job,
    annotations: { readOnlyHint: true },
  }, async (args, extra) => guarded(async () => {
    const token = extra._meta?.progressToken;
    const outcome = await waitForJob(port, args, async (event) => {
      if (token === undefined) return;
      const what = typeof event.data.description === 'string' ? `: ${event.data.description}` : '';
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: event.index + 1, message: `${event.type}${what}` } });
    }, extra.signal);
    return result(waitText(outcome), outcome);
  })(args));

  server.registerTool('list_checks', {
    title: 'List checks',
    description: 'The compiled checks (tests) of the organization, or of one repository (projectId), newest first: each replays without a model.',
    inputSchema: inputs.list_checks,
    annotations: { readOnlyHint: true },
  }, guarded(async ({ projectId: repository, limit }) => {
    const checks = await port.listChecks({ projectId: repository, limit });
    return result(checks.length === 0 ? 'No checks.' : checks.map(checkLine).join('\n'), { checks });
  }));

  server.registerTool('replay_checks', {
    title: 'Replay checks',
    description: `Replay a repository's checks against baseUrl (e.g. a preview deployment): the named testIds, or every active check (at most ${MAX_REPLAYS}). Answers the started jobs; follow each with wait_for_job.`,
    inputSchema: inputs.replay_checks,
    annotations: { destructiveHint: false, openWorldHint: true },
  }, guarded(async ({ projectId: repository, baseUrl: base, testIds, networkAllowlist: allow, commitSha: sha }) => {
    const chosen = testIds ?? (await activeChecks(port, repository));
    const replays = [];
    for (const testId of chosen) {
      try {
        const created = await port.createJob({ projectId: repository, testId, baseUrl: base, networkAllowlist: allow, commitSha: sha, trigger: 'cli' });
        replays.push({ testId, jobId: created.jobId, status: created.status ?? 'queued' });
      } catch (error) {
        if (!isAppError(error)) throw error;
        replays.push({ testId, jobId: null, status: 'not_started', error: { code: error.code, message: error.message } });
      }
    }
    const lines = replays.map((replay) => `${replay.testId}: ${replay.jobId === null ? `not started (${replay.error?.message ?? ''})` : `job ${replay.jobId} ${replay.status}`}`);
    const text = replays.length === 0 ? `Repository ${repository} has no active checks to replay.` : [`Started ${replays.filter((replay) => replay.jobId !== null).length} of ${replays.length} replay(s); follow each with wait_for_job:`, ...lines].join('\n');
    return result(text, { replays });
  }));

  server.registerTool('get_check_source', {
    title: 'Read a check\'s Playwright source',
    description: 'The generated @playwright/test source of a check (testId): the version replays run, or the given version.',
    inputSchema: inputs.get_check_source,
    annotations: { readOnlyHint: true },
  }, guarded(async ({ testId, version }) => {
    const source = await port.checkSource(testId, version);
    return result(source, { testId, ...(version !== undefined ? { version } : {}), source });
  }));

  server.registerTool('cancel_job', {
    title: 'Cancel a job',
    description: 'Cancel a queued, running or review_required job.',
    inputSchema: inputs.cancel_job,
    annotations: { destructiveHint: true, idempotentHint: false },
  }, guarded(async ({ jobId: id }) => {
    const cancelled = await port.cancelJob(id);
    return result(`Job ${cancelled.jobId} is cancelled.`, cancelled);
  }));

  return server;
}

/** Every active check of a repository, as `qa replay` takes them without --check. */
async function activeChecks(port: QaPort, repository: string): Promise<string[]> {
  const checks = await port.listChecks({ projectId: repository, limit: CHECK_PAGE });
  const active = checks.filter((check) => check.status === 'active');
  if (checks.length >= CHECK_PAGE || active.length > MAX_REPLAYS) {
    throw userError(ErrorCode.RequestInvalid, `The repository has more than ${MAX_REPLAYS} checks to replay; name them with testIds`);
  }
  return active.map((check) => check.testId);
}
