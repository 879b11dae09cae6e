import { describe, expect, it } from '@jest/globals';
import { jobSchemas } from '../../../src/api/schemas/jobs.js';
import { createdJobOf } from '../../../web/src/api/created-job.js';

describe('createdJobOf', () => {
  it('reads a runnable job as one to open', () => {
    const answer = jobSchemas.A.created.parse({ jobId: 'j1', workflowIdentity: 'w1', testId: 't1', parentJobId: 'j0' });
    expect(createdJobOf(answer)).toEqual({ kind: 'runnable', jobId: 'j1' });
  });

  it('reads a review_required answer with its questions', () => {
    const resolution = { kind: 'needs_clarification' as const, questions: ['Which account?'], ambiguities: ['"the account"'], assumptions: [] };
    const answer = jobSchemas.A.created.parse({ jobId: 'j2', status: 'review_required', resolution });
    expect(createdJobOf(answer)).toEqual({ kind: 'review_required', jobId: 'j2', resolution });
  });
});
