import { beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright';
import { createFileArtifactStorage } from '../../../src/artifacts/file-storage.js';
import { CHROMIUM_ARGS } from '../../../src/browser/browser-pool.js';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../../src/config.js';
import { Artifact } from '../../../src/store/entities/artifact.entity.js';
import { storeArtifact } from '../../../src/workflows/run-records.js';
import { callApi } from '../../support/api-server.js';
import { seedAcmeShop, type AcmeShop } from '../../support/check-fixtures.js';
import { useTestStore } from '../../support/dialects.js';
import { putInDirectory } from '../../support/directory-rows.js';
import { insertJobRows, jobRow } from '../../support/job-rows.js';
import { signIn, usePeopleService } from '../../support/people-service.js';
import { TestBrowser } from '../../support/signed-in-browser.js';

/** A real trace: Playwright's own tracing of a click on a small page. */
async function recordTrace(browser: Browser, path: string): Promise<void> {
  const context = await browser.newContext();
  await context.tracing.start({ screenshots: true, snapshots: true });
  const page = await context.newPage();
  await page.setContent('<main><h1>Pricing</h1><button onclick="this.textContent = \'Chosen\'">Choose the Team plan</button></main>');
  await page.getByRole('button', { name: 'Choose the Team plan' }).click();
  await context.tracing.stop({ path });
  await context.close();
}

// MySQL only: serving the viewer and a trace file is HTTP and the browser; the job reads behind it run on both
// dialects in test/integration/api/jobs.test.ts.
describe('trace viewer', () => {
  const store = useTestStore('mysql');
  const folder = mkdtempSync(join(tmpdir(), 'qa-trace-viewer-'));
  const artifacts = createFileArtifactStorage(join(folder, 'artifacts'));
  const service = usePeopleService(store, { artifacts });
  const base = () => service().base;
  let shop: AcmeShop;

  beforeEach(async () => {
    shop = await seedAcmeShop(store());
    await putInDirectory(store(), 'member_1', [{ serviceOrganizationId: shop.organizationId, name: 'Acme', role: 'member' }]);
  });

  it('serves the viewer from this origin under its own policy, and opens a job\'s trace with the signed-in person\'s session', async () => {
    const chrome = await chromium.launch({ executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH, args: CHROMIUM_ARGS });
    try {
      const tracePath = join(folder, 'trace.zip');
      await recordTrace(chrome, tracePath);
      const job = jobRow(shop.organizationId, shop.repositoryId, { status: 'passed' });
      await insertJobRows(store(), [job]);
      const artifact = await storeArtifact(artifacts, shop.organizationId, job.id, { kind: 'trace', name: 'trace.zip', contentType: 'application/zip', content: await readFile(tracePath), stepIndex: null });
      await store().getRepository(Artifact).insert(artifact);
      const view = await callApi(base(), 'GET', `/api/jobs/${job.id}`, undefined, shop.key);
      const downloadPath = (view.body.artifacts as { kind: string; downloadPath: string }[]).find((entry) => entry.kind === 'trace')!.downloadPath;

      // The policy: this origin only, the inline script by its hash, no 'unsafe-inline' or 'unsafe-eval' for scripts.
      const index = await fetch(`${base()}/trace/index.html`);
      expect(index.status).toBe(200);
      const policy = index.headers.get('content-security-policy')!;
      const directives = Object.fromEntries(policy.split(';').map((part) => part.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
      expect(directives['script-src']).toEqual(["'self'", expect.stringMatching(/^'sha256-[A-Za-z0-9+/]+=*'$/)]);
      expect(directives['connect-src']).toEqual(["'self'", 'blob:', 'data:']);
      expect(policy).not.toMatch(/https?:|\*/);
      expect((await fetch(`${base()}/trace/sw.bundle.js`)).headers.get('content-type')).toMatch(/javascript/);
      expect((await fetch(`${base()}/trace/nothing-here.js`)).status).toBe(404);

      const visitor = new TestBrowser();
      await signIn(service(), visitor, 'member_1');
      const context = await chrome.newContext();
      await context.addCookies([...visitor.cookiesOf(new URL(base()).host)].map(([name, value]) => ({ name, value, url: base() })));
      const page = await context.newPage();
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
      });
      const traceUrl = `${base()}${downloadPath}`;
      await page.goto(`${base()}/trace/index.html?trace=${encodeURIComponent(traceUrl)}`);
      // The action list shows the recorded click, read from the zip the service worker fetched with the cookie.
      await page.getByText("getByRole('button', { name: 'Choose the Team plan' })").first().waitFor({ timeout: 20_000 });
      for (const action of ['Create page', 'Set content', 'Click']) expect(await page.getByText(action, { exact: true }).count()).toBeGreaterThan(0);
      // The page as it was, rendered by the service worker into the sandboxed snapshot frame of snapshot.html.
      await page.getByText('Click', { exact: true }).first().click();
      const snapshotText = async () => {
        const snapshots = page.frames().filter((frame) => frame.url().includes('/trace/snapshot/'));
        return (await Promise.all(snapshots.map((frame) => frame.locator('body').innerText({ timeout: 1_000 }).catch(() => '')))).join('\n');
      };
      // Bounded by the test's timeout; never asserted on time.
      while (!(await snapshotText()).includes('Pricing')) await page.waitForTimeout(100);
      expect(await snapshotText()).toContain('Choose the Team plan');
      expect(violations).toEqual([]);
      await context.close();

      // Without a session the same download is refused, so the viewer opens nothing.
      const stranger = await chrome.newContext();
      const strangerPage = await stranger.newPage();
      const download = await strangerPage.request.get(traceUrl);
      expect(download.status()).toBe(401);
      await stranger.close();
    } finally {
      await chrome.close();
    }
  }, 60_000);
});
