import type { DataSource } from 'typeorm';
import { ErrorCode, userError } from '../core/errors.js';
import { DirectoryOrganizationLink } from '../store/entities/directory-organization-link.entity.js';
import { DirectoryOrganization } from '../store/entities/directory-organization.entity.js';
import { Organization } from '../store/entities/organization.entity.js';

const DIRECTORY_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/;

export interface DirectoryLinkOutcome {
  organizationId: string;
  /** Whether the directory has heard of the organization yet (a link may come first: it waits for the webhook). */
  directoryOrganizationKnown: boolean;
  /** The service organization the link replaced, if another. */
  replacedOrganizationId: string | null;
}

/**
 * `qa orgs link --org <slug> --identity-org <id>`: the directory organization's members reach the service
 * organization `orgSlug`. It wins over the `external_id` link and replaces an earlier explicit one.
 */
export async function linkDirectoryOrganization(dataSource: DataSource, orgSlug: string, directoryOrganizationId: string): Promise<DirectoryLinkOutcome> {
  if (!DIRECTORY_ID.test(directoryOrganizationId)) {
    throw userError(ErrorCode.RequestInvalid, `Invalid identity organization id ${JSON.stringify(directoryOrganizationId)}: use the provider's id (up to 100 letters, digits, '_', '.', ':', '-')`);
  }
  const organization = await dataSource.getRepository(Organization).findOne({ select: { id: true }, where: { slug: orgSlug } });
  if (!organization) throw userError(ErrorCode.OrganizationNotFound, `No organization with the slug "${orgSlug}" (qa keys create --org ${orgSlug} creates one)`);
  return dataSource.transaction(async (manager) => {
    const links = manager.getRepository(DirectoryOrganizationLink);
    const earlier = await links.findOne({ where: { directoryOrganizationId } });
    if (earlier) await links.update({ directoryOrganizationId }, { organizationId: organization.id });
    else await links.insert({ directoryOrganizationId, organizationId: organization.id });
    const known = await manager.getRepository(DirectoryOrganization).exists({ where: { id: directoryOrganizationId } });
    return {
      organizationId: organization.id,
      directoryOrganizationKnown: known,
      replacedOrganizationId: earlier && earlier.organizationId !== organization.id ? earlier.organizationId : null,
    };
  });
}
