import { z } from 'zod';
import { SET_A, SET_B, type NamingSet } from '../../core/naming.js';
import { capabilityParam, flagBody, installationIdParam, keyBody, prefixParam } from '../requests/admin.js';
import { listQuery as checkListQuery, sourceQuery } from '../requests/checks.js';
import { afterQuery as ingestionAfterQuery } from '../requests/ingestions.js';
import { afterQuery, answersBody, createBody, disputeBody, listQuery, updatesQuery } from '../requests/jobs.js';
import { connectBody, updateBody } from '../requests/repositories.js';
import { createBody as scheduleCreateBody, listQuery as scheduleListQuery, patchBody } from '../requests/schedules.js';
import { organizationBody } from '../requests/session.js';
import { checkSchemas } from '../schemas/checks.js';
import { healthSchema, readinessSchema } from '../schemas/health.js';
import { coverageSchema, ingestionDetailSchema, ingestionEventSchema, ingestionStateSchema } from '../schemas/ingestions.js';
import { errorResponseSchema, timestampSchema } from '../schemas/common.js';
import { artifactSchema, findingSchema, jobEventSchema, jobSchemas, resolutionSchema, startedBySchema } from '../schemas/jobs.js';
import { apiKeyCreatedSchema, apiKeyListSchema, executionFlagsSchema, installationConnectedSchema, installationListSchema, sessionSchema } from '../schemas/people.js';
import { repositorySchema, repositoryConnectedSchema, repositoryDetailSchema, repositoryListSchema, repositoryUpdatedSchema } from '../schemas/repositories.js';
import { scheduleDetailSchema, scheduleListSchema, scheduleSchema } from '../schemas/schedules.js';
import { deliveryReceivedSchema } from '../schemas/webhooks.js';
import { openApiDocumentSchema } from './document-schema.js';
import type { ApiOperation, ErrorName } from './operation.js';

/** The errors of creating a job or answering one: the use cases' admission, the planner, the queue. */
const JOB_ADMISSION: ErrorName[] = ['RepositoryNotFound', 'CheckNotFound', 'CheckOtherRepository', 'ExecutionPaused', 'PlannerFailed', 'JobStartFailed', 'JobChannelContextInvalid'];

/** `/api/jobs` (Set A) or `/api/runs` (Set B): one service, named at the edge (src/core/naming.ts). */
function jobOperations(names: NamingSet): ApiOperation[] {
  const base = `/api/${names.collection}`;
  const schemas = jobSchemas[names.set];
  const tag = names.set === 'A' ? 'Jobs (Set A)' : 'Runs (Set B)';
  const Noun = names.record === 'job' ? 'Job' : 'Run';
  const op = (name: string) => `${name}${Noun}`;
  return [
    {
      method: 'post', path: base, operationId: op('create'), tag, access: 'organization',
      summary: `Create a ${names.record}: a plain-language task or the replay of a ${names.set === 'A' ? 'test' : 'scenario'}`,
      description: `Exactly one of \`${names.checkId}\` and \`naturalLanguageTask\`. A task that could have a real side effect or is too vague answers \`review_required\` with the questions; no workflow starts.`,
      body: createBody(names),
      success: [{ status: 202, description: 'Accepted: runnable, or awaiting answers', json: schemas.created }],
      errors: JOB_ADMISSION,
    },
    {
      method: 'get', path: base, operationId: `list${Noun}s`, tag, access: 'organization',
      summary: `The organization's ${names.collection}, newest first, a page at a time`,
      description: '`nextCursor` goes in `?cursor=` for the next page (null on the last). `status` and `trigger` take several values, repeated or comma-separated.',
      query: listQuery(names),
      success: [{ status: 200, description: 'A page', json: schemas.list }],
      errors: ['RequestInvalidCursor'],
    },
    {
      method: 'get', path: `${base}/updates`, operationId: `follow${Noun}Updates`, tag, access: 'organization',
      summary: `NDJSON of the organization's ${names.collection} as they are created and change`,
      description: 'A heartbeat line first, then one line per change (and heartbeats); never ends by itself. `?after=<cursor>` of any line resumes after it.',
      query: updatesQuery,
      success: [{ status: 200, description: 'The stream', ndjson: schemas.updateLine }],
      errors: ['RequestInvalidCursor'],
    },
    {
      method: 'post', path: `${base}/:id/cancel`, operationId: op('cancel'), tag, access: 'organization',
      summary: `Cancel a queued, running or review_required ${names.record}`,
      success: [{ status: 200, description: 'Cancelled', json: schemas.cancelled }],
      errors: ['JobNotFound', 'JobNotCancellable'],
    },
    {
      method: 'post', path: `${base}/:id/clarifications`, operationId: op('answer'), tag, access: 'organization',
      summary: `Answer a review_required ${names.record}'s questions: a linked ${names.record} with the answers`,
      body: answersBody,
      success: [{ status: 202, description: `The linked ${names.record} (its \`${names.parentId}\` is the one answered)`, json: schemas.created }],
      errors: ['JobNotFound', 'JobNotAwaitingAnswers', 'ClarificationAnswerCount', ...JOB_ADMISSION],
    },
    {
      method: 'post', path: `${base}/:id/findings/dispute`, operationId: `dispute${names.set === 'A' ? 'Findings' : 'Reports'}Of${Noun}`, tag, access: 'organization',
      summary: `"Not a bug": dispute a failed ${names.record}'s ${names.results}`,
      body: disputeBody,
      success: [{ status: 200, description: `The ${names.results} now disputed, in run order`, json: schemas.disputed }],
      errors: ['JobNotFound', 'FindingNotFound', 'DisputeJobNotFailed', 'DisputeReasonInvalid', 'DisputeByInvalid', 'DisputeFindingIdsInvalid'],
    },
    {
      method: 'get', path: `${base}/:id/events`, operationId: `follow${Noun}Events`, tag, access: 'organization',
      summary: `NDJSON of a ${names.record}'s events: the history after \`?after=n\`, then new ones until it is finished`,
      description: 'A stream cut by the server ends without the final chunk: reconnect with `?after=<last index seen>`.',
      query: afterQuery,
      success: [{ status: 200, description: 'The stream', ndjson: jobEventSchema }],
      errors: ['JobNotFound'],
    },
    {
      method: 'get', path: `${base}/:id/artifacts/:artifactId`, operationId: `download${Noun}Artifact`, tag, access: 'organization',
      summary: 'The bytes of one artifact (a screenshot, a trace), as a download of the type it was stored with',
      success: [{ status: 200, description: 'The artifact', binary: true }],
      errors: ['JobNotFound', 'ArtifactNotFound', 'ArtifactMissing'],
    },
    {
      method: 'get', path: `${base}/:id`, operationId: op('get'), tag, access: 'organization',
      summary: `A ${names.record}: its record, ordered events, artifacts and ${names.results}`,
      success: [{ status: 200, description: `The ${names.record}`, json: schemas.view }],
      errors: ['JobNotFound'],
    },
  ];
}

/** `/api/checks` (Set A) or `/api/scenarios` (Set B). */
function checkOperations(names: NamingSet): ApiOperation[] {
  const collection = names.set === 'A' ? 'checks' : 'scenarios';
  const base = `/api/${collection}`;
  const schemas = checkSchemas[names.set];
  const tag = names.set === 'A' ? 'Checks (Set A)' : 'Scenarios (Set B)';
  const Noun = names.set === 'A' ? 'Check' : 'Scenario';
  return [
    {
      method: 'get', path: base, operationId: `list${Noun}s`, tag, access: 'organization',
      summary: `The organization's compiled ${collection}`,
      description: '`repositoryId` and `projectId` are the same filter; either is accepted.',
      query: checkListQuery,
      success: [{ status: 200, description: 'The list', json: schemas.list }],
      errors: [],
    },
    {
      method: 'get', path: `${base}/:id/source`, operationId: `get${Noun}Source`, tag, access: 'organization',
      summary: 'The generated, self-contained @playwright/test source of a version (the one replays run, or `?version=`)',
      query: sourceQuery,
      success: [{ status: 200, description: 'The source', text: 'text/plain' }],
      errors: ['CheckNotFound', 'CheckVersionNotFound'],
    },
    {
      method: 'post', path: `${base}/:id/versions/:version/accept`, operationId: `accept${Noun}Version`, tag, access: 'organization',
      summary: 'Accept a version a healing replay proposed: replays run it from now on',
      params: { version: z.string().regex(/^[1-9][0-9]{0,8}$/).meta({ description: 'The version number' }) },
      success: [{ status: 200, description: 'The check and the version', json: schemas.accepted }],
      errors: ['CheckNotFound', 'CheckVersionNotFound', 'CheckVersionNotProposed'],
    },
    {
      method: 'get', path: `${base}/:id`, operationId: `get${Noun}`, tag, access: 'organization',
      summary: 'A check, its versions and the jobs that produced or replayed it',
      success: [{ status: 200, description: 'The check', json: schemas.detail }],
      errors: ['CheckNotFound'],
    },
  ];
}

const REPOSITORY_ADMISSION: ErrorName[] = [
  'ExecutionPaused', 'RepositoryOwnerExcluded', 'RepositoryInstallationNotConnected', 'RepositoryInstallationInactive',
  'RepositoryProbeRefUnknown', 'RepositoryProbeUrlUnset', 'RepositoryProbeNotHttps', 'RepositoryProbeHostNotAllowed',
  'IngestionInProgress', 'RepositoryOnboardingStartFailed',
];

const repositoryOperations: ApiOperation[] = [
  {
    method: 'post', path: '/api/repositories', operationId: 'connectRepository', tag: 'Repositories', access: 'organization',
    summary: 'Connect a repository (spec 2.3) and queue its onboarding',
    body: connectBody,
    success: [{ status: 202, description: 'Onboarding queued', json: repositoryConnectedSchema }],
    errors: REPOSITORY_ADMISSION,
  },
  {
    method: 'get', path: '/api/repositories', operationId: 'listRepositories', tag: 'Repositories', access: 'organization',
    summary: "The organization's repositories",
    success: [{ status: 200, description: 'The list', json: repositoryListSchema }],
    errors: [],
  },
  {
    method: 'get', path: '/api/repositories/:id', operationId: 'getRepository', tag: 'Repositories', access: 'organization',
    summary: 'A repository, its latest ingestion and its ingestion runs',
    success: [{ status: 200, description: 'The repository', json: repositoryDetailSchema }],
    errors: ['RepositoryNotFound'],
  },
  {
    method: 'get', path: '/api/repositories/:id/coverage', operationId: 'getRepositoryCoverage', tag: 'Repositories', access: 'organization',
    summary: "The repository's flows with their edge cases, which checks cover each, and the share covered",
    success: [{ status: 200, description: 'The coverage', json: coverageSchema }],
    errors: ['RepositoryNotFound'],
  },
  {
    method: 'patch', path: '/api/repositories/:id', operationId: 'updateRepository', tag: 'Repositories', access: 'organization',
    summary: "Replace the repository's pull-request settings",
    body: updateBody,
    success: [{ status: 200, description: 'The repository', json: repositoryUpdatedSchema }],
    errors: ['RepositoryNotFound'],
  },
];

const ingestionOperations: ApiOperation[] = [
  {
    method: 'get', path: '/api/ingestions/:id', operationId: 'getIngestion', tag: 'Repositories', access: 'organization',
    summary: 'An ingestion run in full: its state, steps and builds',
    success: [{ status: 200, description: 'The ingestion run', json: ingestionDetailSchema }],
    errors: ['IngestionNotFound'],
  },
  {
    method: 'get', path: '/api/ingestions/:id/events', operationId: 'followIngestionEvents', tag: 'Repositories', access: 'organization',
    summary: "NDJSON of an ingestion run's events after `?after=n`, until the run is over",
    query: ingestionAfterQuery,
    success: [{ status: 200, description: 'The stream', ndjson: ingestionEventSchema }],
    errors: ['IngestionNotFound'],
  },
];

const scheduleOperations: ApiOperation[] = [
  {
    method: 'post', path: '/api/schedules', operationId: 'createSchedule', tag: 'Schedules', access: 'organization',
    summary: 'Replay a compiled check on a cron expression or an interval',
    description: 'Exactly one of `testId` and `scenarioId` (the schedule answers in that naming set from then on), and exactly one of `cron` and `intervalMinutes`.',
    body: scheduleCreateBody,
    success: [{ status: 201, description: 'The schedule', json: scheduleSchema }],
    errors: ['CheckNotFound', 'CheckNotCompiled', 'ExecutionPaused', 'ScheduleQueueFailed'],
  },
  {
    method: 'get', path: '/api/schedules', operationId: 'listSchedules', tag: 'Schedules', access: 'organization',
    summary: "The organization's schedules, oldest first",
    query: scheduleListQuery,
    success: [{ status: 200, description: 'The list', json: scheduleListSchema }],
    errors: [],
  },
  {
    method: 'get', path: '/api/schedules/:id', operationId: 'getSchedule', tag: 'Schedules', access: 'organization',
    summary: 'A schedule and its latest fires, newest first',
    success: [{ status: 200, description: 'The schedule', json: scheduleDetailSchema }],
    errors: ['ScheduleNotFound'],
  },
  {
    method: 'patch', path: '/api/schedules/:id', operationId: 'updateSchedule', tag: 'Schedules', access: 'organization',
    summary: 'Pause (`{"enabled": false}`) or resume a schedule',
    body: patchBody,
    success: [{ status: 200, description: 'The schedule', json: scheduleSchema }],
    errors: ['ScheduleNotFound', 'ScheduleQueueFailed'],
  },
  {
    method: 'delete', path: '/api/schedules/:id', operationId: 'deleteSchedule', tag: 'Schedules', access: 'organization',
    summary: 'Delete a schedule (the jobs it created stay)',
    success: [{ status: 204, description: 'Deleted' }],
    errors: ['ScheduleNotFound'],
  },
];

const adminOperations: ApiOperation[] = [
  {
    method: 'get', path: '/api/keys', operationId: 'listApiKeys', tag: 'Administration', access: 'admin',
    summary: "The organization's API keys (never their secrets)",
    success: [{ status: 200, description: 'The keys', json: apiKeyListSchema }],
    errors: [],
  },
  {
    method: 'post', path: '/api/keys', operationId: 'createApiKey', tag: 'Administration', access: 'admin',
    summary: 'Issue an API key: its secret is in this answer only',
    body: keyBody,
    success: [{ status: 201, description: 'The new key', json: apiKeyCreatedSchema }],
    errors: [],
  },
  {
    method: 'delete', path: '/api/keys/:prefix', operationId: 'revokeApiKey', tag: 'Administration', access: 'admin',
    summary: 'Revoke a live API key by its prefix',
    params: { prefix: prefixParam.meta({ description: 'The key prefix, as GET /api/keys lists it' }) },
    success: [{ status: 204, description: 'Revoked' }],
    errors: ['ApiKeyNotFound'],
  },
  {
    method: 'get', path: '/api/execution-flags', operationId: 'listExecutionFlags', tag: 'Administration', access: 'admin',
    summary: 'Whether live and AI execution are paused for the organization (or for everyone)',
    success: [{ status: 200, description: 'The flags', json: executionFlagsSchema }],
    errors: [],
  },
  {
    method: 'put', path: '/api/execution-flags/:capability', operationId: 'setExecutionFlag', tag: 'Administration', access: 'admin',
    summary: 'Pause or resume live or AI execution for the organization',
    params: { capability: capabilityParam },
    body: flagBody,
    success: [{ status: 200, description: 'The flags', json: executionFlagsSchema }],
    errors: ['FlagsUnknownCapability'],
    // The catalogue's 400 is the CLI's (a wrong argument); on this path an unknown capability names nothing.
    errorStatus: { FlagsUnknownCapability: 404 },
  },
  {
    method: 'get', path: '/api/installations', operationId: 'listInstallations', tag: 'Administration', access: 'admin',
    summary: "The code-host installations connected to the organization, then those connected nowhere yet",
    success: [{ status: 200, description: 'The installations', json: installationListSchema }],
    errors: [],
  },
  {
    method: 'post', path: '/api/installations/:installationId/connect', operationId: 'connectInstallation', tag: 'Administration', access: 'admin',
    summary: "Accept a reported code-host installation's repositories in the organization",
    params: { installationId: installationIdParam },
    success: [{ status: 200, description: 'Connected', json: installationConnectedSchema }],
    errors: ['InstallationNotReported', 'InstallationConnectedElsewhere'],
  },
];

const peopleOperations: ApiOperation[] = [
  {
    method: 'get', path: '/auth/login', operationId: 'signIn', tag: 'Sign-in', access: 'public',
    summary: "Start a sign-in: a redirect to the identity provider (when IDENTITY_ISSUER_URL is set)",
    query: z.object({ returnTo: z.string().optional().meta({ description: 'A path of this service to come back to' }) }),
    success: [{ status: 302, description: "To the provider's authorization page", redirect: true }],
    errors: ['SigninUnavailable'],
  },
  {
    method: 'get', path: '/auth/callback', operationId: 'signInCallback', tag: 'Sign-in', access: 'public',
    summary: "The provider's redirect back: sets the session cookie and redirects to `returnTo`",
    success: [{ status: 302, description: 'Signed in', redirect: true }],
    errors: ['SigninFailed', 'SigninUnavailable'],
  },
  {
    method: 'post', path: '/auth/logout', operationId: 'signOut', tag: 'Sign-in', access: 'public',
    summary: 'End the session (with its CSRF token) and clear the cookie',
    success: [{ status: 204, description: 'Signed out' }],
    errors: ['CsrfRefused'],
  },
  {
    method: 'get', path: '/api/session', operationId: 'getSession', tag: 'Sign-in', access: 'session',
    summary: "The signed-in person's standing, organizations and CSRF token",
    success: [{ status: 200, description: 'The session', json: sessionSchema }],
    errors: [],
  },
  {
    method: 'post', path: '/api/session/organization', operationId: 'setSessionOrganization', tag: 'Sign-in', access: 'session',
    summary: 'Work in another of the person\'s organizations',
    body: organizationBody,
    success: [{ status: 200, description: 'The session', json: sessionSchema }],
    errors: ['SetupRequired', 'SessionOrganizationUnavailable'],
  },
];

const WEBHOOK_INTAKE: ErrorName[] = ['WebhookSignatureMissing', 'WebhookSignatureInvalid', 'RequestInvalidJson', 'RequestTooLarge', 'WebhookDeliveryConflict'];

const webhookOperations: ApiOperation[] = [
  {
    method: 'post', path: '/api/webhooks/codehost', operationId: 'receiveCodehostDelivery', tag: 'Webhooks', access: 'signed',
    summary: "The code host's deliveries (when CODEHOST_WEBHOOK_SECRET is set)",
    headers: z.object({
      'x-codehost-signature-256': z.string().meta({ description: '`sha256=` HMAC of the raw body under CODEHOST_WEBHOOK_SECRET' }),
      'x-codehost-event': z.string().meta({ description: 'The event name (`pull_request`, `installation`, …)' }),
      'x-codehost-delivery': z.string().meta({ description: 'The delivery id' }),
    }),
    rawBody: { description: "The code host's event payload, as it sent it (the signature is over these bytes)" },
    success: [{ status: 202, description: 'Stored as a durable receipt', json: deliveryReceivedSchema }],
    errors: [...WEBHOOK_INTAKE, 'WebhookHeaderMissing', 'WebhookHeaderInvalid'],
  },
  {
    method: 'post', path: '/api/webhooks/identity', operationId: 'receiveIdentityDelivery', tag: 'Webhooks', access: 'signed',
    summary: "The identity provider's directory events (when IDENTITY_WEBHOOK_SIGNING_SECRET is set)",
    headers: z.object({
      'x-identity-signature': z.string().meta({ description: '`t=<unix seconds>,v1=<HMAC-SHA256 hex>` over `t.body`' }),
      'x-identity-delivery-id': z.string().optional().meta({ description: 'The delivery id (else the body\'s `id`)' }),
    }),
    rawBody: { description: '`{id, event, data, created_at}`, as the provider sent it' },
    success: [{ status: 202, description: 'Stored as a durable receipt', json: deliveryReceivedSchema }],
    errors: [...WEBHOOK_INTAKE, 'WebhookSignatureStale', 'WebhookBodyInvalid', 'WebhookHeaderInvalid'],
  },
  {
    method: 'post', path: '/api/webhooks/chat', operationId: 'receiveChatRequest', tag: 'Webhooks', access: 'signed',
    summary: "The chat platform's events, commands and interactions (when CHAT_SIGNING_SECRET is set); acked at once",
    headers: z.object({
      'x-slack-signature': z.string().meta({ description: '`v0=` HMAC of `v0:<timestamp>:<body>`' }),
      'x-slack-request-timestamp': z.string().meta({ description: 'Unix seconds; at most 5 minutes off' }),
    }),
    rawBody: { description: "Slack's request (JSON or form-encoded), as it sent it" },
    success: [{ status: 200, description: "Bolt's ack: an empty body, or JSON (a url_verification's `{challenge}`, an ack with content)", json: z.record(z.string(), z.unknown()) }],
    errors: ['ChatSignatureMissing', 'ChatSignatureInvalid', 'ChatRequestStale', 'RequestTooLarge'],
  },
];

const serviceOperations: ApiOperation[] = [
  {
    method: 'get', path: '/healthz', operationId: 'health', tag: 'Service', access: 'public',
    summary: 'The process is up',
    success: [{ status: 200, description: 'Up', json: healthSchema }],
    errors: [],
  },
  {
    method: 'get', path: '/readyz', operationId: 'readiness', tag: 'Service', access: 'public',
    summary: 'The database answers and no migration is pending',
    success: [
      { status: 200, description: 'Ready', json: readinessSchema },
      { status: 503, description: 'Not ready: send no traffic', json: readinessSchema },
    ],
    errors: [],
  },
  {
    method: 'get', path: '/api/openapi.json', operationId: 'getOpenApiDocument', tag: 'Service', access: 'public',
    summary: 'This document (OpenAPI 3.1), generated from the zod schemas the routers parse with',
    success: [{ status: 200, description: 'The document', json: openApiDocumentSchema }],
    errors: [],
  },
];

/**
 * Every operation of the HTTP API, in the order the document lists them. The route test
 * (test/integration/api/openapi.test.ts) walks the real Express app and requires each of its routes here (or in
 * `NOT_IN_DOCUMENT`), and each of these in the app.
 */
export const API_OPERATIONS: readonly ApiOperation[] = [
  ...serviceOperations,
  ...jobOperations(SET_A),
  ...jobOperations(SET_B),
  ...checkOperations(SET_A),
  ...checkOperations(SET_B),
  ...repositoryOperations,
  ...ingestionOperations,
  ...scheduleOperations,
  ...adminOperations,
  ...peopleOperations,
  ...webhookOperations,
];

/**
 * The answers' schemas a generated client should know by name: each is a component of the document, and every
 * place that uses the same schema object refers to it.
 */
export const API_COMPONENTS: Readonly<Record<string, z.ZodType>> = {
  Timestamp: timestampSchema,
  Error: errorResponseSchema,
  JobEvent: jobEventSchema,
  Artifact: artifactSchema,
  Finding: findingSchema,
  Resolution: resolutionSchema,
  StartedBy: startedBySchema,
  ...Object.fromEntries(
    [SET_A, SET_B].flatMap((names) => {
      const Noun = names.record === 'job' ? 'Job' : 'Run';
      const Check = names.set === 'A' ? 'Check' : 'Scenario';
      const jobs = jobSchemas[names.set];
      const checks = checkSchemas[names.set];
      return [
        [`${Noun}View`, jobs.view], [`${Noun}Created`, jobs.created], [`${Noun}Summary`, jobs.summary], [`${Noun}List`, jobs.list],
        [`${Noun}UpdateLine`, jobs.updateLine], [`${Noun}Cancelled`, jobs.cancelled], [`${Noun}FindingsDisputed`, jobs.disputed],
        [`${Check}List`, checks.list], [`${Check}Detail`, checks.detail], [`${Check}Accepted`, checks.accepted],
      ];
    }),
  ),
  Repository: repositorySchema,
  IngestionState: ingestionStateSchema,
  IngestionDetail: ingestionDetailSchema,
  IngestionEvent: ingestionEventSchema,
  Coverage: coverageSchema,
  Schedule: scheduleSchema,
  ScheduleDetail: scheduleDetailSchema,
  Session: sessionSchema,
  DeliveryReceived: deliveryReceivedSchema,
};
