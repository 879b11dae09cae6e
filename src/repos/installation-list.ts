import { In, type DataSource } from 'typeorm';
import { Installation } from '../store/entities/installation.entity.js';
import { ReportedInstallation } from '../store/entities/reported-installation.entity.js';
import { CODEHOST_PROVIDER } from './codehost-repositories.js';

/** An installation an organization's admin may see: one it has, or one nobody has connected yet. */
export interface ListedInstallation {
  installationId: string;
  /** What the code host reported; null for one connected (by the operator's CLI) before its installation webhook arrived. */
  reported: Pick<ReportedInstallation, 'accountLogin' | 'accountType' | 'repositorySelection' | 'status' | 'reportedAt'> | null;
  /** Set when it is connected to the organization asking; never another organization's. */
  connection: Pick<Installation, 'organizationId' | 'connectedBy'> | null;
}

/** At most this many not-yet-connected installations are listed (the newest reports first). */
export const UNCONNECTED_LIMIT = 500;

/**
 * The code-host installations an organization's admin may act on: those connected to it (whatever the code host
 * says of them now: a suspended or deleted one explains why its repositories stopped), then those reported and
 * connected nowhere, active or suspended (a deleted one can never be connected). Installations of other
 * organizations are left out entirely.
 */
export async function listInstallationsFor(dataSource: DataSource, organizationId: string): Promise<ListedInstallation[]> {
  const provider = CODEHOST_PROVIDER;
  const connected = await dataSource.getRepository(Installation).find({ where: { provider, organizationId }, order: { providerInstallationId: 'ASC' } });
  const connectedIds = connected.map((row) => row.providerInstallationId);
  const reportedOfConnected = connectedIds.length === 0 ? [] : await dataSource.getRepository(ReportedInstallation).findBy({ provider, providerInstallationId: In(connectedIds) });
  const unconnected = await dataSource
    .getRepository(ReportedInstallation)
    .createQueryBuilder('reported')
    .leftJoin(Installation, 'installation', 'installation.provider = reported.provider AND installation.provider_installation_id = reported.provider_installation_id')
    .where('reported.provider = :provider', { provider })
    .andWhere('installation.provider IS NULL')
    .andWhere('reported.status <> :deleted', { deleted: 'deleted' })
    .orderBy('reported.reported_at', 'DESC')
    .addOrderBy('reported.provider_installation_id', 'ASC')
    .limit(UNCONNECTED_LIMIT)
    .getMany();

  const reportedById = new Map(reportedOfConnected.map((row) => [row.providerInstallationId, row]));
  return [
    ...connected.map((row) => ({
      installationId: row.providerInstallationId,
      reported: reportedById.get(row.providerInstallationId) ?? null,
      connection: { organizationId: row.organizationId, connectedBy: row.connectedBy },
    })),
    ...unconnected.map((row) => ({ installationId: row.providerInstallationId, reported: row, connection: null })),
  ];
}
