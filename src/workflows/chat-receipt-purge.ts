import { z } from 'zod';
import { purgeSettledChatReceipts } from '../jobs/chat/chat-inbox.js';
import { defineQueueJob, type QueueJobDefinition } from '../queue/index.js';
import type { DataSource } from 'typeorm';

/** The periodic purge of settled chat receipts (`chat_event_receipts`, one row per delivery the bot took). */
export const CHAT_RECEIPT_PURGE_JOB = 'chat-receipt-purge';

export const chatReceiptPurgePayload = z.object({});

const HOUR_MS = 3_600_000;

export interface ChatReceiptPurgeSettings {
  /** Settled receipts older than this are deleted (CHAT_RECEIPT_RETENTION_HOURS). */
  retentionHours: number;
  /** How often the purge runs (default hourly). */
  everyMs?: number;
  /** Rows per DELETE (default 500) and DELETEs per run (default 1000): a run ends even on a huge backlog. */
  batchSize?: number;
  maxBatches?: number;
  /** The clock (tests move it). */
  now?: () => Date;
}

/**
 * Every hour, deletes the receipts settled more than the retention ago, in bounded batches; unsettled ones stay
 * (purgeSettledChatReceipts). One row for the whole deployment (Agenda's `single` job), so workers do not purge
 * side by side; what a run leaves (more than `batchSize * maxBatches`) the next one takes.
 */
export function chatReceiptPurgeJob(dataSource: DataSource, settings: ChatReceiptPurgeSettings): QueueJobDefinition<typeof chatReceiptPurgePayload> {
  const now = settings.now ?? (() => new Date());
  return defineQueueJob({
    name: CHAT_RECEIPT_PURGE_JOB,
    payload: chatReceiptPurgePayload,
    repeatEveryMs: settings.everyMs ?? HOUR_MS,
    concurrency: 1,
    async handle(_payload, context) {
      const settledBefore = new Date(now().getTime() - settings.retentionHours * HOUR_MS);
      const result = await purgeSettledChatReceipts(dataSource, {
        settledBefore,
        batchSize: settings.batchSize ?? 500,
        maxBatches: settings.maxBatches ?? 1_000,
        signal: context.signal,
      });
      if (result.deleted > 0 || result.more) context.logger.info({ ...result, settledBefore }, 'settled chat receipts purged');
    },
  });
}
