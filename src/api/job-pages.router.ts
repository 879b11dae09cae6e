import { pipeline } from 'node:stream/promises';
import { Router, type Request, type Response } from 'express';
import type { DataSource } from 'typeorm';
import { notFoundError } from '../core/errors.js';
import type { PersonPrincipal } from '../core/principal.js';
import type { JobService } from '../jobs/job-service.js';
import { Job } from '../store/entities/job.entity.js';
import { readRequestSession, setupRequired } from './auth.js';
import { guardPathIds, isCanonicalId, undecodablePathAsNotFound } from './ids.js';
import type { PeopleDeps } from './people.js';

export interface JobPagesDeps {
  dataSource: DataSource;
  jobs: JobService;
  people: PeopleDeps | undefined;
  /** Answers with the dashboard's page (web-app.router.ts). */
  sendPage: (res: Response, status?: number) => Promise<void>;
}

/**
 * The person's principal for the organization a job belongs to, when they have an active membership there (not
 * only in the organization in use: a link from a chat thread names a job, not an organization). Null: no such job
 * for them, answered 404 like an unknown id.
 */
async function principalForJob(dataSource: DataSource, jobId: string, organizations: Array<{ id: string; role: 'admin' | 'member' }>, userId: string): Promise<PersonPrincipal | null> {
  const job = await dataSource.getRepository(Job).findOne({ select: { organizationId: true }, where: { id: jobId } });
  const membership = job && organizations.find((organization) => organization.id === job.organizationId);
  return membership ? { kind: 'person', organizationId: membership.id, userId, role: membership.role } : null;
}

/**
 * `/jobs/:id` and `/jobs/:id/artifacts/:artifactId`: the links the bot and the pull-request comment post. A person
 * without a session is sent to sign in and comes back here. Signed in, `/jobs/:id` is the dashboard's job page: when
 * the job belongs to another organization of theirs than the one in use, the session switches to it first (a link
 * names a job, not an organization); a job of no organization of theirs gets the page with a 404, as an unknown id
 * (the page says "not found"); a person still on the setup screen gets the page, which shows it. Without sign-in
 * configured, the links lead to the API routes (an API key reads them).
 */
export function createJobPagesRouter({ dataSource, jobs, people, sendPage }: JobPagesDeps): Router {
  const router = Router();
  // `/jobs/new` and other words are the dashboard's own paths: only a canonical id is a job link.
  // Named `page`, not `id`: the id guard below (router.param) would answer 404 for `new` before this runs.
  router.get('/:page', async (req, res, next) => {
    if (!isCanonicalId(req.params.page)) return next();
    const jobId = req.params.page;
    if (people === undefined) return res.redirect(302, `../api/jobs/${jobId}`);
    const read = await readRequestSession(req, res, people);
    if (read === null) return res.redirect(302, `${people.publicBaseUrl}/auth/login?returnTo=${encodeURIComponent(`${req.baseUrl}${req.path}`)}`);
    if (read.standing.state !== 'ready') return sendPage(res);
    const principal = await principalForJob(dataSource, jobId, read.standing.organizations, read.standing.user.id);
    if (principal === null) return sendPage(res, 404);
    if (principal.organizationId !== read.standing.organization.id) await people.sessions.setOrganization(read.session.idHash, principal.organizationId);
    return sendPage(res);
  });
  guardPathIds(router, { id: 'job', artifactId: 'artifact' });

  /** The caller as a person of the job's organization; undefined when the response was already sent (a redirect). */
  async function person(req: Request, res: Response, toApi: string): Promise<PersonPrincipal | undefined> {
    if (people === undefined) {
      res.redirect(302, toApi);
      return undefined;
    }
    const read = await readRequestSession(req, res, people);
    if (read === null) {
      res.redirect(302, `${people.publicBaseUrl}/auth/login?returnTo=${encodeURIComponent(`${req.baseUrl}${req.path}`)}`);
      return undefined;
    }
    if (read.standing.state !== 'ready') throw setupRequired(read.standing.missing);
    const principal = await principalForJob(dataSource, String(req.params.id), read.standing.organizations, read.standing.user.id);
    if (principal === null) throw notFoundError('job');
    return principal;
  }

  router.get('/:id/artifacts/:artifactId', async (req, res) => {
    const principal = await person(req, res, `../../../api/jobs/${req.params.id}/artifacts/${req.params.artifactId}`);
    if (principal === undefined) return;
    const { artifact, content } = await jobs.openArtifact(principal, req.params.id, req.params.artifactId);
    res.status(200);
    res.setHeader('content-type', artifact.contentType);
    res.setHeader('content-length', String(artifact.sizeBytes));
    res.setHeader('content-disposition', `attachment; filename="${artifact.name.replace(/[^A-Za-z0-9._-]/g, '_')}"`);
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('cache-control', 'private, no-store');
    await pipeline(content, res);
  });

  router.use(undecodablePathAsNotFound('job'));
  return router;
}
