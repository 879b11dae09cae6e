import type { DataSource } from 'typeorm';
import { storableJson, wellFormedText } from '../core/storable-json.js';
import { isDuplicateKey } from '../store/duplicate-key.js';
import { ChatEventReceipt } from '../store/entities/chat-event-receipt.entity.js';
import { insertRows, type StagedWorkflow, type WriteBatch } from '../store/write-batch.js';

/** What a chat listener received: Slack's payload under a key that is the same for every delivery of it. */
export interface ChatDelivery {
  eventId: string;
  teamId: string;
  kind: 'app_mention' | 'thread_reply' | 'slash_command' | 'answer_button';
  payload: Record<string, unknown>;
}

export interface StoredChatDelivery extends ChatDelivery {
  settledAt: Date | null;
  reply: Record<string, unknown> | null;
  repliedAt: Date | null;
}

/** Queues the handling of a stored delivery (the `chat-event` queue job) in the transaction that stores it. */
export interface ChatEventStarter {
  stage(eventId: string): Promise<StagedWorkflow>;
}

/** Key lengths the receipt table takes (Slack's event ids are ~12 characters; derived keys about 60). */
const MAX_EVENT_ID = 160;
const MAX_TEAM_ID = 32;

/**
 * The bot's inbox: every delivery is stored once, under its key, together with the queue job that handles it (one
 * commit). A key already stored (Slack's retry of an event it thinks we missed, the same event delivered twice, a
 * second process racing the first) stores nothing and queues nothing: `duplicate`.
 */
export function createChatInbox({ dataSource, writes, starter }: { dataSource: DataSource; writes: WriteBatch; starter: ChatEventStarter }) {
  const receipts = () => dataSource.getRepository(ChatEventReceipt);
  return {
    async accept(received: ChatDelivery): Promise<'accepted' | 'duplicate'> {
      // A lone surrogate (a valid JSON escape, but no valid Unicode) or blocks nested deeper than MariaDB's JSON takes
      // would make the database refuse the row after Slack was told the delivery arrived: those parts are replaced,
      // and the rest of the delivery (its text, who, where) is kept.
      const delivery = { ...received, eventId: wellFormedText(received.eventId), teamId: wellFormedText(received.teamId), payload: storableJson(received.payload) };
      if (delivery.eventId.length === 0 || delivery.eventId.length > MAX_EVENT_ID || delivery.teamId.length > MAX_TEAM_ID) {
        throw new RangeError(`chat delivery key out of bounds: ${delivery.eventId.slice(0, 40)}`);
      }
      const staged = await starter.stage(delivery.eventId);
      const row = { eventId: delivery.eventId, teamId: delivery.teamId, kind: delivery.kind, payload: delivery.payload, receivedAt: new Date() };
      try {
        await writes.commit([insertRows(dataSource, ChatEventReceipt, [row]), staged.statement]);
      } catch (error) {
        if (isDuplicateKey(error)) return 'duplicate';
        throw error;
      }
      await staged.announce();
      return 'accepted';
    },

    async load(eventId: string): Promise<StoredChatDelivery | null> {
      const receipt = await receipts().findOneBy({ eventId });
      if (!receipt) return null;
      const { teamId, kind, payload, settledAt, reply, repliedAt } = receipt;
      return { eventId, teamId, kind: kind as ChatDelivery['kind'], payload, settledAt, reply, repliedAt };
    },

    /** Records that the delivery's effect is done and what to say about it; a second settle changes nothing. */
    async settle(eventId: string, reply: Record<string, unknown> | null): Promise<void> {
      await receipts()
        .createQueryBuilder()
        .update()
        .set({ settledAt: new Date(), reply: reply as never })
        .where('event_id = :eventId AND settled_at IS NULL', { eventId })
        .execute();
    },

    async markReplied(eventId: string): Promise<void> {
      await receipts().update({ eventId }, { repliedAt: new Date() });
    },
  };
}

export type ChatInbox = ReturnType<typeof createChatInbox>;
