import { describe, expect, it } from '@jest/globals';
import { awaitingAnswers, latestFailed, type ConversationJob } from '../../../src/core/conversation-jobs.js';

const job = (id: string, status: string, fields: Partial<ConversationJob> = {}): ConversationJob => ({ id, status, resolution: null, parentJobId: null, ...fields });
const asking = (id: string) => job(id, 'review_required', { resolution: { questions: ['Really delete it?'] } });

describe('awaitingAnswers: the newest job still waiting for answers', () => {
  it('is the newest review_required job with questions', () => {
    expect(awaitingAnswers([asking('b'), asking('a')])?.id).toBe('b');
  });

  it('skips a job whose questions were answered (its child is newer), and one with no questions', () => {
    expect(awaitingAnswers([job('child', 'running', { parentJobId: 'a' }), asking('a')])).toBeUndefined();
    expect(awaitingAnswers([job('x', 'review_required')])).toBeUndefined();
  });

  it('keeps an older job’s questions open when a newer job asks nothing', () => {
    expect(awaitingAnswers([job('b', 'running'), asking('a')])?.id).toBe('a');
  });

  it('is none in a conversation without jobs', () => {
    expect(awaitingAnswers([])).toBeUndefined();
  });
});

describe('latestFailed', () => {
  it('is the newest failed job', () => {
    expect(latestFailed([job('c', 'passed'), job('b', 'failed'), job('a', 'failed')])?.id).toBe('b');
    expect(latestFailed([job('c', 'passed')])).toBeUndefined();
  });
});
