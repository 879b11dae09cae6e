import type { DataSource } from 'typeorm';
import type { CodehostClient } from '../codehost/codehost-client.js';
import type { CodehostConfig } from '../config.js';
import { PullRequestSink } from '../notify/codehost/pull-request-sink.js';
import { findCodehostRepository } from '../repos/codehost-repositories.js';

/**
 * Where pull-request jobs' progress goes: the PR sink over the app's client, posting only through an installation
 * that is active, connected to the job's organization, and connected to the job's repository.
 */
export function composeCodehostSink(deps: { config: CodehostConfig; dataSource: DataSource; client: CodehostClient; timeoutMs?: number }): PullRequestSink {
  const { config, dataSource, client } = deps;
  return new PullRequestSink({
    client,
    timeoutMs: deps.timeoutMs,
    botLogin: config.botName ? `${config.botName}[bot]` : undefined,
    appId: config.appId,
    async refusal({ organizationId, context }) {
      const found = await findCodehostRepository(dataSource, { installationId: context.installationId, owner: context.owner, name: context.repo });
      switch (found.kind) {
        case 'installation_inactive':
          return `installation ${context.installationId} is ${found.status}`;
        case 'not_connected':
          return found.reason === 'installation'
            ? `installation ${context.installationId} is not connected to an organization (qa installations connect)`
            : `${context.owner}/${context.repo} is not connected through installation ${context.installationId}`;
        case 'connected':
          return found.organizationId === organizationId ? null : `installation ${context.installationId} is connected to another organization than the job's`;
      }
    },
  });
}
