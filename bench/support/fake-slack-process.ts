/**
 * The fake Slack Web API (test/fakes/slack-api.ts) in a process of its own, as Slack is to the service: the bot's
 * replies then cost the measured process only what a real Web API call costs it. Started by `startFakeSlackElsewhere`
 * (fake-slack-elsewhere.ts): it registers the bot token it is given, says its URL, answers call counts, and exits on
 * `stop`.
 */
import { startFakeSlack, type TokenIdentity } from '../../test/fakes/slack-api.js';

export type FakeSlackRequest = { type: 'start'; token: string; identity: TokenIdentity } | { type: 'count'; method: string } | { type: 'stop' };
export type FakeSlackAnswer = { type: 'started'; url: string } | { type: 'count'; method: string; calls: number; ok: number } | { type: 'stopped' };

if (!process.send) {
  console.error('fake-slack-process.ts is started by bench/support/fake-slack-elsewhere.ts (needs an IPC channel)');
  process.exit(2);
}

const send = (answer: FakeSlackAnswer, then: () => void = () => undefined) => process.send!(answer, then);
const slack = await startFakeSlack();

process.on('message', (request: FakeSlackRequest) => {
  switch (request.type) {
    case 'start':
      slack.addToken(request.token, request.identity);
      send({ type: 'started', url: slack.url });
      return;
    case 'count': {
      const calls = slack.callsOf(request.method);
      send({ type: 'count', method: request.method, calls: calls.length, ok: calls.filter((call) => call.outcome === 'ok').length });
      return;
    }
    case 'stop':
      void slack.stop().then(() => send({ type: 'stopped' }, () => process.exit(0)));
      return;
  }
});
