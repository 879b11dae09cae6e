import { pipeline } from 'node:stream/promises';
import { Router, type Request, type Response } from 'express';
import type { DataSource } from 'typeorm';
import { notFoundError } from '../core/errors.js';
import type { PersonPrincipal } from '../core/principal.js';
import type { JobService } from '../jobs/job-service.js';
import { Job } from '../store/entities/job.entity.js';
import { readRequestSession, setupRequired } from './auth.js';
import { guardPathIds, undecodablePathAsNotFound } from './ids.js';
import type { PeopleDeps } from './people.js';

export interface JobPagesDeps {
  dataSource: DataSource;
  jobs: JobService;
  people: PeopleDeps | undefined;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

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
 * without a session is sent to sign in and comes back here; signed in, they see the job (a minimal page until the
 * dashboard builds it) only if they belong to its organization. Without sign-in configured, the links lead to the
 * API routes (an API key reads them).
 */
export function createJobPagesRouter({ dataSource, jobs, people }: JobPagesDeps): Router {
  const router = Router();
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

  router.get('/:id', async (req, res) => {
    const principal = await person(req, res, `../api/jobs/${req.params.id}`);
    if (principal === undefined) return;
    const { job, artifacts } = await jobs.get(principal, req.params.id);
    const items = artifacts.map((artifact) => `<li><a href="${escape(`${job.id}/artifacts/${artifact.id}`)}">${escape(artifact.name)}</a></li>`).join('');
    res.setHeader('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
    res.setHeader('cache-control', 'private, no-store');
    res.type('html').send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Job ${escape(job.id)}</title></head><body>` +
        `<h1>Job ${escape(job.id.slice(0, 8))}</h1><p>Status: <strong>${escape(job.status)}</strong></p>` +
        `<p>${escape(job.task ?? 'Replay of a stored check')}</p><p>Base URL: ${escape(job.baseUrl)}</p>` +
        `<p>Started by: ${escape(job.startedBy ?? 'unknown')}</p><ul>${items}</ul>` +
        `<p><a href="../api/jobs/${escape(job.id)}">JSON</a></p></body></html>`,
    );
  });

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
