import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AppError, ErrorCode, notFoundError, operationalError, userError } from '../core/errors.js';
import { dialectOf } from '../store/data-source.js';
import { ConnectedRepository, type EvidenceProbeRef } from '../store/entities/connected-repository.entity.js';
import { IngestionRun } from '../store/entities/ingestion-run.entity.js';
import { assertCapabilitiesRunning } from '../store/execution-flags.js';
import { inactiveInstallationStatus, isInstallationConnected, isOwnerExcluded } from '../store/repository-admission.js';
import type { StagedWorkflow } from '../store/write-batch.js';
import type { Principal } from '../core/principal.js';
import { changePullRequestSettings, pullRequestSettingsOf, type PullRequestSettings, type PullRequestSettingsChange } from '../core/pull-request-settings.js';

export interface RepositorySettings {
  /** Owners whose repositories are refused before anything is stored (lowercase); `qa owners exclude` adds more. */
  readonly excludedOwners: readonly string[];
}

/** A validated connect request (spec 2.3). */
export interface ConnectRepositoryInput {
  provider: string;
  providerInstallationId: string;
  owner: string;
  name: string;
  defaultBranch: string;
  cloneUrl: string;
  baseUrl: string;
  networkAllowlist: string[];
  testValueSecretRefs: Record<string, string>;
  evidenceProbeRefs: Record<string, EvidenceProbeRef>;
  revision?: string;
  /** How pull requests run; absent: the defaults. */
  pullRequestSettings?: PullRequestSettings;
  /** Side-effect classes onboarding's catalog builds may carry out; absent: none. */
  allowedSideEffects?: string[];
}

export interface ConnectedRepositoryResult {
  organizationId: string;
  repositoryId: string;
  ingestionRunId: string;
  workflowId: string;
}

export interface RepositoryServiceDeps {
  dataSource: DataSource;
  config: RepositorySettings;
  /** The server's value of an environment secret by name (probe URLs are checked against the allowlist). */
  readSecret(name: string): string | undefined;
  /** Starts the onboarding workflows of ingestion runs. */
  onboarding: OnboardingStarter;
}

/**
 * Starts an ingestion run's onboarding workflow: its queue job is committed in the transaction that writes the
 * repository and the run, so they exist together or not at all.
 */
export interface OnboardingStarter {
  stage(ingestionRunId: string): Promise<StagedWorkflow>;
}

const forbidden = (code: ErrorCode, message: string, details?: Record<string, unknown>) => new AppError({ kind: 'user', code, status: 403, message, details });

/**
 * The evidence-probe rules: both refs name configured test values, and the probe URL (the server's value of the
 * secret the URL ref names) is https on an allowlisted host. Messages name refs and variables, never values.
 */
function checkProbes(input: ConnectRepositoryInput, readSecret: (name: string) => string | undefined): void {
  const allowlist = new Set(input.networkAllowlist);
  for (const [criterion, probe] of Object.entries(input.evidenceProbeRefs)) {
    for (const ref of ['urlValueRef', 'tokenValueRef'] as const) {
      if (!Object.hasOwn(input.testValueSecretRefs, probe[ref])) {
        throw userError(ErrorCode.RepositoryProbeRefUnknown, `evidenceProbeRefs.${criterion}.${ref} "${probe[ref]}" is not a key of testValueSecretRefs`, {
          details: { field: `evidenceProbeRefs.${criterion}.${ref}` },
        });
      }
    }
    const variable = input.testValueSecretRefs[probe.urlValueRef]!;
    const field = `evidenceProbeRefs.${criterion}.urlValueRef`;
    const value = readSecret(variable);
    if (value === undefined || value === '') {
      throw userError(ErrorCode.RepositoryProbeUrlUnset, `The probe URL secret ${variable} is not set on the server`, { details: { field, variable } });
    }
    const url = URL.canParse(value) ? new URL(value) : undefined;
    if (!url || url.protocol !== 'https:') {
      throw userError(ErrorCode.RepositoryProbeNotHttps, `The probe URL in ${variable} must be an https URL`, { details: { field, variable } });
    }
    if (!allowlist.has(url.hostname.toLowerCase())) {
      throw userError(ErrorCode.RepositoryProbeHostNotAllowed, `The probe URL's host (from ${variable}) must be in networkAllowlist`, {
        details: { field, variable },
      });
    }
  }
}

export function createRepositoryService({ dataSource, config, readSecret, onboarding }: RepositoryServiceDeps) {
  /** The onboarding's queue job, to be written in the repository's transaction; a queue that refuses it writes nothing (503). */
  async function stageOnboarding(ingestionRunId: string): Promise<StagedWorkflow> {
    try {
      return await onboarding.stage(ingestionRunId);
    } catch (error) {
      throw operationalError(ErrorCode.RepositoryOnboardingStartFailed, "The repository's onboarding could not be started, so nothing was recorded; try again", {
        cause: error,
      });
    }
  }

  return {
    /**
     * Connects a repository and starts its onboarding. Every rule is checked before anything is stored: live
     * and AI execution on (discovery drives a browser and the planner), the owner not excluded, the installation
     * connected to this organization, the evidence probes sound.
     */
    async connect(principal: Principal, input: ConnectRepositoryInput): Promise<ConnectedRepositoryResult> {
      const { organizationId } = principal;
      await assertCapabilitiesRunning(dataSource, organizationId, ['live', 'ai']);
      if (await isOwnerExcluded(dataSource, config.excludedOwners, input.owner)) {
        throw forbidden(ErrorCode.RepositoryOwnerExcluded, `Repositories of "${input.owner}" cannot be connected`);
      }
      if (!(await isInstallationConnected(dataSource, input.provider, input.providerInstallationId, organizationId))) {
        throw forbidden(
          ErrorCode.RepositoryInstallationNotConnected,
          `Installation ${input.providerInstallationId} is not connected to this organization; an administrator connects it first`,
        );
      }
      // Connected once, then suspended or uninstalled on the code host: its repositories can no longer be read.
      const inactive = await inactiveInstallationStatus(dataSource, input.provider, input.providerInstallationId);
      if (inactive !== null) {
        throw forbidden(
          ErrorCode.RepositoryInstallationInactive,
          `Installation ${input.providerInstallationId} was ${inactive} on the code host; reinstall or unsuspend the app first`,
          { status: inactive },
        );
      }
      checkProbes(input, readSecret);

      const repositoryId = randomUUID();
      const ingestionRunId = randomUUID();
      const staged = await stageOnboarding(ingestionRunId);
      await dataSource.transaction(async (manager) => {
        await manager.insert(ConnectedRepository, {
          id: repositoryId, organizationId, ...input, revision: input.revision ?? null, pullRequestSettings: input.pullRequestSettings ?? null,
          allowedSideEffects: input.allowedSideEffects ?? null,
        });
        await manager.insert(IngestionRun, {
          id: ingestionRunId, organizationId, repositoryId, status: 'queued', revision: input.revision ?? null, workflowId: staged.workflowId,
        });
        await manager.query(staged.statement.sql, staged.statement.params);
      });
      await staged.announce();
      return { organizationId, repositoryId, ingestionRunId, workflowId: staged.workflowId };
    },

    /**
     * Changes how the repository's pull requests run: the fields given replace the stored ones (null removes an
     * optional one). Later pull-request events read the new settings; runs already started keep their target.
     */
    async updatePullRequestSettings(principal: Principal, repositoryId: string, change: PullRequestSettingsChange): Promise<ConnectedRepository> {
      const { organizationId } = principal;
      return dataSource.transaction(async (manager) => {
        // The row is locked from the read to the write: two changes at once (one turning on runDrafts, one setting
        // the template) apply one after the other, each to the other's result, instead of the second writing back
        // what it read before the first. SQLite runs one write transaction at a time and has no FOR UPDATE.
        const forUpdate = dialectOf(dataSource) === 'mysql' ? ' FOR UPDATE' : '';
        await manager.query(`SELECT id FROM repositories WHERE id = ? AND organization_id = ?${forUpdate}`, [repositoryId, organizationId]);
        const repository = await manager.findOneBy(ConnectedRepository, { id: repositoryId, organizationId });
        if (!repository) throw notFoundError('repository');
        const pullRequestSettings = changePullRequestSettings(pullRequestSettingsOf(repository.pullRequestSettings), change);
        await manager.update(ConnectedRepository, { id: repositoryId, organizationId }, { pullRequestSettings });
        return { ...repository, pullRequestSettings };
      });
    },

    async list(principal: Principal): Promise<ConnectedRepository[]> {
      const { organizationId } = principal;
      return dataSource.getRepository(ConnectedRepository).find({ where: { organizationId }, order: { createdAt: 'ASC', id: 'ASC' } });
    },

    async get(principal: Principal, repositoryId: string): Promise<{ repository: ConnectedRepository; ingestionRuns: IngestionRun[] }> {
      const { organizationId } = principal;
      const repository = await dataSource.getRepository(ConnectedRepository).findOneBy({ id: repositoryId, organizationId });
      if (!repository) {
        throw notFoundError('repository');
      }
      const ingestionRuns = await dataSource.getRepository(IngestionRun).find({ where: { repositoryId }, order: { createdAt: 'ASC' } });
      return { repository, ingestionRuns };
    },
  };
}

export type RepositoryService = ReturnType<typeof createRepositoryService>;
