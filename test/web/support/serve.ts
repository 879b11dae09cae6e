/**
 * The whole service as the dashboard's end-to-end tests meet it, in one process started with tsx (Playwright's own
 * TypeScript loader cannot load the TypeORM entities' decorators): MariaDB (a database of its own, rebuilt), the API
 * with sign-in against the fake identity provider and the identity receiver, a worker running jobs in real Chromium,
 * and the demo app as the site under test. Seeded: organization `acme` (an API key, a repository on the demo app, an
 * active check) and `globex` (the same, the organization nobody signed in belongs to).
 *
 * Beside it, a control server on loopback for what a test cannot do through the service's own doors: say who the
 * fake provider signs in next, and put rows in the store (test/web/support/control.ts is its client). It prints one
 * line `READY <json of ServiceInfo>` when everything answers, and stops on SIGTERM or SIGINT.
 *
 * By hand, to look at the dashboard: `npx tsx test/web/support/serve.ts` (then open the printed URL; sign in as
 * `admin_1` with `curl -XPOST <control>/sign-in-as -d '{"sub":"admin_1"}'`, or see docs/dashboard.md).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { DataSource } from 'typeorm';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { startFakeIdentityProvider } from '../../fakes/identity-provider.js';
import { startDemoApp } from '../../fixtures/demo-app/index.js';
import { listenOnLoopback } from '../../fixtures/loopback.js';
import { startTestApi } from '../../support/api-server.js';
import { insertCheck, insertRepository } from '../../support/check-fixtures.js';
import { baseTestDatabaseUrl, openWorkerMysqlStore } from '../../support/databases.js';
import { putInDirectory } from '../../support/directory-rows.js';
import { startTestWorker } from '../../support/qa-worker.js';
import { freePort } from '../../support/signed-in-browser.js';
import { controlActions } from './control-actions.js';
import type { OrganizationInfo, ServiceInfo } from './service-info.js';

export const WEBHOOK_SECRET = 'dashboard-e2e-identity-secret';

function databaseUrl(): string {
  const url = new URL(baseTestDatabaseUrl());
  url.pathname = `${url.pathname.replace(/\/$/, '') || '/qa_test'}_web`;
  return url.href;
}

async function seedOrganization(store: DataSource, slug: string, demoUrl: string): Promise<OrganizationInfo> {
  const created = await createApiKey(store, slug, 'dashboard e2e');
  const organizationId = created.organization.id;
  const repositoryId = await insertRepository(store, organizationId, { baseUrl: demoUrl, owner: slug, name: 'shop' });
  const checkId = await insertCheck(store, organizationId, repositoryId, 'active');
  return { slug, organizationId, key: created.key, repositoryId, checkId };
}

function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        resolve(chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {});
      } catch (error) {
        reject(error as Error);
      }
    });
    req.on('error', reject);
  });
}

const store = await openWorkerMysqlStore(databaseUrl(), undefined);
const demo = await startDemoApp({ port: 0 });
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const idp = await startFakeIdentityProvider({ redirectUri: `${base}/auth/callback` });
const worker = await startTestWorker(store, { concurrency: 2, forbiddenOrigins: [`127.0.0.1:${port}`] });
const api = await startTestApi(store, {
  port,
  artifacts: worker.artifacts,
  identity: { issuerUrl: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, publicBaseUrl: base, sessionIdleMinutes: 120 },
  identityWebhooks: { signingSecret: WEBHOOK_SECRET },
});
const organizations = {
  acme: await seedOrganization(store, 'acme', demo.url),
  globex: await seedOrganization(store, 'globex', demo.url),
};
const actions = controlActions({ store, idp, organizations, putInDirectory, insertRepository, insertCheck, artifacts: worker.artifacts, demoUrl: demo.url });

const control = createServer((req, res) => {
  const name = (req.url ?? '/').slice(1);
  const action = actions[name];
  if (req.method !== 'POST' || action === undefined) {
    res.writeHead(404).end();
    return;
  }
  readJson(req)
    .then((body) => action(body))
    .then((result) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result ?? {})))
    .catch((error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error instanceof Error ? error.stack : error)));
});
const controlServer = await listenOnLoopback(control);
const controlUrl = controlServer.url;

const info: ServiceInfo = { base, controlUrl, demoUrl: demo.url, webhookSecret: WEBHOOK_SECRET, organizations };
process.stdout.write(`READY ${JSON.stringify(info)}\n`);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await controlServer.close();
  await api.close();
  await worker.stop();
  await idp.close();
  await demo.close();
  await store.destroy();
  process.exit(0);
}
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
