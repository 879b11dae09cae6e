import { describe, expect, it } from '@jest/globals';
import * as replies from '../../../bot/blocks/replies.js';

const JOB_ID = '6f1c2a9e-0000-4000-8000-000000000001';
/** What a person reads in Slack: the section's mrkdwn, which must match the notification text. */
const shown = (content: replies.MessageContent) => (content.blocks?.[0] as { text: { text: string } }).text.text;

describe('the bot’s refusals', () => {
  it('says an unknown job plainly, in the same words whoever owns the id, pointing at where ids are shown', () => {
    const reply = replies.unknownJob(JOB_ID);
    expect(reply.text).toBe(`I can’t find job \`${JOB_ID}\`. Check the id: each job’s progress message shows it.`);
    expect(shown(reply)).toBe(reply.text);
  });

  it('says why a job cannot be cancelled, with its status', () => {
    expect(replies.notCancellable(JOB_ID, 'passed').text).toBe(
      `Job \`${JOB_ID}\` is already *passed*, so there is nothing to cancel; only a queued, running or waiting job can be.`,
    );
  });

  it('shows what was typed where a job id was expected, escaped for mrkdwn', () => {
    expect(replies.notAJobId('12345').text).toBe('`12345` is not a job id (ids look like `6f1c2a9e-…`).');
    expect(replies.notAJobId('<!channel>').text).toBe('`&lt;!channel&gt;` is not a job id (ids look like `6f1c2a9e-…`).');
  });

  it('tells how to connect an unknown repository before binding it', () => {
    expect(replies.unknownRepository('acme/nope').text).toBe(
      'I don’t know the repository *acme/nope* in this organization. Connect it first (`qa repos connect`), then bind it with `@qa use acme/nope`.',
    );
  });

  it('names an unknown or unreplayable check as it was asked for', () => {
    expect(replies.unknownCheck('the <moon>').text).toBe('No check matches “the &lt;moon&gt;”. `@qa checks` lists them.');
    expect(replies.checkNotReplayable('Check the cart').text).toBe('The check “Check the cart” has not passed yet, so there is nothing to replay.');
  });

  it('passes on a refusal of the job core as one sentence, escaped', () => {
    expect(replies.refused('Natural-language jobs are paused').text).toBe('Sorry, I couldn’t do that: Natural-language jobs are paused.');
    expect(replies.refused('Job is cancelled.').text).toBe('Sorry, I couldn’t do that: Job is cancelled.');
    expect(replies.refused('a <b> & c').text).toBe('Sorry, I couldn’t do that: a &lt;b&gt; &amp; c.');
  });
});
