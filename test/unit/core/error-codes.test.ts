import { describe, expect, it } from '@jest/globals';
import { ERROR_CATALOGUE, ErrorCode, isErrorCode, NOT_FOUND_RESOURCES } from '../../../src/core/error-codes.js';
import { notFoundError, toAppError } from '../../../src/core/errors.js';
import { pausedError } from '../../../src/core/execution.js';

const entries = Object.values(ERROR_CATALOGUE);
const entryOf = (code: string) => entries.find((entry) => entry.code === code);

describe('the error catalogue', () => {
  it('lists each code once, namespaced, with a meaning', () => {
    const codes = entries.map((entry) => entry.code);
    const repeated = codes.filter((code, i) => codes.indexOf(code) !== i);
    expect(repeated).toEqual([]);
    for (const entry of entries) {
      expect(entry.code).toMatch(/^[a-z_]+\.[a-z_]+$/);
      expect(entry.meaning.length).toBeGreaterThan(10);
    }
  });

  it('names each code by the constant call sites use', () => {
    expect(Object.values(ErrorCode).sort()).toEqual(entries.map((entry) => entry.code).sort());
    expect(ErrorCode.JobNotFound).toBe('job.not_found');
    expect(isErrorCode('execution.paused')).toBe(true);
    expect(isErrorCode('job.invalid')).toBe(false);
  });

  // The spec (section 7) gives statuses, not codes; these are the codes that answer them, and docs/api.md names planner.failed.
  it.each([
    ['request.invalid', 400, 'user'],
    ['auth.unauthorized', 401, 'user'],
    ['job.not_found', 404, 'user'],
    ['execution.paused', 503, 'operational'],
    ['planner.failed', 502, 'operational'],
  ])('holds %s, the code for the documented %i', (code, status, kind) => {
    expect(entryOf(code)).toMatchObject({ status, kind });
  });

  it('holds the not-found code of every resource, and notFoundError answers 404 with it', () => {
    for (const resource of NOT_FOUND_RESOURCES) {
      const error = notFoundError(resource);
      expect(error).toMatchObject({ code: `${resource}.not_found`, kind: 'user', status: 404 });
      expect(entryOf(error.code)).toMatchObject({ kind: 'user', status: 404 });
    }
  });

  it('gives the kind and status that the errors built in core carry', () => {
    for (const error of [pausedError('live'), toAppError(new Error('boom')), notFoundError('job')]) {
      expect(entryOf(error.code)).toMatchObject({ kind: error.kind, status: error.status });
    }
  });
});
