import { AppError, ErrorCode } from '../core/errors.js';
import type { ChangePosition } from '../jobs/job-changes.js';
import type { ListPosition } from '../jobs/list-jobs.js';

/**
 * The opaque cursors of the jobs list (`nextCursor`, `?cursor=`) and of the updates stream (`cursor`, `?after=`):
 * base64url of a tagged position, so a client cannot mistake one for the other or build one by hand and expect it to
 * keep working. Ids are the service's lowercase UUIDs.
 */
const LIST = /^l1:(\d{1,16}):([0-9a-f-]{36})$/;
const CHANGES = /^u1:(\d{1,16}):([0-9a-f-]{36})?$/;

const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

function invalid(what: string): AppError {
  return new AppError({ kind: 'user', code: ErrorCode.RequestInvalidCursor, status: 400, message: `${what} is not a cursor this service handed out; start again without it`, details: { field: what } });
}

function decode(cursor: string, pattern: RegExp, field: string): RegExpExecArray {
  const match = /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? pattern.exec(Buffer.from(cursor, 'base64url').toString('utf8')) : null;
  if (!match || !Number.isSafeInteger(Number(match[1]))) throw invalid(field);
  return match;
}

export function encodeListCursor({ createdAt, id }: ListPosition): string {
  return encode(`l1:${createdAt.getTime()}:${id}`);
}

/** The list position of a `?cursor=`; a malformed one is the API's 400 `request.invalid_cursor`. */
export function decodeListCursor(cursor: string): ListPosition {
  const match = decode(cursor, LIST, 'cursor');
  return { createdAt: new Date(Number(match[1])), id: match[2]! };
}

export function encodeChangeCursor({ at, id }: ChangePosition): string {
  return encode(`u1:${at}:${id ?? ''}`);
}

/** The stream position of an `?after=`; a malformed one is the API's 400 `request.invalid_cursor`. */
export function decodeChangeCursor(cursor: string): ChangePosition {
  const match = decode(cursor, CHANGES, 'after');
  return { at: Number(match[1]), id: match[2] ?? null };
}
