import express, { Router } from 'express';
import { z } from 'zod';
import { OWNER_NAME } from '../config.js';
import type { ConnectedRepository } from '../store/entities/connected-repository.entity.js';
import type { RepositoryService } from '../repos/repository-service.js';
import { principalOf } from './auth.js';
import { commitSha, hostnameList, httpsUrl, httpUrl } from './fields.js';
import { parse } from './error-mapper.js';

const SEMANTIC_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const ENV_NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;

/** The connect body (spec 2.3); unknown fields rejected. */
const connectBody = z.strictObject({
  provider: z.literal('codehost', { error: 'must be "codehost"' }),
  providerInstallationId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or -'),
  owner: z.string().regex(OWNER_NAME, 'must be a code-host owner name'),
  name: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,100}$/, 'must be a repository name')
    .refine((name) => name !== '.' && name !== '..', 'must be a repository name'),
  defaultBranch: z
    .string()
    .min(1)
    .max(255)
    .refine((branch) => !/[\s~^:?*[\\]/.test(branch) && [...branch].every((char) => char.charCodeAt(0) >= 0x20), 'must be a branch name'),
  cloneUrl: httpsUrl,
  baseUrl: httpUrl,
  networkAllowlist: hostnameList,
  testValueSecretRefs: z
    .record(z.string().regex(SEMANTIC_NAME, 'must be a test-value name'), z.string().regex(ENV_NAME, 'must be an environment variable name'))
    .default({}),
  evidenceProbeRefs: z
    .record(
      z.string().regex(SEMANTIC_NAME, 'must be a success-criterion key'),
      z.strictObject({ urlValueRef: z.string().min(1), tokenValueRef: z.string().min(1) }),
    )
    .default({}),
  revision: commitSha.optional(),
});

function repositoryBody(repository: ConnectedRepository): Record<string, unknown> {
  const { id, organizationId: _organizationId, organization: _organization, ...fields } = repository;
  return { repositoryId: id, ...fields };
}

/** `POST /api/repositories` (202, onboarding queued), `GET /api/repositories`, `GET /api/repositories/:id`. */
export function createRepositoriesRouter(repositories: RepositoryService): Router {
  const router = Router();
  router.use(express.json({ limit: '256kb' }));

  router.post('/', async (req, res) => {
    const connected = await repositories.connect(principalOf(res), parse(connectBody, req.body));
    res.status(202).json({
      organizationId: connected.organizationId,
      repositoryId: connected.repositoryId,
      ingestionRunId: connected.ingestionRunId,
      workflowRunId: connected.workflowId,
    });
  });

  router.get('/', async (_req, res) => {
    res.json({ repositories: (await repositories.list(principalOf(res))).map(repositoryBody) });
  });

  router.get('/:id', async (req, res) => {
    const { repository, ingestionRuns } = await repositories.get(principalOf(res), req.params.id);
    res.json({
      repository: repositoryBody(repository),
      ingestionRuns: ingestionRuns.map((run) => ({
        ingestionRunId: run.id,
        status: run.status,
        revision: run.revision,
        workflowRunId: run.workflowId,
        createdAt: run.createdAt,
      })),
    });
  });

  return router;
}
