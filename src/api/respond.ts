import type { z } from 'zod';
import { AppError, ErrorCode } from '../core/errors.js';

/**
 * An answer as its response schema (src/api/schemas) has it, unknown fields stripped. An answer that does not fit is
 * the service's bug: a 500, never the client's 400 (which a bare ZodError would become in the error mapper). `body` is
 * not typed by the schema: the naming sets' computed keys widen zod's input types to index signatures; the builders
 * of fixed-key answers are typed by their schema's input type instead.
 */
export function responseOf<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (!result.success) {
    throw new AppError({ kind: 'unexpected', code: ErrorCode.InternalResponseMismatch, status: 500, message: `An answer does not fit its schema: ${result.error.message}`, cause: result.error });
  }
  return result.data;
}

/** A time on the wire: ISO 8601 in UTC. Drivers hand back a Date (or, in raw reads, its text). */
export function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export function isoOrNull(value: Date | string | null): string | null {
  return value === null ? null : iso(value);
}
