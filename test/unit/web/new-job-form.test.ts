import { describe, expect, it } from '@jest/globals';
import { createBody } from '../../../src/api/requests/jobs.js';
import { SET_A } from '../../../src/core/naming.js';
import { createJobBody, formFieldOf, missingFields, parseAllowlist, type NewJobValues } from '../../../web/src/jobs/new-job-form.js';

const values = (patch: Partial<NewJobValues> = {}): NewJobValues => ({
  kind: 'task',
  task: '  Sign in and open Billing ',
  testId: '',
  projectId: '00000000-0000-4000-8000-0000000000aa',
  baseUrl: ' https://staging.example.com ',
  allowlist: 'cdn.example.com, api.example.com\n\ncdn.example.com  fonts.example.com:8443',
  commitSha: '',
  ...patch,
});

describe('parseAllowlist', () => {
  it('takes hosts separated by commas, spaces and new lines, each once', () => {
    expect(parseAllowlist(values().allowlist)).toEqual(['cdn.example.com', 'api.example.com', 'fonts.example.com:8443']);
    expect(parseAllowlist(' \n, ')).toEqual([]);
  });
});

describe('createJobBody', () => {
  it("sends a task with trigger web, in a shape the API's create schema takes", () => {
    const body = createJobBody(values());
    expect(body).toEqual({
      projectId: '00000000-0000-4000-8000-0000000000aa',
      naturalLanguageTask: 'Sign in and open Billing',
      baseUrl: 'https://staging.example.com',
      networkAllowlist: ['cdn.example.com', 'api.example.com', 'fonts.example.com:8443'],
      trigger: 'web',
    });
    expect(createBody(SET_A).safeParse(body).success).toBe(true);
  });

  it('sends a check to replay instead of the task, and the commit when given', () => {
    const body = createJobBody(values({ kind: 'check', testId: '00000000-0000-4000-8000-0000000000cc', commitSha: ' abc1234 ' }));
    expect(body).not.toHaveProperty('naturalLanguageTask');
    expect(body).toMatchObject({ testId: '00000000-0000-4000-8000-0000000000cc', commitSha: 'abc1234' });
    expect(createBody(SET_A).safeParse(body).success).toBe(true);
  });
});

describe('formFieldOf', () => {
  it('places each field the create schema can refuse', () => {
    const refused = createBody(SET_A).safeParse({ ...createJobBody(values({ commitSha: 'xyz' })), baseUrl: 'ftp://x', networkAllowlist: ['bad host'] });
    expect(refused.success).toBe(false);
    const fields = refused.error!.issues.map((issue) => formFieldOf(issue.path.join('.')));
    expect(fields.sort()).toEqual(['allowlist', 'baseUrl', 'commitSha']);
    expect(formFieldOf('repositoryId')).toBe('projectId');
    expect(formFieldOf('channelContext')).toBeUndefined();
  });
});

describe('missingFields', () => {
  it('asks for what the chosen kind needs', () => {
    expect(missingFields(values())).toEqual({});
    expect(missingFields(values({ task: ' ', projectId: '', baseUrl: '' }))).toEqual({ task: 'Say what to test', projectId: 'Choose a repository', baseUrl: 'Give the URL the job starts from' });
    expect(missingFields(values({ kind: 'check', task: '' }))).toEqual({ testId: 'Choose a check to replay' });
  });
});
