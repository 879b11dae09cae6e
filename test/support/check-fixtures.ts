import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { CompiledCheck } from '../../src/core/check.js';
import { CheckVersion } from '../../src/store/entities/check-version.entity.js';
import { Check } from '../../src/store/entities/check.entity.js';
import { createApiKey } from '../../src/identity/api-keys.js';
import { ConnectedRepository } from '../../src/store/entities/connected-repository.entity.js';

/**
 * The test repository, acme/shop on the code host's installation 42, as a person connects it (`POST /api/repositories`,
 * `qa repos connect --file`); `insertRepository` stores the same one.
 */
export const SHOP_REPOSITORY = {
  provider: 'codehost',
  providerInstallationId: '42',
  owner: 'acme',
  name: 'shop',
  defaultBranch: 'main',
  cloneUrl: 'https://code.example/acme/shop.git',
  baseUrl: 'https://shop.example',
} as const;

/** The connect body of the test repository with `overrides` (an allowlist, secret refs, settings). */
export function shopRepositoryBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...SHOP_REPOSITORY, ...overrides };
}

/** A connected repository of the organization, as onboarding would have stored it; returns its id. */
export async function insertRepository(dataSource: DataSource, organizationId: string, fields: Partial<ConnectedRepository> = {}): Promise<string> {
  const id = randomUUID();
  await dataSource.getRepository(ConnectedRepository).insert({
    id,
    organizationId,
    ...SHOP_REPOSITORY,
    networkAllowlist: [],
    testValueSecretRefs: {},
    evidenceProbeRefs: {},
    revision: null,
    ...fields,
  });
  return id;
}

const COMPILED: CompiledCheck = { steps: [{ step: { action: 'navigate', description: 'Open the home page', url: '/' } }], successCriteria: [] };

/**
 * A check as a passing run leaves it (`active`, version 1 with its compiled steps), or a `draft` as a new
 * natural-language job leaves it; returns its id.
 */
export async function insertCheck(
  dataSource: DataSource,
  organizationId: string,
  repositoryId: string,
  status: 'active' | 'draft',
  task = 'Check the home page',
): Promise<string> {
  const id = randomUUID();
  await dataSource.getRepository(Check).insert({ id, organizationId, repositoryId, status, task, version: status === 'active' ? 1 : 0 });
  if (status === 'active') {
    await dataSource.getRepository(CheckVersion).insert({ checkId: id, version: 1, compiled: COMPILED, source: '// generated', jobId: null });
  }
  return id;
}

/** What most API tests begin with: the caller's key in acme with its repository and active check, and globex's key. */
export interface AcmeShop {
  key: string;
  keyId: string;
  organizationId: string;
  repositoryId: string;
  checkId: string;
  /** A key of another organization (globex), and that organization. */
  otherKey: string;
  otherOrganizationId: string;
}

/** Stores `AcmeShop`: `keyName` names the caller's key, `repository` overrides the stored repository's fields. */
export async function seedAcmeShop(
  dataSource: DataSource,
  options: { keyName?: string; repository?: Partial<ConnectedRepository> } = {},
): Promise<AcmeShop> {
  const mine = await createApiKey(dataSource, 'acme', options.keyName);
  const organizationId = mine.organization.id;
  const repositoryId = await insertRepository(dataSource, organizationId, options.repository);
  return {
    key: mine.key,
    keyId: (mine.principal.actor as { apiKeyId: string }).apiKeyId,
    organizationId,
    repositoryId,
    checkId: await insertCheck(dataSource, organizationId, repositoryId, 'active'),
    ...(await createApiKey(dataSource, 'globex').then((theirs) => ({ otherKey: theirs.key, otherOrganizationId: theirs.organization.id }))),
  };
}
