import type { Telemetry } from '../core/telemetry.js';
import type { ChatClient } from './openai-client.js';

/** The client, with each request counted by what it came to (answer, invalid, failed) and the tokens it reported. */
export function countedCalls(client: ChatClient, telemetry: Telemetry): ChatClient {
  return {
    async complete(body) {
      const result = await client.complete(body);
      const usage = result.kind === 'failed' ? undefined : result.usage;
      telemetry.plannerCall('openai', result.kind, { prompt: usage?.promptTokens ?? 0, completion: usage?.completionTokens ?? 0 });
      return result;
    },
  };
}
