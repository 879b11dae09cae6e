import { Router } from 'express';
import { pullRequestSettingsOf, sharedFilePatterns } from '../core/pull-request-settings.js';
import type { ConnectedRepository } from '../store/entities/connected-repository.entity.js';
import { connectBody, updateBody } from './requests/repositories.js';
import type { IngestionReads } from '../repos/ingestion-reads.js';
import type { RepositoryService } from '../repos/repository-service.js';
import { coverageBody, ingestionStateBody } from './ingestion-bodies.js';
import { coverageSchema } from './schemas/ingestions.js';
import { principalOf } from './auth.js';
import { parse } from './error-mapper.js';
import { jsonBody } from './json-body.js';
import { guardPathIds, undecodablePathAsNotFound } from './ids.js';
import { iso, responseOf } from './respond.js';
import { repositoryConnectedSchema, repositoryDetailSchema, repositoryListSchema, repositoryUpdatedSchema, type RepositoryBody } from './schemas/repositories.js';

function repositoryBody(repository: ConnectedRepository): RepositoryBody {
  const pullRequests = pullRequestSettingsOf(repository.pullRequestSettings);
  return {
    repositoryId: repository.id,
    provider: repository.provider,
    providerInstallationId: repository.providerInstallationId,
    owner: repository.owner,
    name: repository.name,
    defaultBranch: repository.defaultBranch,
    cloneUrl: repository.cloneUrl,
    baseUrl: repository.baseUrl,
    networkAllowlist: repository.networkAllowlist,
    testValueSecretRefs: repository.testValueSecretRefs,
    evidenceProbeRefs: repository.evidenceProbeRefs,
    revision: repository.revision,
    pullRequests: { ...pullRequests, sharedFiles: [...sharedFilePatterns(pullRequests)] },
    allowedSideEffects: repository.allowedSideEffects ?? [],
    createdAt: iso(repository.createdAt),
  };
}

/**
 * `POST /api/repositories` (202, onboarding queued), `GET /api/repositories`, `GET /api/repositories/:id`,
 * `PATCH /api/repositories/:id` (pull-request settings).
 */
export function createRepositoriesRouter(repositories: RepositoryService, ingestions: IngestionReads): Router {
  const router = Router();
  router.use(jsonBody('256kb'));
  guardPathIds(router, { id: 'repository' });

  router.post('/', async (req, res) => {
    const { pullRequests, ...input } = parse(connectBody, req.body);
    const connected = await repositories.connect(principalOf(res), { ...input, ...(pullRequests ? { pullRequestSettings: pullRequests } : {}) });
    res.status(202).json(
      responseOf(repositoryConnectedSchema, {
        organizationId: connected.organizationId,
        repositoryId: connected.repositoryId,
        ingestionRunId: connected.ingestionRunId,
        workflowRunId: connected.workflowId,
      }),
    );
  });

  router.get('/', async (_req, res) => {
    res.json(responseOf(repositoryListSchema, { repositories: (await repositories.list(principalOf(res))).map(repositoryBody) }));
  });

  router.get('/:id', async (req, res) => {
    const { repository, ingestionRuns } = await repositories.get(principalOf(res), req.params.id);
    const latest = await ingestions.latest(repository.id);
    res.json(responseOf(repositoryDetailSchema, {
      repository: repositoryBody(repository),
      latestIngestion: latest === null ? null : ingestionStateBody(latest),
      ingestionRuns: ingestionRuns.map((run) => ({
        ingestionRunId: run.id,
        status: run.status,
        revision: run.revision,
        workflowRunId: run.workflowId,
        createdAt: iso(run.createdAt),
      })),
    }));
  });

  /** The repository's flows with their edge cases, which checks cover each, and the share covered. */
  router.get('/:id/coverage', async (req, res) => {
    res.json(responseOf(coverageSchema, coverageBody(req.params.id, await ingestions.coverage(principalOf(res), req.params.id))));
  });

  router.patch('/:id', async (req, res) => {
    const { pullRequests } = parse(updateBody, req.body);
    const repository = await repositories.updatePullRequestSettings(principalOf(res), req.params.id, pullRequests);
    res.json(responseOf(repositoryUpdatedSchema, { repository: repositoryBody(repository) }));
  });

  router.use(undecodablePathAsNotFound('repository'));
  return router;
}
