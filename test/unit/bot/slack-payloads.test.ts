import { describe, expect, it } from '@jest/globals';
import { authorizations, buttonPress, messageEnvelope, slashCommand } from '../../../bot/conversation/slack-payloads.js';
import { appMention, blockActionsPayload, channelMessage, eventCallback, slashCommandPayload } from '../../support/slack-requests.js';

const teamId = 'T0ACME';

describe('the Slack payloads the conversation reads, checked with zod', () => {
  it('reads a mention and a thread reply as Slack sends them', () => {
    const mention = eventCallback(appMention({ user: 'U1', text: '<@U0BOT> help', channel: 'C1', teamId, ts: '1.000100' }), { teamId, botUserId: 'U0BOT' });
    expect(messageEnvelope.parse(mention).event).toMatchObject({ channel: 'C1', user: 'U1', ts: '1.000100', text: '<@U0BOT> help', team: teamId });
    expect(authorizations.parse(mention).authorizations?.[0]?.user_id).toBe('U0BOT');
    const reply = eventCallback(channelMessage({ user: 'U1', text: 'yes', channel: 'C1', teamId, ts: '2.000100', threadTs: '1.000100' }), { teamId });
    expect(messageEnvelope.parse(reply).event).toMatchObject({ thread_ts: '1.000100', text: 'yes' });
  });

  it('reads a slash command and a button press as Slack sends them', () => {
    expect(slashCommand.parse(slashCommandPayload({ teamId, channelId: 'C1', userId: 'U1', text: 'checks' }))).toMatchObject({ channel_id: 'C1', user_id: 'U1', team_id: teamId, text: 'checks' });
    const press = buttonPress.parse(blockActionsPayload({ teamId, channelId: 'C1', userId: 'U1', messageTs: '3.000100', threadTs: '1.000100', actions: [{ actionId: 'answer_yes', value: 'job-1' }] }));
    expect(press).toMatchObject({ user: { id: 'U1' }, actions: [{ action_id: 'answer_yes', value: 'job-1' }] });
    expect(press.container?.thread_ts ?? press.message?.thread_ts).toBe('1.000100');
  });

  it('refuses a payload without its channel, user or timestamp, and reads an optional field of another type as absent', () => {
    expect(messageEnvelope.safeParse({ event: { channel: 'C1', ts: '1.0' } }).success).toBe(false);
    expect(messageEnvelope.safeParse({}).success).toBe(false);
    expect(slashCommand.safeParse({ channel_id: 'C1' }).success).toBe(false);
    expect(buttonPress.safeParse({ user: {} }).success).toBe(false);
    expect(messageEnvelope.parse({ event: { channel: 'C1', user: 'U1', ts: '1.0', thread_ts: 7, user_team: null } }).event).toMatchObject({ thread_ts: undefined, user_team: undefined });
  });
});
