/**
 * A pull request replays what its change touches (issue 28): signed `pull_request` deliveries to the API, a worker
 * composed as `qa worker` is (the real Octokit client listing the changed files from the fake code host, the PR sink
 * posting each run's comment and check run there), and coverage from a CoverageSource over fixed flows and links.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SelectionCoverage } from '../../../src/core/check-selection.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { ConnectedRepository } from '../../../src/store/entities/connected-repository.entity.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { WebhookReceipt } from '../../../src/store/entities/webhook-receipt.entity.js';
import { connectInstallation } from '../../../src/store/repository-admission.js';
import type { CoverageSource } from '../../../src/webhooks/codehost/pull-request-selection.js';
import { startFakeCodehost, type FakeCodehost, type FakePullFile } from '../../fakes/codehost-api.js';
import { insertCheck, insertRepository } from '../../support/check-fixtures.js';
import { examplePayload, signedDelivery } from '../../support/codehost-deliveries.js';
import { useTestService } from '../../support/test-service.js';
import { APP_ID, APP_KEYS, BOT_NAME, summaryOf, until } from '../notify/pull-request-fixtures.js';

const SECRET = 'codehost-webhook-secret-for-selection-tests';
const INSTALLATION = 42;
const REPO = 'Codertocat/Hello-World';
const BASE_URL = 'http://127.0.0.1:9';

/** The recorded `pull_request.opened` of Codertocat/Hello-World, as PR `number` at `sha` through our installation. */
function opened(number: number, sha: string): Record<string, unknown> {
  const body = examplePayload('pull_request', 'opened') as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a payload edited field by field
  body.installation = { id: INSTALLATION };
  body.number = number;
  body.pull_request = { ...body.pull_request, number, draft: false, updated_at: '2026-03-01T10:00:00Z', head: { ...body.pull_request.head, sha, repo: body.pull_request.base.repo } };
  return body;
}

// MySQL only: selection is the changed files (the code host's pages) against coverage this test supplies; no store
// code of its own. Pull-request runs from the same deliveries run on both dialects in pull-request-runs.test.ts.
describe('pull requests replay what the change touches', () => {
  let fake: FakeCodehost;
  /** What onboarding would have stored, by repository; a repository missing here has no coverage. */
  const coverageByRepository = new Map<string, SelectionCoverage>();
  const coverage: CoverageSource = { coverageOf: ({ repositoryId }) => Promise.resolve(coverageByRepository.get(repositoryId) ?? null) };

  beforeAll(async () => {
    fake = await startFakeCodehost({ appId: APP_ID, publicKey: APP_KEYS.publicKey, botName: BOT_NAME });
    fake.addInstallation(INSTALLATION);
  });
  // No browser: each run errors at once, and its final comment and check run are posted.
  const service = useTestService('mysql', {
    api: { codehost: { webhookSecret: SECRET } },
    worker: () => ({
      concurrency: 4,
      executablePath: '/nonexistent/chromium',
      codehost: { appId: APP_ID, privateKey: APP_KEYS.privateKey, apiUrl: fake.url, botName: BOT_NAME },
      notify: { minIntervalMs: 100, publicBaseUrl: 'https://qa.example.com' },
      coverage,
    }),
  });
  const { store } = service;
  // Declared after the service, so it runs after the worker stopped posting.
  afterAll(async () => {
    await fake?.close();
  });

  /** acme's Codertocat/Hello-World with three active checks: sign in, cart, search; and the flows they cover. */
  async function seed(options: { coverage?: boolean; alwaysRun?: 'cart' } = {}) {
    const db = store();
    const { organization } = await createApiKey(db, 'acme');
    await connectInstallation(db, 'codehost', String(INSTALLATION), 'acme');
    const repositoryId = await insertRepository(db, organization.id, { providerInstallationId: String(INSTALLATION), owner: 'Codertocat', name: 'Hello-World', baseUrl: BASE_URL, pullRequestSettings: null });
    const signIn = await insertCheck(db, organization.id, repositoryId, 'active', 'Sign in as the demo user');
    const cart = await insertCheck(db, organization.id, repositoryId, 'active', 'Add the Desk Lamp to the cart');
    const search = await insertCheck(db, organization.id, repositoryId, 'active', 'Search for lamps');
    if (options.alwaysRun) await db.getRepository(ConnectedRepository).update({ id: repositoryId }, { pullRequestSettings: { alwaysRun: [cart] } });
    if (options.coverage !== false) {
      coverageByRepository.set(repositoryId, {
        flows: [
          { key: 'sign-in', name: 'Sign in', files: ['src/pages/login.tsx', 'src/lib/auth.ts'] },
          { key: 'cart', name: 'Add a product to the cart', files: ['src/pages/product/[id].tsx', 'src/components/CartButton.tsx'] },
          { key: 'search', name: 'Search', files: ['src/pages/search.tsx'] },
        ],
        links: [
          { flowKey: 'sign-in', checkId: signIn },
          { flowKey: 'cart', checkId: cart },
          { flowKey: 'search', checkId: search },
        ],
      });
    }
    return { repositoryId, signIn, cart, search };
  }

  async function deliver(number: number, files: FakePullFile[] | null, sha = randomUUID().replace(/-/g, '').padEnd(40, '0').slice(0, 40)): Promise<Job[]> {
    if (files) fake.setPullFiles(REPO, number, files);
    const deliveryId = randomUUID();
    const signed = await signedDelivery(SECRET, 'pull_request', opened(number, sha), deliveryId);
    const response = await fetch(`${service.api.base}/api/webhooks/codehost`, { method: 'POST', headers: signed.headers, body: signed.body });
    expect(response.status).toBe(202);
    await until(async () => (await store().getRepository(WebhookReceipt).findOneBy({ deliveryId }))?.status === 'completed');
    return store().getRepository(Job).find({ where: { commitSha: sha }, order: { createdAt: 'ASC' } });
  }

  const filesRequests = (number: number) => fake.requests.filter((request) => request.path.startsWith(`/repos/${REPO}/pulls/${number}/files`));

  it("replays only the checks of the flow whose file changed, and each run's comment and check run say why and how many were skipped", async () => {
    const { search } = await seed();

    const jobs = await deliver(101, [{ filename: 'src/pages/search.tsx' }, { filename: 'README.md' }]);

    expect(jobs.map((job) => job.checkId)).toEqual([search]);
    expect(jobs[0]!.channelContext).toMatchObject({ selection: { mode: 'touched', ran: 1, skipped: 2, why: ['covers the flow "Search", whose file changed: src/pages/search.tsx'] } });
    const jobId = jobs[0]!.id;
    const comment = await until(() => fake.comments.find((candidate) => candidate.body.includes(jobId) && candidate.body.includes('Errored')));
    expect(comment.body).toContain('**Why it ran:** covers the flow "Search", whose file changed: src/pages/search.tsx');
    expect(comment.body).toContain('<sub>1 check of 3 ran: the change touches 1 flow \\("Search"\\); 2 skipped.</sub>');
    const run = await until(() => fake.checkRuns.find((candidate) => candidate.external_id === jobId && candidate.status === 'completed'));
    expect(summaryOf(run)).toContain('**Why it ran:** covers the flow "Search"');
    expect(summaryOf(run)).toContain('2 skipped.');
  });

  it('counts a rename under its old name too, and adds the always-run checks', async () => {
    const { signIn, cart } = await seed({ alwaysRun: 'cart' });

    const jobs = await deliver(102, [{ filename: 'src/pages/sign-in.tsx', status: 'renamed', previous_filename: 'src/pages/login.tsx' }]);

    expect(jobs.map((job) => job.checkId).sort()).toEqual([signIn, cart].sort());
    const why = Object.fromEntries(jobs.map((job) => [job.checkId, (job.channelContext as { selection: { why: string[] } }).selection.why]));
    expect(why[cart]).toEqual(['marked always-run in the repository settings']);
    expect(why[signIn]).toEqual(['covers the flow "Sign in", whose file changed: src/pages/login.tsx']);
  });

  it('replays every check when a shared file changed, and names it', async () => {
    const { signIn, cart, search } = await seed();

    const jobs = await deliver(103, [{ filename: 'src/pages/search.tsx' }, { filename: 'package-lock.json' }]);

    expect(jobs.map((job) => job.checkId).sort()).toEqual([signIn, cart, search].sort());
    expect(jobs[0]!.channelContext).toMatchObject({ selection: { mode: 'all', reason: 'every check ran: shared file changed (package-lock.json)', ran: 3, skipped: 0 } });
  });

  it('replays every check of a repository with no coverage, without asking the code host for the files', async () => {
    const { signIn, cart, search } = await seed({ coverage: false });

    const jobs = await deliver(104, [{ filename: 'README.md' }]);

    expect(jobs.map((job) => job.checkId).sort()).toEqual([signIn, cart, search].sort());
    expect(jobs[0]!.channelContext).toMatchObject({ selection: { mode: 'all', reason: 'every check ran: the repository has no coverage links yet' } });
    expect(filesRequests(104)).toEqual([]);
  });

  it("replays every check when the list reaches the code host's 3,000-file cap, reading it page by page", async () => {
    const { signIn, cart, search } = await seed();
    const files = Array.from({ length: 3_200 }, (_, i) => ({ filename: `docs/page-${i}.md` }));

    const jobs = await deliver(105, files);

    expect(jobs.map((job) => job.checkId).sort()).toEqual([signIn, cart, search].sort());
    expect(jobs[0]!.channelContext).toMatchObject({ selection: { mode: 'all', reason: expect.stringContaining('at most 3,000 changed files') } });
    // 100 a page, as the client asks: 30 pages, and none after the cap.
    expect(filesRequests(105)).toHaveLength(30);
  });

  it('reads every page of a long list that stays under the cap, so a flow file on the last page still counts', async () => {
    const { cart } = await seed();
    const files = [...Array.from({ length: 250 }, (_, i) => ({ filename: `docs/page-${i}.md` })), { filename: 'src/components/CartButton.tsx' }];

    const jobs = await deliver(106, files);

    expect(jobs.map((job) => job.checkId)).toEqual([cart]);
    expect(filesRequests(106)).toHaveLength(3);
  });

  it('runs nothing for a change that touches no flow, and says so once on the head commit with the skipped count', async () => {
    await seed();
    const sha = 'c'.repeat(40);

    expect(await deliver(107, [{ filename: 'README.md' }, { filename: 'docs/setup.md' }], sha)).toEqual([]);
    // A redelivery under a new id posts no second notice.
    expect(await deliver(107, [{ filename: 'README.md' }, { filename: 'docs/setup.md' }], sha)).toEqual([]);

    const notices = fake.checkRuns.filter((run) => run.head_sha === sha);
    expect(notices).toEqual([expect.objectContaining({ name: 'QA: no checks affected', status: 'completed', conclusion: 'skipped', external_id: `qa-selection:${sha}` })]);
    expect(notices[0]!.output).toEqual({ title: 'No QA check affected: 3 skipped', summary: '0 checks of 3 ran: the change touches no known flow; 3 skipped.' });
  });
});
