import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AppError, ErrorCode, notFoundError, operationalError } from '../core/errors.js';
import { dialectOf } from '../store/data-source.js';
import { IngestionRun } from '../store/entities/ingestion-run.entity.js';
import type { OnboardingStarter } from './repository-service.js';

export interface StartedIngestion {
  ingestionRunId: string;
  workflowId: string;
}

/**
 * Starts a (re-)index of a repository at `revision` (a full commit SHA; null: the default branch's head), as when a
 * pull request merges into the default branch. The run and its queue job commit together. One ingestion of a
 * repository at a time: the repository's row is locked while the open ones are counted, so two starts at once make
 * one run and one `ingestion.in_progress` (409).
 */
export function createIngestionStarter({ dataSource, onboarding }: { dataSource: DataSource; onboarding: OnboardingStarter }) {
  return async function startIngestion(organizationId: string, repositoryId: string, revision: string | null): Promise<StartedIngestion> {
    const ingestionRunId = randomUUID();
    let staged;
    try {
      staged = await onboarding.stage(ingestionRunId);
    } catch (error) {
      throw operationalError(ErrorCode.RepositoryOnboardingStartFailed, "The repository's onboarding could not be started, so nothing was recorded; try again", { cause: error });
    }
    await dataSource.transaction(async (manager) => {
      const forUpdate = dialectOf(dataSource) === 'mysql' ? ' FOR UPDATE' : '';
      const found = (await manager.query(`SELECT id FROM repositories WHERE id = ? AND organization_id = ?${forUpdate}`, [repositoryId, organizationId])) as unknown[];
      if (found.length === 0) throw notFoundError('repository');
      const open = await manager
        .getRepository(IngestionRun)
        .createQueryBuilder('run')
        .where('run.repository_id = :repositoryId AND run.status NOT IN (:...over)', { repositoryId, over: ['succeeded', 'failed'] })
        .getOne();
      if (open) {
        throw new AppError({ kind: 'user', code: ErrorCode.IngestionInProgress, status: 409, message: `Ingestion ${open.id} of this repository is not over yet; follow it, then start another`, details: { ingestionRunId: open.id } });
      }
      await manager.insert(IngestionRun, { id: ingestionRunId, organizationId, repositoryId, status: 'queued', revision, workflowId: staged.workflowId });
      await manager.query(staged.statement.sql, staged.statement.params);
    });
    await staged.announce();
    return { ingestionRunId, workflowId: staged.workflowId };
  };
}

export type StartIngestion = ReturnType<typeof createIngestionStarter>;
