import type { NotificationChannel } from 'agenda';
import { InProcessNotificationChannel } from './mysql-backend/index.js';

/**
 * How workers learn that a job was saved. Without Redis: in-process only (producer and worker in one process,
 * as `qa start` runs them); workers in other processes find new jobs by polling every `QUEUE_POLL_INTERVAL_MS`.
 * With `REDIS_URL`: Agenda's Redis channel, so every process hears every save at once. Its client (ioredis) is
 * loaded only then: it costs a process about 0.25 s of CPU to load.
 */
export async function createNotificationChannel(redisUrl: string | undefined): Promise<NotificationChannel> {
  if (!redisUrl) return new InProcessNotificationChannel();
  const { RedisNotificationChannel } = await import('@agendajs/redis-backend');
  return new RedisNotificationChannel({ connectionString: redisUrl, channelName: 'qa:agenda:jobs' });
}
