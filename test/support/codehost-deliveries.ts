import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { sign } from '@octokit/webhooks-methods';
import type { WebhookDefinition } from '@octokit/webhooks-examples';

/** Real GitHub payloads, as the community recorded them (`@octokit/webhooks-examples`), for the code-host tests. */
const definitions = createRequire(import.meta.url)('@octokit/webhooks-examples') as WebhookDefinition[];

/** A recorded payload of `event` (with `action` when given), as GitHub sent it. */
export function examplePayload(event: string, action?: string): Record<string, unknown> {
  const definition = definitions.find((candidate) => candidate.name === event);
  const example = definition?.examples.find((candidate) => action === undefined || (candidate as { action?: string }).action === action);
  if (!example) throw new Error(`no recorded ${event}${action ? `.${action}` : ''} payload in @octokit/webhooks-examples`);
  return structuredClone(example) as unknown as Record<string, unknown>;
}

export interface SignedDelivery {
  headers: Record<string, string>;
  body: Buffer;
}

/** A delivery as the code host posts it: the body signed with `secret`, the renamed GitHub headers. */
export async function signedDelivery(secret: string, event: string, payload: unknown, deliveryId: string = randomUUID()): Promise<SignedDelivery> {
  const body = Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload));
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-codehost-event': event,
      'x-codehost-delivery': deliveryId,
      'x-codehost-signature-256': await sign(secret, body.toString('utf8')),
      'user-agent': 'GitHub-Hookshot/tests',
    },
  };
}
