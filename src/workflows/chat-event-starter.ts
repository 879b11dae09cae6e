import { z } from 'zod';
import type { ChatEventStarter } from '../jobs/chat/chat-inbox.js';
import type { Queue } from '../queue/index.js';
import { stageWorkflow } from './stage-workflow.js';

/** The queue job that handles one stored chat delivery (bot/conversation/handle-event.ts). */
export const CHAT_EVENT_JOB = 'chat-event';

export const chatEventPayload = z.object({ eventId: z.string().min(1).max(160) });

/** Stages `chat-event` in the transaction that stores the delivery; workers are told after the commit. */
export function chatEventStarter(queue: Queue): ChatEventStarter {
  return {
    stage: async (eventId) => stageWorkflow(queue, { name: CHAT_EVENT_JOB, payload: chatEventPayload }, { eventId }),
  };
}
