import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../../web/src/api/client.js';
import { errorFor, fieldErrorsOf } from '../../../web/src/api/field-errors.js';

/** A 400 as src/api/error-mapper.ts writes it. */
const refused = (issues: unknown) => new ApiError(400, 'request.invalid', 'Invalid request', { field: 'x', issues });

describe('field errors of a refused write', () => {
  it("reads the API's issues by field, the first message per field", () => {
    const errors = fieldErrorsOf(refused([
      { field: 'cloneUrl', message: 'must be an https URL' },
      { field: 'cloneUrl', message: 'second' },
      { field: 'networkAllowlist.1', message: 'must be a host' },
    ]));
    expect(errors).toEqual({ cloneUrl: 'must be an https URL', 'networkAllowlist.1': 'must be a host' });
  });

  it("names a list's entry and a map's key in the message of the field that holds them", () => {
    const errors = { 'networkAllowlist.1': 'must be a host', 'testValueSecretRefs.email': 'must be an environment variable name', owner: 'bad' };
    expect(errorFor(errors, 'networkAllowlist')).toBe('entry 2: must be a host');
    expect(errorFor(errors, 'testValueSecretRefs')).toBe('email: must be an environment variable name');
    expect(errorFor(errors, 'owner')).toBe('bad');
    expect(errorFor(errors, 'name')).toBeUndefined();
  });

  it('reads nothing from an error that is not a field error', () => {
    expect(fieldErrorsOf(new Error('boom'))).toEqual({});
    expect(fieldErrorsOf(new ApiError(409, 'x', 'y'))).toEqual({});
    expect(fieldErrorsOf(refused('nonsense'))).toEqual({});
    expect(fieldErrorsOf(refused([null, { field: 3, message: 'x' }]))).toEqual({});
  });
});
