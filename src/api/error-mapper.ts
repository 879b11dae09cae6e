import type { ErrorRequestHandler } from 'express';
import { z } from 'zod';
import { AppError, ErrorCode, isAppError, toAppError } from '../core/errors.js';
import type { Logger } from '../logger.js';
import type { ErrorResponse } from './schemas/common.js';

/** A zod failure as the API's 400: `details.field` names the first offending field, `details.issues` all of them. */
export function validationError(error: z.ZodError): AppError {
  const issues = error.issues.map((issue) => ({ field: issue.path.join('.') || '(body)', message: issue.message }));
  return new AppError({
    kind: 'user',
    code: ErrorCode.RequestInvalid,
    status: 400,
    message: `Invalid request: ${issues.map((issue) => `${issue.field}: ${issue.message}`).join('; ')}`,
    details: { field: issues[0]?.field, issues },
  });
}

/** Parses a request part with its schema; a failure is the API's 400 naming the field. */
export function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/**
 * Failures of Express's own parsing (http-errors: a numeric 4xx `status`, and for body-parser a `type`) are the
 * client's: malformed JSON, too large, an unknown charset or encoding, a body that does not inflate, a path that does
 * not decode.
 */
function clientRequestError(error: unknown): AppError | undefined {
  if (isAppError(error)) return undefined;
  const { type, status } = (error ?? {}) as { type?: unknown; status?: unknown };
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  const [code, message]: [ErrorCode, string] =
    type === 'entity.parse.failed'
      ? [ErrorCode.RequestInvalidJson, 'The body is not valid JSON']
      : type === 'entity.too.large'
        ? [ErrorCode.RequestTooLarge, 'The body is too large']
        : error instanceof URIError
          ? [ErrorCode.RequestInvalidPath, 'The path is not validly percent-encoded']
          : [ErrorCode.RequestUnreadable, 'The body cannot be read'];
  return new AppError({ kind: 'user', code, status, message });
}

/** The one error mapper of the HTTP edge: `{ "error": { "code", "message", "details"? } }`. */
export function errorMapper(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    if (res.headersSent) {
      // A stream already under way (NDJSON events): end it; the client resumes with `after`.
      logger.error({ err: error, method: req.method, path: req.path }, 'stream failed');
      res.end();
      return;
    }
    const appError = error instanceof z.ZodError ? validationError(error) : (clientRequestError(error) ?? toAppError(error));
    const status = appError.status ?? 500;
    if (status >= 500) logger.error({ err: error, method: req.method, path: req.path }, 'request failed');
    const message = appError.kind === 'unexpected' ? 'Internal error' : appError.message;
    const body: ErrorResponse = { error: { code: appError.code, message, ...(appError.details ? { details: appError.details } : {}) } };
    res.status(status).json(body);
  };
}
