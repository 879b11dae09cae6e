import type { DataSource } from 'typeorm';
import { ErrorCode, notFoundError as notFound, userError } from '../core/errors.js';
import { actorName, type Principal } from '../core/principal.js';
import { Check } from '../store/entities/check.entity.js';
import { checkSourceKey, type CreatedJob, type CreateJobInput, type JobRecords } from './job-records.js';
import { notificationTarget } from './notification-outbox.js';

export interface CreateJobDeps {
  dataSource: DataSource;
  records: JobRecords;
}

/** The create use case: a replay of a stored check, or a natural-language task interpreted first. */
export function createJobUseCase({ dataSource, records }: CreateJobDeps) {
  return {
    /** Creates a job: a replay of a stored check, or a natural-language task interpreted first. */
    async create(principal: Principal, request: CreateJobInput): Promise<CreatedJob> {
      const { organizationId } = principal;
      const input: CreateJobInput = { ...request, startedBy: actorName(principal) };
      checkSourceKey(input.sourceKey);
      // A request made again gets the job it made, whatever has changed since (a pause, the check, the planner).
      const earlier = await records.createdBefore(organizationId, input.sourceKey);
      if (earlier) return earlier;
      // A context its channel cannot deliver to is refused before the planner spends anything on the task.
      notificationTarget(input.channelContext);
      // A replay needs the browser only; a natural-language task needs the planner too.
      const context = await records.admit(organizationId, input.repositoryId, input.checkId !== undefined ? ['live'] : ['live', 'ai']);
      if (input.checkId !== undefined) {
        const check = await dataSource.getRepository(Check).findOneBy({ id: input.checkId, organizationId });
        if (!check) throw notFound('check', 'checkId');
        if (check.repositoryId !== input.repositoryId) {
          throw userError(ErrorCode.CheckOtherRepository, 'That check belongs to another repository', { details: { field: 'checkId' } });
        }
        return records.record(organizationId, input, undefined, null);
      }
      return records.record(organizationId, input, await records.interpret(organizationId, input, null, context), null);
    },
  };
}
