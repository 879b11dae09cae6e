import { In, Like, type DataSource, type EntityManager } from 'typeorm';
import { AppError, ErrorCode, notFoundError as notFound } from '../core/errors.js';
import { CANCELLABLE } from '../core/job-lifecycle.js';
import type { Principal } from '../core/principal.js';
import { NO_TELEMETRY, type Telemetry } from '../core/telemetry.js';
import { Job } from '../store/entities/job.entity.js';
import { appendJobEvent } from './job-events.js';
import { checkSourceKey } from './job-records.js';
import { reopenNotification, type NotificationStarter } from './notification-outbox.js';

/**
 * Why the service cancelled a job (the `job.cancelled` event's data): a code (`pull_request_closed`, `superseded`)
 * and a sentence for the people following the job.
 */
export interface CancelReason {
  reason: string;
  message: string;
}

export interface CancelJobDeps {
  dataSource: DataSource;
  /** Wakes a cancelled job's progress message, which then says cancelled (none: the job reports nowhere). */
  notifications?: NotificationStarter;
  /** Counts the jobs cancelled (default: nothing). */
  telemetry?: Telemetry;
}

/** The cancel use case: by a caller, or by the service for its own reason (a pull request closed or pushed again). */
export function cancelJobUseCase({ dataSource, notifications, telemetry = NO_TELEMETRY }: CancelJobDeps) {
  /**
   * In `manager`'s transaction: the job cancelled if it had not finished, with its `job.cancelled` event (`data`), and
   * what to call after the commit (the wake-up of its notification's delivery, the count); false when it is not the
   * organization's or has finished.
   */
  async function cancelIn(manager: EntityManager, organizationId: string, jobId: string, data: Record<string, unknown>): Promise<(() => Promise<void>) | false> {
    const now = new Date();
    const result = await manager.update(Job, { id: jobId, organizationId, status: In([...CANCELLABLE]) }, { status: 'cancelled', finishedAt: now, updatedAt: now });
    if (result.affected === 0) return false;
    await appendJobEvent(manager, jobId, 'job.cancelled', data);
    const { trigger } = await manager.findOneOrFail(Job, { select: { id: true, trigger: true }, where: { id: jobId } });
    // A review_required job's message was final; it now says cancelled.
    const wake = notifications ? await reopenNotification(manager, notifications, jobId) : undefined;
    return async () => {
      telemetry.jobFinished(trigger, 'cancelled', organizationId);
      await wake?.();
    };
  }

  return {
    /**
     * Cancels a job that has not finished: a queued job never runs, a running one stops at its next step (the
     * worker watches for this), and one awaiting answers stops waiting. A finished job answers 409.
     */
    async cancel(principal: Principal, jobId: string): Promise<{ jobId: string; status: 'cancelled' }> {
      const { organizationId } = principal;
      const wake = await dataSource.transaction(async (manager) => {
        const cancelled = await cancelIn(manager, organizationId, jobId, {});
        if (cancelled === false) {
          const job = await manager.findOne(Job, { select: { id: true, status: true }, where: { id: jobId, organizationId } });
          if (!job) throw notFound('job');
          throw new AppError({ kind: 'user', code: ErrorCode.JobNotCancellable, status: 409, message: `Job is ${job.status}; only a queued, running or review_required job can be cancelled` });
        }
        return cancelled;
      });
      await wake();
      return { jobId, status: 'cancelled' };
    },

    /**
     * Cancels, for the service's own reason, the organization's unfinished jobs made under a source key that starts
     * with `prefix` (and that `keep` does not keep), as `cancel` does, each in its own transaction; the `job.cancelled`
     * event says why. Each such job gives up its source key, so the same request made again (a pull request reopened
     * at the same head) starts a new job instead of finding the cancelled one. Returns the ids cancelled; a job that
     * ended meanwhile is left as it ended.
     */
    async cancelMadeUnder(principal: Principal, prefix: string, why: CancelReason, keep: (sourceKey: string) => boolean = () => false): Promise<string[]> {
      checkSourceKey(prefix);
      const { organizationId } = principal;
      const candidates = await dataSource.getRepository(Job).find({
        select: { id: true, sourceKey: true },
        // LIKE narrows the read (the unique index starts with these columns); it is not exact on either dialect (`_`
        // matches any character, and case is ignored), so the keys are compared again below.
        where: { organizationId, sourceKey: Like(`${prefix}%`), status: In([...CANCELLABLE]) },
      });
      const cancelled: string[] = [];
      for (const job of candidates) {
        if (job.sourceKey === null || !job.sourceKey.startsWith(prefix) || keep(job.sourceKey)) continue;
        const wake = await dataSource.transaction(async (manager) => {
          const done = await cancelIn(manager, organizationId, job.id, { reason: why.reason, message: why.message });
          if (done !== false) await manager.update(Job, { id: job.id, organizationId }, { sourceKey: null, updatedAt: new Date() });
          return done;
        });
        if (wake === false) continue;
        cancelled.push(job.id);
        await wake();
      }
      return cancelled;
    },
  };
}
