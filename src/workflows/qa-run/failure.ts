import { AppError } from '../../core/errors.js';
import type { QueueRunContext } from '../../queue/index.js';
import { isRunOver, JobNoLongerRunnable, RunFencedOut, type RunRecorder } from '../run-recorder.js';

/**
 * A fenced-out attempt (a newer one owns the run) and a job that was cancelled or ended under the run stop here:
 * the commit that found out wrote nothing, nothing more is written, and the queue does not retry the attempt.
 */
export function stoppedQuietly(error: unknown, context: Pick<QueueRunContext, 'logger'>): boolean {
  if (error instanceof RunFencedOut) {
    context.logger.info({ token: error.token, current: error.current }, 'a newer attempt owns this run; stopped without writing');
    return true;
  }
  if (error instanceof JobNoLongerRunnable) {
    context.logger.info({ status: error.status }, 'job was cancelled or ended while it ran; stopped');
    return true;
  }
  return false;
}

/**
 * A failed attempt: said in the history (`run.retrying`); a final one also ends the job as errored with the
 * reason. An attempt that never took its fencing token (the database failed first) owns nothing to write to.
 */
export async function recordFailure(recorder: RunRecorder | undefined, error: unknown, final: boolean, context: QueueRunContext): Promise<void> {
  const reason = error instanceof AppError ? error.message : 'an unexpected error stopped the run';
  context.logger.warn({ err: error, final }, 'qa run attempt failed');
  if (!final && context.signal.aborted) return;
  try {
    if (!recorder) throw new Error('the attempt took no fencing token');
    await recorder.commit(async (writes) => {
      if (final) {
        await writes.setStatus('errored', { finishedAt: new Date() });
        await writes.event('job.errored', { reason, attempt: context.attempt });
      } else {
        await writes.event('run.retrying', { reason, attempt: context.attempt });
      }
    });
  } catch (recordError) {
    if (isRunOver(recordError)) throw recordError;
    // The database may be what failed; the queue's retry still stands, and the next attempt writes its own events.
    context.logger.error({ err: recordError }, 'could not record the failed attempt');
    if (final) throw recordError;
  }
}
