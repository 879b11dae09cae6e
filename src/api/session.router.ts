import { Router, type Response } from 'express';
import { AppError, ErrorCode } from '../core/errors.js';
import { csrfTokenFor } from '../identity/secret-tokens.js';
import type { ReadSession } from '../identity/session-reader.js';
import { readRequestSession, setupRequired } from './auth.js';
import { parse } from './error-mapper.js';
import { jsonBody } from './json-body.js';
import type { PeopleDeps } from './people.js';
import { responseOf } from './respond.js';
import { organizationBody } from './requests/session.js';
import { sessionSchema } from './schemas/people.js';

const noSession = () =>
  new AppError({ kind: 'user', code: ErrorCode.AuthUnauthorized, status: 401, message: 'Not signed in: sign in at /auth/login' });

/** What `GET /api/session` answers; `csrfToken` goes in `x-csrf-token` on every state-changing request. */
function sessionBody({ session, standing }: ReadSession) {
  const csrfToken = csrfTokenFor(session.id);
  if (standing.state !== 'ready') return { state: standing.state, missing: standing.missing, csrfToken };
  return { state: standing.state, user: standing.user, organizations: standing.organizations, organization: standing.organization, csrfToken };
}

function send(res: Response, read: ReadSession): void {
  res.setHeader('cache-control', 'no-store');
  res.json(responseOf(sessionSchema, sessionBody(read)));
}

/** `/api/session`: the signed-in person's standing, and the organization they work in. */
export function createSessionRouter(people: PeopleDeps): Router {
  const router = Router();
  router.use(jsonBody('4kb'));

  router.get('/', async (req, res) => {
    const read = await readRequestSession(req, res, people);
    if (read === null) throw noSession();
    send(res, read);
  });

  router.post('/organization', async (req, res) => {
    const read = await readRequestSession(req, res, people);
    if (read === null) throw noSession();
    const { organizationId } = parse(organizationBody, req.body);
    const { standing } = read;
    if (standing.state !== 'ready') throw setupRequired(standing.missing);
    const organization = standing.organizations.find((candidate) => candidate.id === organizationId);
    if (organization === undefined) {
      throw new AppError({ kind: 'user', code: ErrorCode.SessionOrganizationUnavailable, status: 404, message: 'You have no active membership in that organization', details: { field: 'organizationId' } });
    }
    await people.sessions.setOrganization(read.session.idHash, organization.id);
    send(res, {
      session: { ...read.session, organizationId: organization.id },
      standing: { ...standing, organization, principal: { ...standing.principal, organizationId: organization.id, role: organization.role } },
    });
  });

  return router;
}
