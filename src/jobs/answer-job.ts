import type { DataSource } from 'typeorm';
import { AppError, ErrorCode, notFoundError as notFound, userError } from '../core/errors.js';
import { taskWithAnswers } from '../core/interpretation.js';
import type { JobTrigger } from '../core/job.js';
import { actorName, type Principal } from '../core/principal.js';
import { JobEvent } from '../store/entities/job-event.entity.js';
import { Job } from '../store/entities/job.entity.js';
import { appendJobEvent } from './job-events.js';
import { checkSourceKey, type CreatedJob, type CreateJobInput, type JobRecords } from './job-records.js';
import { reopenNotification, type NotificationStarter } from './notification-outbox.js';

export interface AnswerJobDeps {
  dataSource: DataSource;
  records: JobRecords;
  /** Wakes the parent's progress message, which then shows the answer (none: the job reports nowhere). */
  notifications?: NotificationStarter;
}

/** The answer use case: a review_required job's questions answered, as a linked child job. */
export function answerJobUseCase({ dataSource, records, notifications }: AnswerJobDeps) {
  /**
   * The parent's `job.answered` event for its child, once: a rerun that found the child already made adds it only if
   * the first run stopped before writing it.
   */
  async function noteAnswered(parentId: string, childId: string): Promise<void> {
    const wake = await dataSource.transaction(async (manager) => {
      const answered = await manager.find(JobEvent, { where: { jobId: parentId, type: 'job.answered' } });
      if (answered.some((event) => (event.data as { childJobId?: unknown }).childJobId === childId)) return undefined;
      await appendJobEvent(manager, parentId, 'job.answered', { childJobId: childId });
      // The parent's message shows the answer (and loses its buttons) once more.
      return notifications ? reopenNotification(manager, notifications, parentId) : undefined;
    });
    await wake?.();
  }

  return {
    /**
     * Answers a review_required job: the job stays as it is, and a linked child job carries the task with the
     * questions and answers. The child is runnable, or itself review_required if the answers do not settle it.
     */
    async answer(principal: Principal, jobId: string, answers: string[], options: { sourceKey?: string } = {}): Promise<CreatedJob> {
      const { organizationId } = principal;
      checkSourceKey(options.sourceKey);
      // The same answers given again (a rerun of the chat reply) get the child they made; the parent may look
      // different by now (the child is the thread's newest job), so this comes before any check of it.
      const earlier = await records.createdBefore(organizationId, options.sourceKey);
      if (earlier) {
        if (earlier.parentJobId !== null) await noteAnswered(earlier.parentJobId, earlier.jobId);
        return earlier;
      }
      const parent = await dataSource.getRepository(Job).findOneBy({ id: jobId, organizationId });
      if (!parent) throw notFound('job');
      if (parent.status !== 'review_required' || !parent.resolution || parent.task === null) {
        throw new AppError({
          kind: 'user',
          code: ErrorCode.JobNotAwaitingAnswers,
          status: 409,
          message: `Job is ${parent.status}; only a review_required job takes answers`,
        });
      }
      const { questions } = parent.resolution;
      if (answers.length !== questions.length) {
        throw userError(ErrorCode.ClarificationAnswerCount, `Expected ${questions.length} answer(s), one per question in order; got ${answers.length}`, {
          details: { field: 'answers', expected: questions.length, received: answers.length },
        });
      }
      const context = await records.admit(organizationId, parent.repositoryId, ['live', 'ai']);
      const task = taskWithAnswers(parent.task, { questions, answers: answers.map((answer) => answer.trim()) });
      const input: CreateJobInput = {
        repositoryId: parent.repositoryId,
        naturalLanguageTask: task,
        commitSha: parent.commitSha ?? undefined,
        baseUrl: parent.baseUrl,
        networkAllowlist: parent.networkAllowlist,
        trigger: parent.trigger as JobTrigger,
        channelContext: (parent.channelContext as Record<string, unknown> | null) ?? undefined,
        ...(options.sourceKey === undefined ? {} : { sourceKey: options.sourceKey }),
        startedBy: actorName(principal),
      };
      const child = await records.record(organizationId, input, await records.interpret(organizationId, input, parent.id, context), parent.id);
      await noteAnswered(parent.id, child.jobId);
      return child;
    },
  };
}
