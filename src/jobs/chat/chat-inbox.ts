import type { DataSource } from 'typeorm';
import { ErrorCode, operationalError } from '../../core/errors.js';
import { storableJson, wellFormedText } from '../../core/storable-json.js';
import { isDuplicateKey } from '../../store/duplicate-key.js';
import { ChatEventReceipt } from '../../store/entities/chat-event-receipt.entity.js';
import { insertRows, type StagedWorkflow, type WriteBatch } from '../../store/write-batch.js';

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

/**
 * The source key (`jobs.source_key`) of a job a delivery starts or answers: the `chat-event` job may run again after
 * a crash between creating the job and settling the delivery, and the rerun then finds that job instead of making a
 * second one.
 */
export function chatJobKey(eventId: string): string {
  return `chat:${eventId}`;
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
  const opening = async (eventId: string): Promise<string | null> => {
    const receipt = await receipts().findOne({ select: { eventId: true, openingTs: true }, where: { eventId } });
    return receipt?.openingTs ?? null;
  };
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

    /** The message the delivery's handling opened a thread with (a slash command's job), if it posted one. */
    opening,

    /**
     * Notes that a run is about to post the delivery's opening message. True when an earlier run had already begun
     * (and died before recording what it posted): that message may exist, so look for it before posting another.
     */
    async startOpening(eventId: string): Promise<boolean> {
      const result = await receipts()
        .createQueryBuilder()
        .update()
        .set({ openingStartedAt: new Date() })
        .where('event_id = :eventId AND opening_started_at IS NULL', { eventId })
        .execute();
      return result.affected === 0;
    },

    /**
     * Records the opening message, before the job that hangs from it is created, so a rerun reuses it. The first
     * recorded wins (two runs that raced both posted); the one to use is returned.
     */
    async recordOpening(eventId: string, ts: string): Promise<string> {
      await receipts()
        .createQueryBuilder()
        .update()
        .set({ openingTs: ts })
        .where('event_id = :eventId AND opening_ts IS NULL', { eventId })
        .execute();
      const stored = await opening(eventId);
      if (stored === null) {
        throw operationalError(ErrorCode.ChatDeliveryGone, `chat delivery ${eventId.slice(0, 40)} is not stored; its opening cannot be recorded`);
      }
      return stored;
    },
  };
}

export type ChatInbox = ReturnType<typeof createChatInbox>;

export interface ReceiptPurge {
  /** Receipts settled before this time are deleted (the caller's clock minus the retention). */
  settledBefore: Date;
  /** Rows per DELETE: each batch is its own short statement, so the inbox's inserts never wait long behind one. */
  batchSize: number;
  /** Batches per call at most: a huge backlog is worked off over several runs instead of one long one. */
  maxBatches: number;
  /** Stops between batches once aborted (a worker shutting down). */
  signal?: AbortSignal;
}

export interface ReceiptPurgeResult {
  deleted: number;
  batches: number;
  /** Whether it stopped at `maxBatches` (or the signal) with settled receipts older than the cut-off still left. */
  more: boolean;
}

/**
 * Deletes settled receipts older than the cut-off, oldest first, in bounded batches. A receipt is what turns Slack's
 * retry of a delivery into a no-op, so the retention must outlast Slack's retries (config keeps it at an hour or
 * more). An unsettled receipt is never deleted, however old: its `chat-event` job may still need it, and a delivery
 * that was never handled should stay visible.
 */
export async function purgeSettledChatReceipts(dataSource: DataSource, purge: ReceiptPurge): Promise<ReceiptPurgeResult> {
  const repository = dataSource.getRepository(ChatEventReceipt);
  // The cut-off as TypeORM writes `settled_at` on this dialect (a UTC Date for mysql2, UTC text on SQLite).
  const settledAt = repository.metadata.findColumnWithPropertyName('settledAt')!;
  const cutoff: unknown = dataSource.driver.preparePersistentValue(purge.settledBefore, settledAt);
  const settledBeforeCutoff = 'settled_at IS NOT NULL AND settled_at < :cutoff';
  let deleted = 0;
  let batches = 0;
  while (batches < purge.maxBatches) {
    if (purge.signal?.aborted) return { deleted, batches, more: true };
    // Ids first, then a DELETE by key: portable (SQLite has no DELETE … LIMIT) and it locks only the rows it removes.
    const rows = await repository
      .createQueryBuilder()
      .select('event_id', 'eventId')
      .where(settledBeforeCutoff, { cutoff })
      .orderBy('settled_at', 'ASC')
      .limit(purge.batchSize)
      .getRawMany<{ eventId: string }>();
    if (rows.length === 0) return { deleted, batches, more: false };
    const result = await repository
      .createQueryBuilder()
      .delete()
      .where('event_id IN (:...ids)', { ids: rows.map((row) => row.eventId) })
      // Again, so the DELETE alone guarantees that no unsettled or recent receipt goes.
      .andWhere(settledBeforeCutoff, { cutoff })
      .execute();
    deleted += result.affected ?? 0;
    batches++;
    if (rows.length < purge.batchSize) return { deleted, batches, more: false };
  }
  return { deleted, batches, more: true };
}
