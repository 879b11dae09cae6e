import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { createFileArtifactStorage } from '../../../src/artifacts/file-storage.js';
import { chatThreadKey, type ChatChannelContext } from '../../../src/core/channel-context.js';
import type { JobEventType } from '../../../src/core/job-lifecycle.js';
import { appendJobEvent } from '../../../src/jobs/job-events.js';
import { createJobService, type CreateJobInput, type RunStarter } from '../../../src/jobs/job-service.js';
import type { NotificationStarter } from '../../../src/jobs/notification-outbox.js';
import { createRulePlanner } from '../../../src/planner/rule-planner.js';
import { InProcessNotificationChannel, createQueue, type Queue } from '../../../src/queue/index.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { createWriteBatch, type WriteBatch } from '../../../src/store/write-batch.js';
import { notifyDeliveryStarter } from '../../../src/workflows/notify-starter.js';
import { qaRunStarter } from '../../../src/workflows/run-starter.js';

/** A chat job's channelContext (chat-design.md), in thread `threadTs`. */
export function chatContext(threadTs = '1700000000.000100', teamId = 'T0ACME'): ChatChannelContext {
  return { channel: 'chat', provider: 'slack', teamId, channelId: 'C0QA', threadTs, userId: 'U0ADA' };
}

export const threadKey = (context: ChatChannelContext) => chatThreadKey(context);

export const RUNNABLE_TASK = 'Check that the pricing page lists three plans';
/** The rule planner asks one yes/no side-effect question for it. */
export const REVIEW_TASK = 'Delete the demo account';

export function chatInput(repositoryId: string, context: ChatChannelContext | Record<string, unknown> | undefined, task = RUNNABLE_TASK): CreateJobInput {
  return { repositoryId, naturalLanguageTask: task, baseUrl: 'https://shop.example', networkAllowlist: [], trigger: 'chat', ...(context ? { channelContext: context } : {}) };
}

/** The job service as compose builds it, on a queue nobody works (the queue jobs stay where they were written). */
export function jobServiceOn(dataSource: DataSource, starters: { queue?: Queue; runs?: RunStarter; notifications?: NotificationStarter } = {}) {
  const queue = starters.queue ?? createQueue(dataSource, { pollIntervalMs: 50, lockLifetimeMs: 2_000, concurrency: 2 }, new InProcessNotificationChannel());
  const writes: WriteBatch = createWriteBatch(dataSource);
  const jobs = createJobService({
    dataSource,
    planner: createRulePlanner(),
    runs: starters.runs ?? qaRunStarter(queue),
    notifications: starters.notifications ?? notifyDeliveryStarter(queue),
    artifacts: createFileArtifactStorage(mkdtempSync(join(tmpdir(), 'qa-notify-artifacts-'))),
    writes,
  });
  return { jobs, queue, close: () => writes.close() };
}

/** What a run writes, without a browser: an event, and the job's status when the event names one. */
export async function advance(dataSource: DataSource, jobId: string, type: JobEventType, data: Record<string, unknown> = {}): Promise<void> {
  await dataSource.transaction(async (manager) => {
    await appendJobEvent(manager, jobId, type, data);
    const now = new Date();
    if (type === 'job.started') await manager.update(Job, { id: jobId }, { status: 'running', startedAt: now });
    if (type === 'job.passed' || type === 'job.failed' || type === 'job.errored' || type === 'job.cancelled') {
      await manager.update(Job, { id: jobId }, { status: type.slice('job.'.length), finishedAt: now });
    }
  });
}
