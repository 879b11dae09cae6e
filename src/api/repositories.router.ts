import { Router } from 'express';
import { z } from 'zod';
import { OWNER_NAME } from '../config.js';
import { pullRequestSettingsChangeSchema, pullRequestSettingsOf, pullRequestSettingsSchema, sharedFilePatterns } from '../core/pull-request-settings.js';
import { allowedSideEffectsSchema } from '../core/plan.js';
import { columnLength } from '../store/column-limits.js';
import { ConnectedRepository } from '../store/entities/connected-repository.entity.js';
import type { IngestionReads } from '../repos/ingestion-reads.js';
import type { RepositoryService } from '../repos/repository-service.js';
import { coverageBody, ingestionStateBody } from './ingestion-bodies.js';
import { coverageSchema } from './schemas/ingestions.js';
import { principalOf } from './auth.js';
import { commitSha, hostnameList, httpsUrl, httpUrl } from './fields.js';
import { parse } from './error-mapper.js';
import { jsonBody } from './json-body.js';
import { guardPathIds, undecodablePathAsNotFound } from './ids.js';
import { iso, responseOf } from './respond.js';
import { repositoryConnectedSchema, repositoryDetailSchema, repositoryListSchema, repositoryUpdatedSchema, type RepositoryBody } from './schemas/repositories.js';

const SEMANTIC_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const ENV_NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;
/** Entries of testValueSecretRefs and evidenceProbeRefs: a JSON column each, bounded like any other input. */
const MAX_REFS = 100;
const maxLength = (property: keyof ConnectedRepository) => columnLength(ConnectedRepository, property);
const semanticName = (message: string) => z.string().max(64).regex(SEMANTIC_NAME, message);

/** The connect body (spec 2.3); unknown fields rejected. */
export const connectBody = z.strictObject({
  provider: z.literal('codehost', { error: 'must be "codehost"' }),
  providerInstallationId: z
    .string()
    .max(maxLength('providerInstallationId'))
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or -'),
  owner: z.string().max(maxLength('owner')).regex(OWNER_NAME, 'must be a code-host owner name'),
  name: z
    .string()
    .max(maxLength('name'))
    .regex(/^[A-Za-z0-9._-]{1,100}$/, 'must be a repository name')
    .refine((name) => name !== '.' && name !== '..', 'must be a repository name'),
  defaultBranch: z
    .string()
    .min(1)
    .max(maxLength('defaultBranch'))
    .refine((branch) => !/[\s~^:?*[\\]/.test(branch) && [...branch].every((char) => char.charCodeAt(0) >= 0x20), 'must be a branch name'),
  cloneUrl: httpsUrl(maxLength('cloneUrl')),
  baseUrl: httpUrl(maxLength('baseUrl')),
  networkAllowlist: hostnameList,
  testValueSecretRefs: z
    .record(semanticName('must be a test-value name'), z.string().max(128).regex(ENV_NAME, 'must be an environment variable name'))
    .refine((refs) => Object.keys(refs).length <= MAX_REFS, `may have at most ${MAX_REFS} entries`)
    .default({}),
  evidenceProbeRefs: z
    .record(
      semanticName('must be a success-criterion key'),
      z.strictObject({ urlValueRef: semanticName('must be a test-value name'), tokenValueRef: semanticName('must be a test-value name') }),
    )
    .refine((refs) => Object.keys(refs).length <= MAX_REFS, `may have at most ${MAX_REFS} entries`)
    .default({}),
  revision: commitSha.max(maxLength('revision')).optional(),
  /** How pull requests run (src/core/pull-request-settings.ts); absent: the defaults. */
  pullRequests: pullRequestSettingsSchema.optional(),
  /** Side-effect classes onboarding's catalog builds may carry out (`create`, `pay`…); absent: none. */
  allowedSideEffects: allowedSideEffectsSchema,
});

/** `PATCH /api/repositories/:id`: the settings given replace the stored ones; unknown fields rejected. */
export const updateBody = z.strictObject({ pullRequests: pullRequestSettingsChangeSchema });

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
