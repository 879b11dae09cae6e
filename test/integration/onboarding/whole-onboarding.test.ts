/**
 * A whole onboarding, as a team connects a repository: the express-shop fixture repository served over HTTPS (a test
 * CA, as NODE_EXTRA_CA_CERTS gives it) and the same shop running as `baseUrl`; `POST /api/repositories` with a real
 * worker composed as `qa worker` (its real steps: git, the indexer, the crawl in Chromium, discovery, coverage, the
 * builds) ends with routes, flows, edge cases, coverage links and passing child checks, all read through the API.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { createIngestionReads } from '../../../src/repos/ingestion-reads.js';
import { selectionCoverageOf } from '../../../src/repos/stored-coverage.js';
import { Check } from '../../../src/store/entities/check.entity.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { connectInstallation } from '../../../src/store/repository-admission.js';
import { startFakeGitHost, type FakeGitHost } from '../../fakes/git-https-server.js';
import { createTestRepository, type FileContent } from '../../fixtures/git-repositories.js';
// The fixture is plain JavaScript, run as the web app that onboarding's end-to-end tests browse.
// @ts-expect-error -- no types for the fixture's JavaScript
import { startExpressShop } from '../../fixtures/repos/express-shop/server.js';
import { createTestCertificates } from '../../fixtures/tls/test-certificates.js';
import { callApi } from '../../support/api-server.js';
import { useTestService } from '../../support/test-service.js';

const SHOP = 'test/fixtures/repos/express-shop';

async function filesOf(dir: string): Promise<Record<string, FileContent>> {
  const files: Record<string, FileContent> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[relative(dir, path)] = await readFile(path, 'utf8');
  }
  return files;
}

interface Shop {
  url: string;
  orders: unknown[];
  messages: unknown[];
  close(): Promise<void>;
}

type Answer = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON read field by field

describe('onboarding a repository, end to end', () => {
  let scratch: string;
  let caFile: string;
  let gitHost: FakeGitHost;
  let shop: Shop;
  let key: string;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'qa-whole-onboarding-'));
    const certificates = await createTestCertificates();
    caFile = join(scratch, 'test-ca.pem');
    await writeFile(caFile, certificates.ca);
    await createTestRepository(join(scratch, 'repos'), 'acme/shop.git', [await filesOf(SHOP)]);
    gitHost = await startFakeGitHost({ key: certificates.key, cert: certificates.cert, projectRoot: join(scratch, 'repos') });
    shop = (await startExpressShop({ port: 0 })) as Shop;
  });

  const service = useTestService('mysql', { worker: () => ({
    onboardingFetch: { extraCaFile: caFile },
    catalog: { maxBuilds: 4, maxConcurrency: 2 },
    // The shop's demo account, as a team configures it (README of the fixture): sign-in flows need it.
    secrets: { SHOP_EMAIL: 'shopper@example.com', SHOP_PASSWORD: 'correct-horse' },
  }) });

  beforeAll(async () => {
    key = (await createApiKey(service.store(), 'acme')).key;
    await connectInstallation(service.store(), 'codehost', '42', 'acme');
  });

  afterAll(async () => {
    await shop?.close();
    await gitHost?.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('connects, fetches, indexes, crawls, discovers flows and edge cases, links coverage and builds passing checks', async () => {
    const connected = await callApi(service.api.base, 'POST', '/api/repositories', {
      provider: 'codehost', providerInstallationId: '42', owner: 'acme', name: 'shop', defaultBranch: 'main',
      cloneUrl: `${gitHost.url}/acme/shop.git`, baseUrl: shop.url,
      testValueSecretRefs: { email: 'SHOP_EMAIL', password: 'SHOP_PASSWORD' },
    }, key);
    expect(connected.status).toBe(202);
    const { repositoryId, ingestionRunId } = connected.body as Answer;

    let ingestion: Answer = {};
    for (const deadline = Date.now() + 240_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 500))) {
      ingestion = (await callApi(service.api.base, 'GET', `/api/ingestions/${ingestionRunId}`, undefined, key)).body as Answer;
      if (ingestion.status === 'succeeded' || ingestion.status === 'failed') break;
    }
    expect([ingestion.status, ingestion.error ?? null]).toEqual(['succeeded', null]);
    expect(ingestion.commitSha).toMatch(/^[0-9a-f]{40}$/);
    expect(ingestion.counts.routes).toBeGreaterThanOrEqual(5);
    expect(ingestion.counts.flows).toBeGreaterThanOrEqual(3);
    expect(ingestion.counts.edgeCases).toBeGreaterThanOrEqual(1);
    // Every build passed: a failing one is shown with its task and findings.
    const failedBuilds = [];
    for (const build of (ingestion.builds as Answer[]).filter((each) => each.status !== 'built')) {
      const job = (await callApi(service.api.base, 'GET', `/api/jobs/${build.jobId}`, undefined, key)).body as Answer;
      failedBuilds.push({ flow: build.flowKey, task: job.job.naturalLanguageTask, findings: (job.findings as Answer[]).map((finding) => finding.title), questions: job.job.resolution?.questions });
    }
    expect(failedBuilds).toEqual([]);
    expect(ingestion.counts.buildsPassed).toBeGreaterThanOrEqual(3);
    expect(ingestion.counts.builds).toBeLessThanOrEqual(4);

    const coverage = (await callApi(service.api.base, 'GET', `/api/repositories/${repositoryId}/coverage`, undefined, key)).body as Answer;
    expect(coverage.summary.coveredFlows).toBeGreaterThanOrEqual(1);
    const covered = (coverage.flows as Answer[]).filter((flow) => flow.covered);
    expect(covered.every((flow) => (flow.checks as Answer[]).length > 0)).toBe(true);
    expect((coverage.flows as Answer[]).some((flow) => (flow.files as string[] | undefined)?.some((file) => file.startsWith('routes/')) ?? false)).toBe(true);

    // The builds are child jobs of the ingestion with trigger system, and each passing one left an active check.
    const children = await service.store().getRepository(Job).findBy({ ingestionRunId });
    expect(children.length).toBe(ingestion.counts.builds);
    expect(children.every((child) => child.trigger === 'system')).toBe(true);
    const passed = children.filter((child) => child.status === 'passed');
    expect(passed.length).toBe(ingestion.counts.buildsPassed);
    const checks = await service.store().getRepository(Check).findBy({ repositoryId, status: 'active' });
    expect(checks.length).toBeGreaterThanOrEqual(passed.length);
    // What pull requests choose their checks by (the composition's CoverageSource): the same flows, files and links.
    const stored = selectionCoverageOf(await createIngestionReads(service.store()).repositoryCoverage({ organizationId: children[0]!.organizationId, repositoryId }));
    expect(stored?.flows.map((flow) => flow.key).sort()).toEqual((coverage.flows as Answer[]).map((flow) => flow.key).sort());
    expect(stored?.links.length).toBe(covered.reduce((sum, flow) => sum + (flow.checks as Answer[]).length, 0));
    // Nothing was bought or sent while onboarding: the side effects stop before their step.
    expect(shop.orders).toEqual([]);
    expect(shop.messages).toEqual([]);
  });
});
