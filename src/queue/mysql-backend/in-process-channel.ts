import { InMemoryNotificationChannel, type JobNotification } from 'agenda';

/**
 * Agenda's in-memory channel, delivering on the next turn of the event loop. Agenda's own in-memory channel
 * runs the subscribers inside `publish`, so `job.save()` would not return until a worker in the same process
 * had claimed and started the job; a channel over a network (Postgres NOTIFY, Redis) returns first, and so
 * does this one.
 */
export class InProcessNotificationChannel extends InMemoryNotificationChannel {
  override async publish(notification: JobNotification): Promise<void> {
    setImmediate(() => {
      super.publish(notification).catch((error: unknown) => {
        // An EventEmitter throws an 'error' nobody listens to; here that would be an uncaught exception.
        if (this.listenerCount('error') > 0) this.emit('error', error);
      });
    });
  }
}
