import { In, IsNull, type DataSource, type EntityManager } from 'typeorm';
import { z } from 'zod';
import { notifiedContextOf, threadKeyOf, type NotifiedChannel, type NotifiedContext } from '../core/channel-context.js';
import { ErrorCode, userError } from '../core/errors.js';
import { JobEvent } from '../store/entities/job-event.entity.js';
import { JobNotification } from '../store/entities/job-notification.entity.js';
import { Job } from '../store/entities/job.entity.js';
import { insertRows, type StagedWorkflow, type Statement } from '../store/write-batch.js';

/**
 * Starts a notified job's progress delivery: its queue job (`notify-delivery`) is committed in the transaction that
 * writes the job and its outbox row, so a job never reports nowhere and a delivery never looks for a missing job.
 */
export interface NotificationStarter {
  stage(jobId: string): Promise<StagedWorkflow>;
}

/** What a new job adds to its transaction for its notifications: nothing, or its outbox row and delivery job. */
export interface StagedNotification {
  statements: Statement[];
  announce(): Promise<void>;
}

/**
 * The notified context of a job being created, or null for a job that reports nowhere. A context that names a
 * notified channel but does not fit it is the caller's mistake (400), found before anything is written.
 */
export function notificationTarget(channelContext: Record<string, unknown> | undefined): NotifiedContext | null {
  try {
    return notifiedContextOf(channelContext);
  } catch (error) {
    if (!(error instanceof z.ZodError)) throw error;
    throw userError(ErrorCode.JobChannelContextInvalid, `channelContext does not fit its channel: ${z.prettifyError(error).replaceAll('\n', '; ')}`, {
      details: { field: 'channelContext', issues: error.issues.map((issue) => issue.path.join('.')) },
    });
  }
}

/** The outbox row of a new job and its staged delivery, for the job's own transaction. */
export async function stageNotification(
  dataSource: DataSource,
  starter: NotificationStarter,
  job: { id: string; organizationId: string },
  context: NotifiedContext,
): Promise<StagedNotification> {
  const delivery = await starter.stage(job.id);
  const row: Partial<JobNotification> = {
    jobId: job.id,
    organizationId: job.organizationId,
    channel: context.channel,
    threadKey: threadKeyOf(context),
    context,
    updatedAt: new Date(),
  };
  return { statements: [insertRows(dataSource, JobNotification, [row]), delivery.statement], announce: () => delivery.announce() };
}

/**
 * A finished job whose message must change once more: a review_required job answered (its message drops the buttons
 * and points to the child) or cancelled. In the caller's transaction, reopens the outbox row and stages a new
 * delivery; returns what wakes workers after the commit. Nothing for a job that reports nowhere, or whose delivery
 * has not delivered its final state yet (that delivery still runs, and shows the change itself).
 */
export async function reopenNotification(manager: EntityManager, starter: NotificationStarter, jobId: string): Promise<(() => Promise<void>) | undefined> {
  const reopened = await manager.update(JobNotification, { jobId, finalDelivered: true }, { finalDelivered: false, updatedAt: new Date() });
  if (!reopened.affected) return undefined;
  const delivery = await starter.stage(jobId);
  await manager.query(delivery.statement.sql, delivery.statement.params);
  return () => delivery.announce();
}

/** A job of a thread, as the bot needs it to tell which job a reply is about. */
export interface ThreadJob {
  id: string;
  organizationId: string;
  status: string;
  resolution: { questions: string[] } | null;
  parentJobId: string | null;
  createdAt: Date;
}

/** The delivery state of one job's notifications. */
export interface NotificationState {
  jobId: string;
  organizationId: string;
  channel: NotifiedChannel;
  context: NotifiedContext;
  messageHandle: string | null;
  deliveredSeq: number;
  finalDelivered: boolean;
  postingSince: Date | null;
  attempts: number;
  lastError: string | null;
  lastDeliveredAt: Date | null;
}

/** A delivery the channel took: what its message now shows. */
export interface DeliveryRecord {
  handle: string;
  deliveredSeq: number;
  final: boolean;
  at: Date;
}

/** `last_error` holds at most this much (a channel's error text is not ours to bound). */
const ERROR_MAX = 1_000;

/**
 * The outbox's use cases for the delivery (src/notify) and the bot. Every write is one UPDATE of the job's row;
 * the delivery of a job runs in one queue job at a time, so no write races another of the same job.
 */
export function createNotificationOutbox(dataSource: DataSource) {
  const rows = () => dataSource.getRepository(JobNotification);
  const update = (jobId: string, values: Partial<JobNotification>) => rows().update({ jobId }, { ...values, updatedAt: new Date() });

  return {
    /** The jobs of a conversation (see `chatThreadKey`), newest first: the bot answers about the latest. */
    async inThread(threadKey: string): Promise<ThreadJob[]> {
      // Newest by the job's first event, kept to the millisecond on every dialect (SQLite keeps created_at to the
      // second, and a child job is often created within the second of its parent).
      const ordered = (await dataSource
        .createQueryBuilder()
        .select('n.job_id', 'jobId')
        .from(JobNotification, 'n')
        .innerJoin(JobEvent, 'e', 'e.job_id = n.job_id AND e.seq = 0')
        .where('n.thread_key = :threadKey', { threadKey })
        .orderBy('e.at', 'DESC')
        .addOrderBy('n.job_id', 'DESC')
        .getRawMany()) as { jobId: string }[];
      if (ordered.length === 0) return [];
      const found = await dataSource.getRepository(Job).find({
        select: { id: true, organizationId: true, status: true, resolution: true, parentJobId: true, createdAt: true },
        where: { id: In(ordered.map((row) => row.jobId)) },
      });
      const byId = new Map(found.map((job) => [job.id, job]));
      const jobs = ordered.flatMap(({ jobId }) => byId.get(jobId) ?? []);
      return jobs.map((job) => ({
        id: job.id,
        organizationId: job.organizationId,
        status: job.status,
        resolution: job.resolution ? { questions: job.resolution.questions } : null,
        parentJobId: job.parentJobId,
        createdAt: job.createdAt,
      }));
    },

    /** The job's delivery state; null when the job reports nowhere (or was deleted). */
    async state(jobId: string): Promise<NotificationState | null> {
      const row = await rows().findOneBy({ jobId });
      if (!row) return null;
      return {
        jobId: row.jobId,
        organizationId: row.organizationId,
        channel: row.channel as NotifiedChannel,
        context: row.context as NotifiedContext,
        messageHandle: row.messageHandle,
        deliveredSeq: row.deliveredSeq,
        finalDelivered: row.finalDelivered,
        postingSince: row.postingSince,
        attempts: row.attempts,
        lastError: row.lastError,
        lastDeliveredAt: row.lastDeliveredAt,
      };
    },

    /**
     * Committed before a first post: a delivery that finds it set (its worker died after posting, before recording)
     * looks for that message instead of posting a second one.
     */
    async markPosting(jobId: string, at: Date): Promise<void> {
      await update(jobId, { postingSince: at });
    },

    /** The channel took the message: it shows events up to `deliveredSeq`; failures are forgotten. */
    async recordDelivery(jobId: string, delivery: DeliveryRecord): Promise<void> {
      await update(jobId, {
        messageHandle: delivery.handle,
        deliveredSeq: delivery.deliveredSeq,
        finalDelivered: delivery.final,
        lastDeliveredAt: delivery.at,
        postingSince: null,
        attempts: 0,
        lastError: null,
      });
    },

    /** A message found after a crash (see `markPosting`): kept so that the next delivery edits it. */
    async recordRecovered(jobId: string, handle: string): Promise<void> {
      await rows().update({ jobId, messageHandle: IsNull() }, { messageHandle: handle, postingSince: null, updatedAt: new Date() });
    },

    /** A delivery that failed: one more attempt, and why. */
    async recordFailure(jobId: string, error: string): Promise<void> {
      await rows()
        .createQueryBuilder()
        .update()
        .set({ attempts: () => 'attempts + 1', lastError: error.slice(0, ERROR_MAX), updatedAt: new Date() })
        .where('job_id = :jobId', { jobId })
        .execute();
    },
  };
}

export type NotificationOutbox = ReturnType<typeof createNotificationOutbox>;
