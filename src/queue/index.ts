export { createQueue, LIGHT_JOB_SLOTS, type Queue, type QueueSettings } from './create-queue.js';
export { createWorker, type Worker } from './worker.js';
export { defineQueueJob, type QueueRunAgain, type QueueRunContext, type QueueJobDefinition } from './job-definition.js';
export { enqueue, stageNow, type JobKind, type StagedQueueJob } from './enqueue.js';
export { createNotificationChannel } from './notifications.js';
export { InProcessNotificationChannel } from './mysql-backend/index.js';
export type { NotificationChannel } from 'agenda';
export { readQueueDepth, type QueueDepth } from './queue-depth.js';
export { DEFAULT_RETRY_POLICY, retryStrategy, failureKind, type RetryPolicy } from './retry-policy.js';
