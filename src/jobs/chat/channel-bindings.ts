import type { DataSource } from 'typeorm';
import { ErrorCode, notFoundError, userError } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import { ChatChannelBinding } from '../../store/entities/chat-channel-binding.entity.js';
import { ConnectedRepository } from '../../store/entities/connected-repository.entity.js';

/** What a chat request runs against: a repository of the organization and the address to open. */
export interface ChannelTarget {
  repositoryId: string;
  /** `owner/name`, for people. */
  repository: string;
  baseUrl: string;
  networkAllowlist: string[];
}

const REPOSITORY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function httpUrl(text: string): string {
  try {
    const url = new URL(text);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && text.length <= 2048 && url.username === '' && url.password === '') return text;
  } catch {
    // falls through to the error
  }
  throw userError(ErrorCode.ChatInvalidBaseUrl, `"${text.slice(0, 80)}" is not an http(s) address without credentials`);
}

function targetOf(repository: ConnectedRepository, baseUrl: string | null): ChannelTarget {
  return { repositoryId: repository.id, repository: `${repository.owner}/${repository.name}`, baseUrl: baseUrl ?? repository.baseUrl, networkAllowlist: repository.networkAllowlist };
}

/**
 * Which repository (and address) a Slack channel checks: bound by `@qa use owner/name [at url]`, or found from an
 * address given inline. Every lookup is scoped by the principal's organization: another organization's repository is
 * not found, and a binding left by another organization (the workspace was reconnected elsewhere) is not used.
 */
export function createChannelBindings(dataSource: DataSource) {
  const repositories = () => dataSource.getRepository(ConnectedRepository);
  const bindings = () => dataSource.getRepository(ChatChannelBinding);

  /**
   * `owner/name` as code hosts treat it, case-insensitively (`Acme/Shop` is `acme/shop`): MySQL's collation already
   * compares so, SQLite's `=` does not, hence LOWER() on both sides in either dialect (names are ASCII). Should the
   * same name be connected twice (another provider), the newest connection wins.
   */
  async function repositoryByName(organizationId: string, owner: string, name: string): Promise<ConnectedRepository | null> {
    return repositories()
      .createQueryBuilder('repository')
      .where('repository.organizationId = :organizationId', { organizationId })
      .andWhere('LOWER(repository.owner) = :owner AND LOWER(repository.name) = :name', { owner: owner.toLowerCase(), name: name.toLowerCase() })
      .orderBy('repository.createdAt', 'DESC')
      .getOne();
  }

  async function repositoryNamed(organizationId: string, repository: string): Promise<ConnectedRepository> {
    const found = REPOSITORY_ID.test(repository)
      ? await repositories().findOneBy({ id: repository, organizationId })
      : await (() => {
          const [owner, name, ...rest] = repository.split('/');
          return owner && name && rest.length === 0 ? repositoryByName(organizationId, owner, name) : null;
        })();
    if (!found) throw notFoundError('repository', 'repository');
    return found;
  }

  return {
    async bind(principal: Principal, input: { teamId: string; channelId: string; repository: string; baseUrl?: string; boundBy: string }): Promise<ChannelTarget> {
      const baseUrl = input.baseUrl === undefined ? null : httpUrl(input.baseUrl);
      const repository = await repositoryNamed(principal.organizationId, input.repository);
      await bindings().upsert(
        { teamId: input.teamId, channelId: input.channelId, organizationId: principal.organizationId, repositoryId: repository.id, baseUrl, boundBy: input.boundBy, updatedAt: new Date() },
        ['teamId', 'channelId'],
      );
      return targetOf(repository, baseUrl);
    },

    async find(principal: Principal, teamId: string, channelId: string): Promise<ChannelTarget | null> {
      const binding = await bindings().findOneBy({ teamId, channelId, organizationId: principal.organizationId });
      if (!binding) return null;
      const repository = await repositories().findOneBy({ id: binding.repositoryId, organizationId: principal.organizationId });
      return repository ? targetOf(repository, binding.baseUrl) : null;
    },

    /** The repository for an address given inline: the one whose baseUrl has the same origin, else the organization's only one. */
    async forUrl(principal: Principal, baseUrl: string): Promise<ChannelTarget | null> {
      const origin = new URL(httpUrl(baseUrl)).origin;
      const all = await repositories().find({ where: { organizationId: principal.organizationId }, order: { createdAt: 'ASC' }, take: 500 });
      const sameOrigin = all.filter((repository) => {
        try {
          return new URL(repository.baseUrl).origin === origin;
        } catch {
          return false;
        }
      });
      const chosen = sameOrigin.length === 1 ? sameOrigin[0] : all.length === 1 ? all[0] : undefined;
      return chosen ? targetOf(chosen, baseUrl) : null;
    },

    async forRepository(principal: Principal, repositoryId: string): Promise<ChannelTarget> {
      return targetOf(await repositoryNamed(principal.organizationId, repositoryId), null);
    },
  };
}

export type ChannelBindings = ReturnType<typeof createChannelBindings>;
