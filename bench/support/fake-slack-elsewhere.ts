import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TokenIdentity } from '../../test/fakes/slack-api.js';
import type { FakeSlackAnswer, FakeSlackRequest } from './fake-slack-process.js';

export interface RemoteFakeSlack {
  /** The API base for CHAT_API_URL. */
  url: string;
  /** Calls of one Web API method so far, and how many were answered `ok`. */
  calls(method: string): Promise<{ calls: number; ok: number }>;
  stop(): Promise<void>;
}

/** Starts the fake Slack Web API in a child process (fake-slack-process.ts) with one bot token registered. */
export async function startFakeSlackElsewhere(token: string, identity: TokenIdentity): Promise<RemoteFakeSlack> {
  const child = fork(fileURLToPath(new URL('./fake-slack-process.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T extends FakeSlackAnswer['type']>(type: T, request: FakeSlackRequest) =>
    new Promise<Extract<FakeSlackAnswer, { type: T }>>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`fake Slack process exited with ${code}`));
      child.once('exit', onExit);
      const onMessage = (answer: FakeSlackAnswer) => {
        if (answer.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(answer as Extract<FakeSlackAnswer, { type: T }>);
      };
      child.on('message', onMessage);
      child.send(request);
    });
  const { url } = await next('started', { type: 'start', token, identity });
  return {
    url,
    async calls(method) {
      const { calls, ok } = await next('count', { type: 'count', method });
      return { calls, ok };
    },
    async stop() {
      await next('stopped', { type: 'stop' });
    },
  };
}
