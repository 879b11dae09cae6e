import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiContentObject,
  type ZodOpenApiObject,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { ERROR_CATALOGUE } from '../../core/error-codes.js';
import { CSRF_HEADER } from '../csrf.js';
import { errorResponseSchema } from '../schemas/common.js';
import type { ApiOperation, ErrorName } from './operation.js';

/** `/api/jobs/:id` → `/api/jobs/{id}`. */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

const STATE_CHANGING = new Set(['post', 'put', 'patch', 'delete']);

/** The errors an operation can answer: its own, and those of its access, body and query (the edge raises them). */
export function errorsOf(operation: ApiOperation): ErrorName[] {
  const names = new Set<ErrorName>(operation.errors);
  const changes = STATE_CHANGING.has(operation.method);
  if (operation.access === 'organization' || operation.access === 'admin') names.add('AuthUnauthorized').add('SetupRequired');
  if (operation.access === 'admin') names.add('RoleForbidden');
  if (operation.access === 'session') names.add('AuthUnauthorized');
  if (changes && operation.access !== 'public' && operation.access !== 'signed') names.add('CsrfRefused');
  if (operation.body) names.add('RequestInvalid').add('RequestInvalidJson').add('RequestTooLarge').add('RequestUnreadable');
  if (operation.query) names.add('RequestInvalid');
  names.add('InternalUnexpected');
  // An answer that does not fit its own schema is the service's bug, answered as a 500 with this code.
  if (operation.success.some((success) => success.json !== undefined || success.ndjson !== undefined)) names.add('InternalResponseMismatch');
  return [...names];
}

/** The HTTP status an operation answers `name` with: its own override, or the catalogue's. */
export function errorStatus(operation: ApiOperation, name: ErrorName): number | undefined {
  const entry = ERROR_CATALOGUE[name] as { status?: number };
  // Express's parser picks the status of an unreadable body; an unsupported charset or encoding, the usual cause, is 415.
  return operation.errorStatus?.[name] ?? entry.status ?? (name === 'RequestUnreadable' ? 415 : undefined);
}

/** The error body of one status: the shape of every error answer, with `code` one of the codes listed. */
function errorBody(codes: string[]) {
  return errorResponseSchema.extend({
    error: errorResponseSchema.shape.error.extend({ code: z.enum(codes as [string, ...string[]]) }),
  });
}

function errorResponses(operation: ApiOperation): ZodOpenApiResponsesObject {
  const byStatus = new Map<number, string[]>();
  for (const name of errorsOf(operation)) {
    const status = errorStatus(operation, name);
    if (status === undefined) continue;
    byStatus.set(status, [...(byStatus.get(status) ?? []), ERROR_CATALOGUE[name].code]);
  }
  const responses: ZodOpenApiResponsesObject = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const meanings = codes.map((code) => {
      const entry = Object.values(ERROR_CATALOGUE).find((candidate) => candidate.code === code)!;
      return `- \`${code}\`: ${entry.meaning}`;
    });
    responses[`${status}` as `4${string}`] = {
      description: meanings.join('\n'),
      content: { 'application/json': { schema: errorBody(codes) } },
    };
  }
  return responses;
}

function successContent(success: ApiOperation['success'][number]): ZodOpenApiContentObject | undefined {
  if (success.json) return { 'application/json': { schema: success.json } };
  if (success.ndjson) return { 'application/x-ndjson': { schema: success.ndjson } };
  if (success.text) return { [success.text]: { schema: z.string() } };
  if (success.binary) return { 'application/octet-stream': { schema: z.string().meta({ contentMediaType: 'application/octet-stream' }) } };
  return undefined;
}

/** Who may call: the security requirements of an access (alternatives; each lists what is sent together). */
function securityOf(operation: ApiOperation): Record<string, string[]>[] {
  const session: Record<string, string[]> = STATE_CHANGING.has(operation.method) ? { session: [], csrf: [] } : { session: [] };
  switch (operation.access) {
    case 'organization':
      return [{ apiKey: [] }, session];
    case 'admin':
    case 'session':
      return [session];
    case 'public':
    case 'signed':
      return [];
  }
}

function pathParams(operation: ApiOperation) {
  const names = [...operation.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!);
  if (names.length === 0) return undefined;
  return z.object(
    Object.fromEntries(
      names.map((name) => [name, operation.params?.[name] ?? z.string().meta({ description: 'An id the service handed out (a lowercase UUID); any other form answers 404' })]),
    ),
  );
}

function operationObject(operation: ApiOperation): ZodOpenApiOperationObject {
  const responses: ZodOpenApiResponsesObject = {};
  for (const success of operation.success) {
    responses[`${success.status}` as `2${string}`] = {
      // OpenAPI 3.1 has no item schema for a stream (3.2's itemSchema): the schema is one line's, and this says so.
      description: success.ndjson ? `${success.description}: NDJSON, one JSON value of this schema per line` : success.description,
      ...(success.redirect ? { headers: { location: { schema: { type: 'string' }, description: 'Where to go' } } } : {}),
      ...(successContent(success) ? { content: successContent(success) } : {}),
    };
  }
  const path = pathParams(operation);
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    tags: [operation.tag],
    security: securityOf(operation),
    ...(path || operation.query || operation.headers
      ? { requestParams: { ...(path ? { path } : {}), ...(operation.query ? { query: operation.query } : {}), ...(operation.headers ? { header: operation.headers } : {}) } }
      : {}),
    ...(operation.body ? { requestBody: { required: true, content: { 'application/json': { schema: operation.body } } } } : {}),
    ...(operation.rawBody
      ? { requestBody: { required: true, description: operation.rawBody.description, content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } } }
      : {}),
    responses: { ...responses, ...errorResponses(operation) },
  };
}

const DESCRIPTION = `The QA job service's HTTP API. The job interface speaks two naming sets over one core: \`/api/jobs\`
(jobId, workflowIdentity, testId, projectId, findings) and \`/api/runs\` (runId, workflowRunId, scenarioId,
repositoryId, reports); \`/api/checks\` and \`/api/scenarios\` likewise. Every error answers
\`{"error": {"code", "message", "details"?}}\` with a code of the one catalogue (src/core/error-codes.ts); a path
that is no route answers 404 \`route.not_found\`. Generated
from the zod schemas the routers parse requests and answers with (src/api/requests, src/api/schemas).`;

/**
 * The OpenAPI 3.1 document of `operations`, generated from their zod schemas; `schemas` become components (a
 * generated client names them).
 */
export function createOpenApiDocument(operations: readonly ApiOperation[], schemas: Readonly<Record<string, z.ZodType>>, version: string): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  for (const operation of operations) {
    const path = openApiPath(operation.path);
    paths[path] = { ...paths[path], [operation.method]: operationObject(operation) };
  }
  const document: ZodOpenApiObject = {
    openapi: '3.1.0',
    info: { title: 'QA job service', version, description: DESCRIPTION },
    paths,
    components: {
      schemas: { ...schemas },
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key of the organization (`qa keys create`, or an admin\'s POST /api/keys)' },
        session: { type: 'apiKey', in: 'cookie', name: 'qa_session', description: 'A signed-in person\'s session (GET /auth/login); `__Host-qa_session` when the service is on https' },
        csrf: { type: 'apiKey', in: 'header', name: CSRF_HEADER, description: 'The session\'s CSRF token (GET /api/session), on every state-changing request made with the session cookie' },
      },
    },
  };
  return createDocument(document, {
    // A z.custom (channelContext) carries its JSON Schema in its .meta(): zod-openapi would refuse it as empty.
    allowEmptySchema: { custom: true },
    // Components are rendered for requests too, where zod leaves a plain object open; every request body here is a
    // strict object already. Rendered closed, a component reads the same both ways and keeps its one name (else
    // zod-openapi adds `JobEventOutput` beside `JobEvent`).
    override: ({ jsonSchema, zodSchema, io }) => {
      if (io === 'input' && zodSchema._zod.def.type === 'object' && jsonSchema.additionalProperties === undefined) jsonSchema.additionalProperties = false;
    },
  });
}
