/**
 * bench:chat's peer: a bare Bolt app on its own ExpressReceiver, nothing else (no database, no queue, no middleware of
 * ours), acking `app_mention` events with a listener that does nothing. Same Bolt version, same signing secret and
 * the same settings the service's receiver uses (acks before listeners run, no token looked up), so the ratio to it
 * is what the service adds: our signature middleware, the inbox write after the ack, and the work it queues.
 */
import type { AddressInfo } from 'node:net';
import { App, ExpressReceiver, LogLevel } from '@slack/bolt';

export const BARE_BOLT_PATH = '/slack/events';

export interface BareBolt {
  url: string;
  /** Mentions its listener saw. */
  mentions(): number;
  stop(): Promise<void>;
}

export async function startBareBolt(signingSecret: string, host: string): Promise<BareBolt> {
  const receiver = new ExpressReceiver({ signingSecret, endpoints: BARE_BOLT_PATH, processBeforeResponse: false, logLevel: LogLevel.ERROR });
  const app = new App({ receiver, authorize: async (source) => ({ teamId: source.teamId }), ignoreSelf: false, logLevel: LogLevel.ERROR });
  let mentions = 0;
  app.event('app_mention', async () => {
    mentions++;
  });
  const server = await receiver.start({ port: 0, host });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}${BARE_BOLT_PATH}`,
    mentions: () => mentions,
    stop: () => receiver.stop(),
  };
}
