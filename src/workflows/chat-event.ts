import { defineQueueJob, type QueueJobDefinition, type RetryPolicy } from '../queue/index.js';
import { CHAT_EVENT_JOB, chatEventPayload } from './chat-event-starter.js';

/** A chat delivery whose reply Slack refused for now is tried again for about an hour, then given up (and logged). */
export const CHAT_EVENT_RETRY: RetryPolicy = { baseDelayMs: 1_000, factor: 2, maxDelayMs: 5 * 60_000, maxRetries: 12, jitter: 0.2 };

/** Answers one stored chat delivery (bot/conversation/handle-event.ts, given by the composition root). */
export type ChatEventHandler = (eventId: string) => Promise<void>;

/** The `chat-event` queue job: the conversation's answer to one stored delivery, retried while Slack refuses it. */
export function chatEventJob(handle: ChatEventHandler): QueueJobDefinition<typeof chatEventPayload> {
  return defineQueueJob({
    name: CHAT_EVENT_JOB,
    payload: chatEventPayload,
    retry: CHAT_EVENT_RETRY,
    // A reply never waits behind browser runs.
    light: true,
    handle: ({ eventId }) => handle(eventId),
  });
}
