/**
 * Control actions for the checks and admin screens (webadmin): states only a long run or the code host would leave.
 * - `healed-check`: a check whose accepted version 1 clicks "Sign in", and a healing replay's proposed version 2 that
 *   found it as "Log in" instead, with that replay (a job) and its screenshot of the healed step (`screenshotBase64`,
 *   a PNG the test took), as src/workflows/run-plan.ts stores them.
 * - `reported-installation`: the code host's `installation` event recorded, connected to no organization yet.
 * - `operator-pause`: an operator pausing (or resuming) a capability for everyone (`qa flags pause ai`).
 */
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { ArtifactStorage } from '../../../src/artifacts/artifact-storage.js';
import { generatePlaywrightSource } from '../../../src/checks/generate-source.js';
import type { CompiledCheck } from '../../../src/core/check.js';
import { CheckVersion } from '../../../src/store/entities/check-version.entity.js';
import { Check } from '../../../src/store/entities/check.entity.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { ReportedInstallation } from '../../../src/store/entities/reported-installation.entity.js';
import { Artifact } from '../../../src/store/entities/artifact.entity.js';
import { setCapabilityPaused } from '../../../src/store/execution-flags.js';
import { storeArtifact } from '../../../src/workflows/run-records.js';

export interface AdminSeedDeps {
  store: DataSource;
  artifacts: ArtifactStorage;
  organizationOf: (slug: unknown) => { organizationId: string; repositoryId: string };
  baseUrl: string;
}

const signInStep = (name: string): CompiledCheck['steps'][number] => ({
  step: { action: 'click', description: 'Click Sign in', target: { by: 'role', role: 'button', name: 'Sign in', exact: false } },
  locator: { strategy: 'role', role: 'button', name, exact: true },
});

function compiled(buttonName: string): CompiledCheck {
  return {
    steps: [
      { step: { action: 'navigate', description: 'Open the sign-in page', url: '/login' } },
      {
        step: { action: 'fill', description: 'Type the password', target: { by: 'label', name: 'Password', exact: false }, value: { kind: 'testValue', name: 'password' } },
        locator: { strategy: 'label', name: 'Password', exact: false },
      },
      signInStep(buttonName),
    ],
    successCriteria: [],
  };
}

export function adminSeedActions(deps: AdminSeedDeps): Record<string, (body: Record<string, unknown>) => Promise<unknown>> {
  const source = (name: string, check: CompiledCheck) =>
    generatePlaywrightSource({ name, check, baseUrl: deps.baseUrl, testValueSecretRefs: { password: 'SHOP_PASSWORD' }, evidenceProbeRefs: {} });
  return {
    'healed-check': async ({ organization, screenshotBase64, task }) => {
      const { organizationId, repositoryId } = deps.organizationOf(organization ?? 'acme');
      const checkId = randomUUID();
      const jobId = randomUUID();
      const name = typeof task === 'string' ? task : 'Sign in to the shop';
      await deps.store.getRepository(Check).insert({ id: checkId, organizationId, repositoryId, status: 'active', task: name, version: 1 });
      const accepted = compiled('Sign in');
      const proposed = compiled('Log in');
      await deps.store.getRepository(CheckVersion).insert({ checkId, version: 1, compiled: accepted, source: source(name, accepted), jobId: null });
      await deps.store.getRepository(Job).insert({
        id: jobId, organizationId, repositoryId, checkId, parentJobId: null, status: 'passed', task: null, baseUrl: deps.baseUrl, commitSha: null,
        trigger: 'schedule', networkAllowlist: [], channelContext: null, resolution: null, plan: null, workflowId: null,
        // `jobs.updated_at` (webapi's branch, the jobs list) has no default; on a schema without it nothing is added.
        ...(deps.store.getRepository(Job).metadata.findColumnWithPropertyName('updatedAt') ? ({ updatedAt: new Date() } as object) : {}),
      });
      if (typeof screenshotBase64 === 'string') {
        const artifact = await storeArtifact(deps.artifacts, organizationId, jobId, { kind: 'screenshot', name: 'step-3.png', contentType: 'image/png', content: Buffer.from(screenshotBase64, 'base64'), stepIndex: 2 });
        await deps.store.getRepository(Artifact).insert(artifact);
      }
      await deps.store.getRepository(CheckVersion).insert({ checkId, version: 2, compiled: proposed, source: source(name, proposed), jobId, state: 'proposed', basedOn: 1 });
      return { checkId, jobId };
    },
    'reported-installation': async ({ installationId, account }) => {
      const now = new Date();
      await deps.store.getRepository(ReportedInstallation).insert({
        provider: 'codehost', providerInstallationId: String(installationId), accountLogin: String(account), accountType: 'Organization',
        repositorySelection: 'all', status: 'active', reportedAt: now, updatedAt: now,
      });
      return { installationId: String(installationId) };
    },
    'operator-pause': async ({ capability, paused }) => {
      await setCapabilityPaused(deps.store, capability === 'ai' ? 'ai' : 'live', paused === true, undefined, 'operator');
      return {};
    },
  };
}
