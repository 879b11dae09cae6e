import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { CompiledCheck } from '../../src/core/check.js';
import { CheckVersion } from '../../src/store/entities/check-version.entity.js';
import { Check } from '../../src/store/entities/check.entity.js';
import { ConnectedRepository } from '../../src/store/entities/connected-repository.entity.js';

/** A connected repository of the organization, as onboarding would have stored it; returns its id. */
export async function insertRepository(dataSource: DataSource, organizationId: string, fields: Partial<ConnectedRepository> = {}): Promise<string> {
  const id = randomUUID();
  await dataSource.getRepository(ConnectedRepository).insert({
    id,
    organizationId,
    provider: 'codehost',
    providerInstallationId: '42',
    owner: 'acme',
    name: 'shop',
    defaultBranch: 'main',
    cloneUrl: 'https://code.example/acme/shop.git',
    baseUrl: 'https://shop.example',
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
