import type { DataSource } from 'typeorm';
import { ConnectedRepository } from '../store/entities/connected-repository.entity.js';
import { Installation } from '../store/entities/installation.entity.js';
import { ReportedInstallation } from '../store/entities/reported-installation.entity.js';

/** The provider name connected installations and repositories are stored under (`qa installations connect`). */
export const CODEHOST_PROVIDER = 'codehost';

/**
 * What the service knows of the repository a code-host event is about:
 * - `connected`: the installation is connected to an organization, not suspended or deleted, and the repository is
 *   connected to that organization through it; events about it may start runs.
 * - `installation_inactive`: the code host reported the installation suspended or deleted; nothing runs, and nothing
 *   is posted (its tokens no longer work).
 * - `not_connected`: no administrator connected the installation, or the repository is not connected through it.
 */
export type CodehostRepositoryLookup =
  | { kind: 'connected'; organizationId: string; repository: ConnectedRepository }
  | { kind: 'installation_inactive'; status: 'suspended' | 'deleted' }
  | { kind: 'not_connected'; reason: 'installation' | 'repository' };

export interface CodehostRepositoryCoordinates {
  installationId: number;
  /** As the payload spells them; the code host compares owner and name without regard to case. */
  owner: string;
  name: string;
}

/**
 * The connected repository an event's installation and `repository.owner.login`/`repository.name` name, scoped to
 * the organization the installation is connected to (so another organization's repository of the same name, or one
 * connected through another installation, is never found). Three indexed reads; no write.
 */
export async function findCodehostRepository(dataSource: DataSource, { installationId, owner, name }: CodehostRepositoryCoordinates): Promise<CodehostRepositoryLookup> {
  const providerInstallationId = String(installationId);
  const reported = await dataSource.getRepository(ReportedInstallation).findOneBy({ provider: CODEHOST_PROVIDER, providerInstallationId });
  if (reported && (reported.status === 'suspended' || reported.status === 'deleted')) return { kind: 'installation_inactive', status: reported.status };
  const installation = await dataSource.getRepository(Installation).findOneBy({ provider: CODEHOST_PROVIDER, providerInstallationId });
  if (!installation) return { kind: 'not_connected', reason: 'installation' };
  const repository = await dataSource
    .getRepository(ConnectedRepository)
    .createQueryBuilder('repository')
    .where('repository.organization_id = :organizationId', { organizationId: installation.organizationId })
    .andWhere('repository.provider = :provider', { provider: CODEHOST_PROVIDER })
    .andWhere('repository.provider_installation_id = :providerInstallationId', { providerInstallationId })
    .andWhere('LOWER(repository.owner) = :owner', { owner: owner.toLowerCase() })
    .andWhere('LOWER(repository.name) = :name', { name: name.toLowerCase() })
    // A repository connected twice answers with the first connection: its checks are the ones that were compiled.
    .orderBy('repository.created_at', 'ASC')
    .addOrderBy('repository.id', 'ASC')
    .getOne();
  if (!repository) return { kind: 'not_connected', reason: 'repository' };
  return { kind: 'connected', organizationId: installation.organizationId, repository };
}
