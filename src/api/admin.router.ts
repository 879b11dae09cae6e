import { Router, type RequestHandler } from 'express';
import type { DataSource } from 'typeorm';
import { AppError, ErrorCode } from '../core/errors.js';
import { CAPABILITIES } from '../core/execution.js';
import { actorName, type PersonPrincipal } from '../core/principal.js';
import { issueApiKey, listApiKeys, revokeOrganizationApiKey } from '../identity/api-keys.js';
import { CODEHOST_PROVIDER } from '../repos/codehost-repositories.js';
import { Organization } from '../store/entities/organization.entity.js';
import { ReportedInstallation } from '../store/entities/reported-installation.entity.js';
import { connectInstallationTo } from '../store/repository-admission.js';
import { organizationFlags, setCapabilityPaused } from '../store/execution-flags.js';
import { principalOf } from './auth.js';
import { parse } from './error-mapper.js';
import { jsonBody } from './json-body.js';
import { responseOf } from './respond.js';
import { capabilityParam, flagBody, installationIdParam, keyBody, prefixParam } from './requests/admin.js';
import { listInstallationsFor } from '../repos/installation-list.js';
import { apiKeyCreatedSchema, apiKeyListSchema, executionFlagsSchema, installationConnectedSchema, installationListSchema } from './schemas/people.js';

const forbidden = (message: string) => new AppError({ kind: 'user', code: ErrorCode.RoleForbidden, status: 403, message });

/**
 * Admin actions are for signed-in people with the admin role in the organization in use. API keys may not take them
 * (a leaked key must not mint more keys or switch execution back on); the operator's `qa` CLI keeps its verbs.
 */
export const requireAdmin: RequestHandler = (_req, res, next) => {
  const principal = principalOf(res);
  if (principal.kind !== 'person') return next(forbidden('Admin actions are for signed-in organization admins, not API keys (operators use the qa CLI)'));
  if (principal.role !== 'admin') return next(forbidden('Only an admin of this organization may do that'));
  next();
};

const adminOf = (principal: ReturnType<typeof principalOf>) => principal as PersonPrincipal;
const iso = (date: Date | null) => (date === null ? null : date.toISOString());


/** `/api/keys`: the organization's API keys; a new key's secret is in the creation answer only. */
export function createKeysRouter(dataSource: DataSource): Router {
  const router = Router();
  router.use(requireAdmin, jsonBody('4kb'));

  router.get('/', async (_req, res) => {
    const keys = await listApiKeys(dataSource, principalOf(res).organizationId);
    res.json(responseOf(apiKeyListSchema, { keys: keys.map((key) => ({ ...key, createdAt: iso(key.createdAt), lastUsedAt: iso(key.lastUsedAt), revokedAt: iso(key.revokedAt) })) }));
  });

  router.post('/', async (req, res) => {
    const { label } = parse(keyBody, req.body ?? {});
    const principal = adminOf(principalOf(res));
    const organization = await dataSource.getRepository(Organization).findOneByOrFail({ id: principal.organizationId });
    const created = await issueApiKey(dataSource, organization, label ?? null, actorName(principal));
    res.setHeader('cache-control', 'no-store');
    res.status(201).json(responseOf(apiKeyCreatedSchema, { key: created.key, prefix: created.prefix, label: label ?? null, createdBy: actorName(principal) }));
  });

  router.delete('/:prefix', async (req, res) => {
    const prefix = prefixParam.safeParse(req.params.prefix);
    const principal = adminOf(principalOf(res));
    if (!prefix.success || !(await revokeOrganizationApiKey(dataSource, principal.organizationId, prefix.data, actorName(principal)))) {
      throw new AppError({ kind: 'user', code: ErrorCode.ApiKeyNotFound, status: 404, message: 'No live API key with that prefix in this organization' });
    }
    res.status(204).end();
  });
  return router;
}

/** `/api/execution-flags`: pause or resume live and AI execution for the organization in use. */
export function createExecutionFlagsRouter(dataSource: DataSource): Router {
  const router = Router();
  router.use(requireAdmin, jsonBody('4kb'));

  router.get('/', async (_req, res) => {
    res.json(responseOf(executionFlagsSchema, { flags: await organizationFlags(dataSource, principalOf(res).organizationId) }));
  });

  router.put('/:capability', async (req, res) => {
    const capability = capabilityParam.safeParse(req.params.capability);
    if (!capability.success) throw new AppError({ kind: 'user', code: ErrorCode.FlagsUnknownCapability, status: 404, message: `Unknown capability: use ${CAPABILITIES.join(' or ')}` });
    const { paused } = parse(flagBody, req.body);
    const principal = adminOf(principalOf(res));
    await setCapabilityPaused(dataSource, capability.data, paused, principal.organizationId, actorName(principal));
    res.json(responseOf(executionFlagsSchema, { flags: await organizationFlags(dataSource, principal.organizationId) }));
  });
  return router;
}

/**
 * `GET /api/installations`: what an admin may connect, and what is connected. `/api/installations/:installationId/connect`: the code-host installation's repositories are accepted in the
 * organization in use (spec 4.6, "in the dashboard"). Only an installation the code host has reported (its installation
 * webhook arrived) and still active, and one no other organization has: moving one stays the operator's
 * (`qa installations connect`). The same use case as the CLI's.
 */
export function createInstallationsRouter(dataSource: DataSource): Router {
  const router = Router();
  router.use(requireAdmin);

  /** The installations this organization has, and those connected nowhere yet (installation-list.ts). */
  router.get('/', async (_req, res) => {
    const listed = await listInstallationsFor(dataSource, principalOf(res).organizationId);
    const installations = listed.map(({ installationId, reported, connection }) => ({
      installationId,
      account: reported?.accountLogin ?? null,
      accountType: reported?.accountType ?? null,
      repositorySelection: reported?.repositorySelection ?? null,
      status: reported?.status ?? null,
      connectedOrganizationId: connection?.organizationId ?? null,
      connectedBy: connection?.connectedBy ?? null,
      reportedAt: iso(reported?.reportedAt ?? null),
    }));
    res.json(responseOf(installationListSchema, { installations }));
  });

  router.post('/:installationId/connect', async (req, res) => {
    const installationId = installationIdParam.safeParse(req.params.installationId);
    const reported = installationId.success
      ? await dataSource.getRepository(ReportedInstallation).findOneBy({ provider: CODEHOST_PROVIDER, providerInstallationId: installationId.data })
      : null;
    if (!installationId.success || reported === null || reported.status !== 'active') {
      throw new AppError({ kind: 'user', code: ErrorCode.InstallationNotReported, status: 404, message: 'The code host has reported no active installation with that id' });
    }
    const principal = adminOf(principalOf(res));
    const connectedBy = actorName(principal);
    await connectInstallationTo(dataSource, { provider: CODEHOST_PROVIDER, installationId: installationId.data, organizationId: principal.organizationId, connectedBy, mayMove: false });
    res.json(responseOf(installationConnectedSchema, { installationId: installationId.data, account: reported.accountLogin, organizationId: principal.organizationId, connectedBy }));
  });
  return router;
}
