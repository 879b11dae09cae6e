/**
 * What the control server of serve.ts does for a test, by path (`POST <controlUrl>/<name>` with a JSON body; the
 * answer is the action's result as JSON). Only what a test cannot do through the service: add an action here when a
 * screen needs a state that only a long run or another system would produce.
 */
import type { DataSource } from 'typeorm';
import type { ArtifactStorage } from '../../../src/artifacts/artifact-storage.js';
import type { FakeIdentityProvider } from '../../fakes/identity-provider.js';
import type { putInDirectory as PutInDirectory } from '../../support/directory-rows.js';
import type { insertCheck as InsertCheck, insertRepository as InsertRepository } from '../../support/check-fixtures.js';
import { adminSeedActions } from './admin-seeds.js';
import { cloneIntoLargeJob } from '../../support/large-job.js';
import { insertJobRows, jobRow } from '../../support/job-rows.js';
import { fillLongHistory } from './long-job.js';
import type { OrganizationInfo } from './service-info.js';

export interface ControlDeps {
  store: DataSource;
  /** The worker's artifact storage (the API serves downloads from it). */
  artifacts: ArtifactStorage;
  idp: FakeIdentityProvider;
  organizations: Record<'acme' | 'globex', OrganizationInfo>;
  putInDirectory: typeof PutInDirectory;
  insertRepository: typeof InsertRepository;
  insertCheck: typeof InsertCheck;
  /** The demo app's URL, the site the seeded jobs ran on. */
  demoUrl: string;
}

export type ControlAction = (body: Record<string, unknown>) => Promise<unknown>;

export function controlActions(deps: ControlDeps): Record<string, ControlAction> {
  const organization = (slug: unknown) => {
    const found = deps.organizations[slug as 'acme' | 'globex'];
    if (found === undefined) throw new Error(`no seeded organization ${String(slug)}`);
    return found;
  };
  return {
    ...adminSeedActions({ store: deps.store, artifacts: deps.artifacts, organizationOf: organization, baseUrl: deps.demoUrl }),
    /** The account the fake provider signs in as at the next `/auth/login`: `{ sub, email?, name? }`. */
    'sign-in-as': async ({ sub, email, name }) => {
      deps.idp.signInAs({ sub: String(sub), email: typeof email === 'string' ? email : `${String(sub)}@example.com`, emailVerified: true, name: typeof name === 'string' ? name : String(sub) });
    },
    /**
     * Puts a person in the access directory directly, as its webhooks would leave it: `{ userId, organizations: [{
     * slug, role }] }`. (The setup test sends the real webhooks instead.)
     */
    directory: async ({ userId, organizations }) => {
      const wanted = organizations as Array<{ slug: string; role: 'admin' | 'member' }>;
      await deps.putInDirectory(deps.store, String(userId), wanted.map(({ slug, role }) => ({ serviceOrganizationId: organization(slug).organizationId, name: slug, role })));
    },
    /**
     * A long run's history for a job that awaits answers (long-job.ts): `{ jobId, steps?, eventsPerStep?, failingStep?,
     * hostile? }` (default 200 steps of 10 events, step 120 failing). Answers `{ events, screenshots }`.
     */
    'long-job': async ({ jobId, steps = 200, eventsPerStep = 10, failingStep = 120, hostile }) =>
      fillLongHistory(deps.store, deps.artifacts, {
        jobId: String(jobId), steps: Number(steps), eventsPerStep: Number(eventsPerStep), failingStep: Number(failingStep),
        ...(typeof hostile === 'string' ? { hostile } : {}),
      }),
    /**
     * `{ slug, count }`: that many finished jobs in the organization, one a minute back from now, statuses and
     * triggers taking turns (for the bench's list at 100,000 jobs).
     */
    'many-jobs': async ({ slug, count }) => {
      const { organizationId, repositoryId } = organization(slug);
      const statuses = ['passed', 'failed', 'passed', 'errored', 'passed', 'cancelled'] as const;
      const triggers = ['cli', 'web', 'schedule', 'codehost', 'chat'] as const;
      const now = Date.now();
      for (let start = 0; start < Number(count); start += 5000) {
        const rows = Array.from({ length: Math.min(5000, Number(count) - start) }, (_, offset) => {
          const n = start + offset;
          const createdAt = new Date(now - (n + 1) * 60_000);
          return jobRow(organizationId, repositoryId, {
            status: statuses[n % statuses.length], trigger: triggers[n % triggers.length], task: `Check that item ${n} is listed`,
            createdAt, updatedAt: createdAt, startedAt: createdAt, finishedAt: new Date(createdAt.getTime() + 4000),
          });
        });
        await insertJobRows(deps.store, rows);
      }
      // A bulk insert leaves InnoDB's index statistics stale until its background recount, which a table grown a job
      // at a time has long had: without it the optimizer picks another index for a while (pages 10-80 ms, not 1-3).
      await deps.store.query('ANALYZE TABLE jobs');
    },
    /**
     * A long job made from a finished run (`{ sourceJobId, events, screenshots }` → `{ jobId }`): its steps repeated
     * to that many events and screenshots (test/support/large-job.ts).
     */
    'large-job': async ({ sourceJobId, events, screenshots }) => ({
      jobId: await cloneIntoLargeJob(deps.store, String(sourceJobId), { events: Number(events), screenshots: Number(screenshots) }),
    }),
  };
}
