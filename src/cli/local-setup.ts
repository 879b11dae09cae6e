/**
 * `qa init`: everything a first job needs on the embedded default, in one idempotent step: a local organization, its
 * API key, a code-host installation connected to it and a repository whose base URL is the app under test. Run twice,
 * it finds what the first run made (the repository by its name, the key in the data folder) and changes nothing.
 *
 * The key is kept beside the embedded database (`<SQLITE_PATH folder>/init-api-key`, mode 0600): that folder already
 * holds everything the key opens, and the key is shown again on the next run instead of piling up new ones. On MySQL
 * (`--on-mysql`, for a shared deployment someone set up on purpose) nothing is written to disk and each run issues a
 * new key.
 */
import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { Config } from '../config.js';
import { ErrorCode, userError } from '../core/errors.js';
import { authenticateApiKey, createApiKey } from '../identity/api-keys.js';
import type { Logger } from '../logger.js';
import { ConnectedRepository } from '../store/entities/connected-repository.entity.js';
import { Organization } from '../store/entities/organization.entity.js';
import { openStore } from '../store/open-store.js';
import { connectInstallation } from '../store/repository-admission.js';

export interface LocalSetupOptions {
  baseUrl: string;
  orgSlug: string;
  /** The repository's name; by default the base URL's host and port (`localhost-5173`). */
  name?: string;
  /** Set up on a MySQL deployment too (refused by default: `qa init` is for the embedded default). */
  onMysql: boolean;
}

export interface LocalSetup {
  organizationSlug: string;
  repositoryId: string;
  repositoryName: string;
  baseUrl: string;
  apiKey: string;
  /** Where the key is kept, or null when it is not (MySQL). */
  keyFile: string | null;
  /** What already existed: nothing new was made of these. */
  reused: { repository: boolean; apiKey: boolean };
}

/** The provider installation `qa init` connects: a local stand-in, never a real app installation's number. */
export const LOCAL_INSTALLATION_ID = 'local';
/** The owner of `qa init`'s repositories; with the name, what finds the repository again. */
export const LOCAL_OWNER = 'local';

export function defaultRepositoryName(baseUrl: URL): string {
  const words = `${baseUrl.hostname}${baseUrl.port ? `-${baseUrl.port}` : ''}`.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return words.replace(/^-+|-+$/g, '').slice(0, 100) || 'app';
}

function parseBaseUrl(raw: string): URL {
  const parsed = URL.canParse(raw) ? new URL(raw) : null;
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.username || parsed.password) {
    throw userError(ErrorCode.CliUsage, `--base-url must be an http(s) URL without credentials, like http://localhost:5173 (got ${JSON.stringify(raw)})`);
  }
  return parsed;
}

export async function setUpLocally(config: Config, logger: Logger, options: LocalSetupOptions): Promise<LocalSetup> {
  if (config.database.kind === 'mysql' && !options.onMysql) {
    throw userError(
      ErrorCode.CliUsage,
      'qa init sets up the embedded default (DATABASE_URL unset); on a MySQL deployment, use qa keys create, qa installations connect and qa repos connect, or pass --on-mysql',
    );
  }
  const baseUrl = parseBaseUrl(options.baseUrl);
  const name = options.name ?? defaultRepositoryName(baseUrl);
  const keyFile = config.database.kind === 'sqlite' ? join(dirname(config.database.path), 'init-api-key') : null;
  const dataSource = await openStore(config, logger);
  try {
    const key = await keptKey(dataSource, keyFile, options.orgSlug);
    const apiKey = key ?? (await createApiKey(dataSource, options.orgSlug, 'qa init')).key;
    if (key === null && keyFile !== null) await keepKey(keyFile, apiKey);
    await connectInstallation(dataSource, 'codehost', LOCAL_INSTALLATION_ID, options.orgSlug);
    const organization = await dataSource.getRepository(Organization).findOneByOrFail({ slug: options.orgSlug });
    const repository = await localRepository(dataSource, organization.id, name, baseUrl);
    return {
      organizationSlug: options.orgSlug,
      repositoryId: repository.id,
      repositoryName: name,
      baseUrl: repository.baseUrl,
      apiKey,
      keyFile,
      reused: { repository: repository.reused, apiKey: key !== null },
    };
  } finally {
    await dataSource.destroy();
  }
}

/** The key an earlier run kept, if it still opens this organization (it may have been revoked, or the data reset). */
async function keptKey(dataSource: DataSource, keyFile: string | null, orgSlug: string): Promise<string | null> {
  if (keyFile === null) return null;
  const kept = await readFile(keyFile, 'utf8').then((text) => text.trim(), () => '');
  if (kept === '') return null;
  const principal = await authenticateApiKey(dataSource, kept);
  if (!principal) return null;
  const organization = await dataSource.getRepository(Organization).findOneBy({ id: principal.organizationId });
  return organization?.slug === orgSlug ? kept : null;
}

async function keepKey(keyFile: string, key: string): Promise<void> {
  await mkdir(dirname(keyFile), { recursive: true });
  await writeFile(keyFile, `${key}\n`, { mode: 0o600 });
  await chmod(keyFile, 0o600); // writeFile's mode applies only to a new file
}

/**
 * The organization's local repository of that name, made if missing; its base URL follows the latest `qa init`. It
 * has no source to clone (`.invalid` is a name that never resolves, RFC 2606), so no onboarding is started for it.
 */
async function localRepository(dataSource: DataSource, organizationId: string, name: string, baseUrl: URL): Promise<{ id: string; baseUrl: string; reused: boolean }> {
  const repositories = dataSource.getRepository(ConnectedRepository);
  const where = { organizationId, provider: 'codehost', providerInstallationId: LOCAL_INSTALLATION_ID, owner: LOCAL_OWNER, name };
  const found = await repositories.findOneBy(where);
  const origin = baseUrl.href;
  if (found) {
    if (found.baseUrl !== origin) await repositories.update({ id: found.id }, { baseUrl: origin });
    return { id: found.id, baseUrl: origin, reused: true };
  }
  const id = randomUUID();
  await repositories.insert({
    id, ...where, defaultBranch: 'main', cloneUrl: `https://local.invalid/${LOCAL_OWNER}/${name}.git`, baseUrl: origin,
    networkAllowlist: [], testValueSecretRefs: {}, evidenceProbeRefs: {}, revision: null, pullRequestSettings: null,
  });
  return { id, baseUrl: origin, reused: false };
}
