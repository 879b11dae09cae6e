import { describe, expect, it } from '@jest/globals';
import { envelopeProblem } from '../../../bot/receiver/envelope.js';
import { FAKE_WORKSPACE } from '../../fakes/slack-api.js';
import { appMention, blockActionsPayload, eventCallback, slashCommandPayload, urlVerification } from '../../support/slack-requests.js';

const { teamId, channelId, userId } = FAKE_WORKSPACE;
const mention = eventCallback(appMention({ user: userId, text: 'hi', channel: channelId, teamId }), { teamId });
const command = slashCommandPayload({ teamId, channelId, userId, text: 'help' });
const click = blockActionsPayload({ teamId, channelId, userId, messageTs: '1.2', actions: [{ actionId: 'a', value: 'v' }] });

describe('envelopeProblem', () => {
  it('takes what Slack sends: events, slash commands, button clicks, the URL check, the SSL check and kinds the bot ignores', () => {
    expect(envelopeProblem(mention)).toBeNull();
    expect(envelopeProblem(command)).toBeNull();
    expect(envelopeProblem(click)).toBeNull();
    // An org-wide install's click carries the team on the user only.
    expect(envelopeProblem({ ...click, team: null })).toBeNull();
    expect(envelopeProblem(urlVerification('c'))).toBeNull();
    expect(envelopeProblem({ ssl_check: '1', token: 'x' })).toBeNull();
    expect(envelopeProblem({ type: 'view_submission', view: {} })).toBeNull();
  });

  it('names what is missing from a body the bot could not file', () => {
    expect(envelopeProblem({})).toBe('it has neither a `type` nor a `command`');
    expect(envelopeProblem({ foo: 'bar' })).toBe('it has neither a `type` nor a `command`');
    expect(envelopeProblem({ ...mention, event_id: undefined })).toBe('`event_id` is missing or of the wrong type');
    expect(envelopeProblem({ ...mention, event: 'app_mention' })).toBe('`event` is missing or of the wrong type');
    expect(envelopeProblem({ ...mention, event: {} })).toBe('`event.type` is missing or of the wrong type');
    expect(envelopeProblem({ ...command, trigger_id: undefined })).toBe('`trigger_id` is missing or of the wrong type');
    expect(envelopeProblem({ ...click, team: null, user: { id: userId } })).toBe('`team.id` or `user.team_id` is required');
  });
});
