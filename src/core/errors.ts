import { ErrorCode, notFoundCode, type ErrorKind, type NotFoundResource } from './error-codes.js';

/**
 * The one error type of the service. Every edge (HTTP, Slack thread, webhook log, CLI) maps an `AppError` to its
 * own shape by `kind`, `code` and `status`; nothing throws strings. The kinds and every code: `error-codes.ts`.
 */
export { ErrorCode, type ErrorKind } from './error-codes.js';

export interface AppErrorOptions {
  kind: ErrorKind;
  /** Namespaced and stable, e.g. `job.not_found`, from the catalogue (`ErrorCode`); clients match on it. */
  code: ErrorCode;
  message: string;
  /** HTTP status where the error has one. */
  status?: number;
  /** Structured, safe-to-log context (never secrets). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly code: ErrorCode;
  readonly status: number | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(options: AppErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.kind = options.kind;
    this.code = options.code;
    this.status = options.status;
    this.details = options.details;
  }
}

type FactoryOptions = Omit<AppErrorOptions, 'kind' | 'code' | 'message'>;

/** A mistake the caller can fix; HTTP 400 unless another status is given. */
export function userError(code: ErrorCode, message: string, options: FactoryOptions = {}): AppError {
  return new AppError({ status: 400, ...options, kind: 'user', code, message });
}

/**
 * An id that does not exist in the caller's organization: 404, also for another organization's ids, so existence
 * is never revealed. `field` names the request field that held the id, when there is one.
 */
export function notFoundError(what: NotFoundResource, field?: string): AppError {
  return new AppError({
    kind: 'user',
    code: notFoundCode(what),
    status: 404,
    message: `No ${what} with that id in this organization`,
    details: field ? { field } : undefined,
  });
}

/** The environment failed; HTTP 503 unless another status is given. */
export function operationalError(code: ErrorCode, message: string, options: FactoryOptions = {}): AppError {
  return new AppError({ status: 503, ...options, kind: 'operational', code, message });
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** Anything thrown, as an AppError: AppErrors pass through, the rest become `internal.unexpected` (HTTP 500). */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new AppError({ kind: 'unexpected', code: ErrorCode.InternalUnexpected, message, status: 500, cause: error });
}
