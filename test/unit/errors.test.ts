import { describe, expect, it } from '@jest/globals';
import { AppError, ErrorCode, isAppError, operationalError, toAppError, userError } from '../../src/core/errors.js';

describe('AppError', () => {
  it('carries kind, code, status, details and cause', () => {
    const cause = new Error('socket closed');
    const error = new AppError({
      kind: 'operational',
      code: 'store.unreachable',
      message: 'Cannot reach MySQL',
      status: 503,
      details: { host: 'db' },
      cause,
    });

    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'AppError', kind: 'operational', code: 'store.unreachable', status: 503 });
    expect(error.details).toEqual({ host: 'db' });
    expect(error.cause).toBe(cause);
    expect(error.message).toBe('Cannot reach MySQL');
  });

  it('has factories with the usual HTTP status of each kind', () => {
    expect(userError('job.not_found', 'No such job', { status: 404 })).toMatchObject({ kind: 'user', status: 404 });
    expect(userError(ErrorCode.RequestInvalid, 'Bad job')).toMatchObject({ kind: 'user', code: 'request.invalid', status: 400 });
    expect(operationalError(ErrorCode.StoreUnreachable, 'Down')).toMatchObject({ kind: 'operational', status: 503 });
  });

  it('turns anything thrown into an AppError, keeping AppErrors as they are', () => {
    const known = userError(ErrorCode.RequestInvalid, 'Bad job');
    expect(toAppError(known)).toBe(known);
    expect(isAppError(known)).toBe(true);

    const wrapped = toAppError(new TypeError('x is undefined'));
    expect(wrapped).toMatchObject({ kind: 'unexpected', code: 'internal.unexpected', status: 500 });
    expect(wrapped.message).toBe('x is undefined');
    expect(toAppError('a string').message).toBe('a string');
  });
});
