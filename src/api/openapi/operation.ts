import type { z } from 'zod';
import type { ERROR_CATALOGUE } from '../../core/error-codes.js';

/** An error of the one catalogue (src/core/error-codes.ts), by its name there. */
export type ErrorName = keyof typeof ERROR_CATALOGUE;

/**
 * Who may call an operation:
 * - `public`: nobody needs to be known;
 * - `organization`: an API key (`Authorization: Bearer`) or a ready session (cookie, plus `x-csrf-token` on a
 *   state-changing method);
 * - `admin`: a session of an organization admin (API keys are refused);
 * - `session`: a signed-in person's session, whatever their directory standing;
 * - `signed`: a provider's delivery, signed over its raw body (the signature headers are parameters).
 */
export type Access = 'public' | 'organization' | 'admin' | 'session' | 'signed';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The success answer of an operation: its status and what its body is. */
export interface Success {
  status: number;
  description: string;
  /** `application/json`, parsed with this schema by the router (src/api/schemas). */
  json?: z.ZodType;
  /** `application/x-ndjson`: a stream, one line per value of this schema. */
  ndjson?: z.ZodType;
  /** A text body of this media type (`text/plain`, `text/html`). */
  text?: string;
  /** Bytes of the type the response's `content-type` names (an artifact). */
  binary?: true;
  /** A redirect: the target is in `Location`. */
  redirect?: true;
}

/**
 * One route of the HTTP API, as the OpenAPI document describes it and the route test finds it in the Express app.
 * `path` is Express's (`/api/jobs/:id`); the document writes `{id}`.
 */
export interface ApiOperation {
  method: Method;
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  access: Access;
  /** Path parameters, by name; a parameter not named here is a string. */
  params?: Record<string, z.ZodType>;
  query?: z.ZodType<unknown, Record<string, unknown>>;
  headers?: z.ZodType<unknown, Record<string, unknown>>;
  /** The JSON body the router parses with this schema (src/api/requests). */
  body?: z.ZodType;
  /** A body the route reads as raw bytes (a signed delivery): its media type and what it is. */
  rawBody?: { description: string };
  success: Success[];
  /** The errors it raises itself; the access's and the body's are added (operations.ts). */
  errors: ErrorName[];
  /** Where this route answers an error with another status than the catalogue's. */
  errorStatus?: Partial<Record<ErrorName, number>>;
}
