import { describe, expect, it } from '@jest/globals';
import { createBody, answersBody } from '../../../src/api/requests/jobs.js';
import { validationError } from '../../../src/api/error-mapper.js';
import { SET_A } from '../../../src/core/naming.js';
import { ApiError } from '../../../web/src/api/client.js';
import { errorFor, fieldErrorsOf, otherFieldErrors } from '../../../web/src/api/field-errors.js';

/** The ApiError the dashboard's client makes of the API's 400 for `body` under `schema` (the real mapper's details). */
function apiErrorFor(schema: { safeParse: (value: unknown) => { success: boolean; error?: unknown } }, body: unknown): ApiError {
  const result = schema.safeParse(body);
  if (result.success) throw new Error('expected the body to be refused');
  const appError = validationError(result.error as Parameters<typeof validationError>[0]);
  return new ApiError(400, appError.code, appError.message, appError.details);
}

describe('fieldErrorsOf', () => {
  it('puts each refused answer next to its own field', () => {
    const error = apiErrorFor(answersBody, { answers: ['yes', '  '] });
    expect(fieldErrorsOf(error)).toEqual({ 'answers.1': 'an answer may not be empty' });
  });

  it('names every refused field of a create, each once', () => {
    const error = apiErrorFor(createBody(SET_A), { projectId: 'p1', naturalLanguageTask: 'Open the page', baseUrl: 'ftp://x', networkAllowlist: ['bad host!'], trigger: 'web' });
    const errors = fieldErrorsOf(error);
    expect(Object.keys(errors).sort()).toEqual(['baseUrl', 'networkAllowlist.0']);
    expect(errors.baseUrl).toMatch(/http/);
  });

  it("gives a use case's 400 without issues whole to the field it names", () => {
    const error = new ApiError(400, 'clarification.answer_count', 'Expected 2 answer(s), one per question in order; got 1', { field: 'answers', expected: 2, received: 1 });
    expect(fieldErrorsOf(error)).toEqual({ answers: 'Expected 2 answer(s), one per question in order; got 1' });
  });

  it('names no field for other errors', () => {
    expect(fieldErrorsOf(new ApiError(409, 'job.not_awaiting_answers', 'Job is queued'))).toEqual({});
    expect(fieldErrorsOf(new ApiError(0, 'network.unreachable', 'The service cannot be reached'))).toEqual({});
    expect(fieldErrorsOf('boom')).toEqual({});
  });
});

describe('otherFieldErrors', () => {
  it('lists the fields a form does not show, so no message is lost', () => {
    expect(otherFieldErrors({ baseUrl: 'must be an http(s) URL', channelContext: 'must be a JSON object' }, (field) => field === 'baseUrl')).toEqual([
      'channelContext: must be a JSON object',
    ]);
  });
});

describe('fieldErrorsOf an unknown id in the body', () => {
  it('names the field of the 404', () => {
    const error = new ApiError(404, 'repository.not_found', 'No repository with that id in this organization', { field: 'repositoryId' });
    expect(fieldErrorsOf(error)).toEqual({ repositoryId: 'No repository with that id in this organization' });
  });
});

/** A 400 as src/api/error-mapper.ts writes it. */
const refused = (issues: unknown) => new ApiError(400, 'request.invalid', 'Invalid request', { issues });

describe('field errors of a refused connect form', () => {
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

  it('reads nothing from issues that are not field errors', () => {
    expect(fieldErrorsOf(new Error('boom'))).toEqual({});
    expect(fieldErrorsOf(refused('nonsense'))).toEqual({});
    expect(fieldErrorsOf(refused([null, { field: 3, message: 'x' }]))).toEqual({});
  });
});
