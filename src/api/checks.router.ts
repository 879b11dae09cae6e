import { Router } from 'express';
import type { NamingSet } from '../core/naming.js';
import type { CheckService } from '../jobs/check-service.js';
import type { Check } from '../store/entities/check.entity.js';
import type { CheckVersion } from '../store/entities/check-version.entity.js';
import { notFoundError } from '../core/errors.js';
import { principalOf } from './auth.js';
import { parse } from './error-mapper.js';
import { guardPathIds, isCanonicalId, undecodablePathAsNotFound } from './ids.js';
import { iso, responseOf } from './respond.js';
import { checkSchemas } from './schemas/checks.js';
import { listQuery, sourceQuery, VERSION_PATH } from './requests/checks.js';


export function checkBody(names: NamingSet, check: Check): Record<string, unknown> {
  return {
    [names.checkId]: check.id,
    [names.repositoryId]: check.repositoryId,
    status: check.status,
    version: check.version,
    naturalLanguageTask: check.task,
    createdAt: iso(check.createdAt),
  };
}

function versionBody(names: NamingSet, version: CheckVersion): Record<string, unknown> {
  return {
    version: version.version,
    state: version.state,
    basedOn: version.basedOn,
    acceptedBy: version.acceptedBy,
    acceptedAt: version.acceptedAt === null ? null : iso(version.acceptedAt),
    [names.id]: version.jobId,
    steps: version.compiled.steps,
    successCriteria: version.compiled.successCriteria,
    createdAt: iso(version.createdAt),
  };
}


/**
 * `/api/checks` (Set A, testId) and `/api/scenarios` (Set B, scenarioId): compiled checks, their versions, the jobs
 * that produced and replayed them, the generated Playwright source (`…/:id/source`, text/plain), and accepting a
 * version a healing replay proposed (`POST …/:id/versions/:version/accept`).
 */
export function createChecksRouter(names: NamingSet, checks: CheckService): Router {
  const answerSchemas = checkSchemas[names.set];
  const router = Router();
  guardPathIds(router, { id: 'check' });

  router.get('/', async (req, res) => {
    const query = parse(listQuery, req.query);
    const repositoryId = query.repositoryId ?? query.projectId;
    // An id in another form names no repository of this organization: nothing to list (and nothing to query).
    const list = repositoryId !== undefined && !isCanonicalId(repositoryId) ? [] : await checks.list(principalOf(res), { repositoryId, limit: query.limit });
    res.json(responseOf(answerSchemas.list, { checks: list.map((check) => checkBody(names, check)) }));
  });

  router.get('/:id/source', async (req, res) => {
    const { version } = parse(sourceQuery, req.query);
    const found = await checks.source(principalOf(res), req.params.id, version);
    res.status(200);
    res.setHeader('content-type', 'text/plain; charset=utf-8');
    res.setHeader('content-disposition', `inline; filename="check-${found.checkId}-v${found.version}.spec.ts"`);
    res.setHeader('x-content-type-options', 'nosniff');
    res.send(found.source);
  });

  router.post('/:id/versions/:version/accept', async (req, res) => {
    if (!VERSION_PATH.test(req.params.version)) throw notFoundError('check_version');
    const accepted = await checks.accept(principalOf(res), req.params.id, Number(req.params.version));
    res.status(200).json(responseOf(answerSchemas.accepted, { check: checkBody(names, accepted.check), version: versionBody(names, accepted.version) }));
  });

  router.get('/:id', async (req, res) => {
    const { check, versions, jobs } = await checks.get(principalOf(res), req.params.id);
    const producedBy = new Set(versions.map((version) => version.jobId));
    res.json(responseOf(answerSchemas.detail, {
      check: checkBody(names, check),
      versions: versions.map((version) => versionBody(names, version)),
      [names.collection]: jobs.map((job) => ({
        [names.id]: job.id,
        status: job.status,
        trigger: job.trigger,
        role: producedBy.has(job.id) ? 'produced' : job.plan === null ? 'replayed' : 'attempted',
        createdAt: iso(job.createdAt),
      })),
    }));
  });

  router.use(undecodablePathAsNotFound('check'));
  return router;
}
