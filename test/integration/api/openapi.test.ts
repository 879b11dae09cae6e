import { describe, expect, it } from '@jest/globals';
import { createHmac, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { AccessState } from '../../../src/identity/access-state.js';
import { csrfTokenFor } from '../../../src/identity/secret-tokens.js';
import { createSessionStore } from '../../../src/identity/sessions.js';
import { NOT_IN_DOCUMENT } from '../../../src/api/openapi/not-in-document.js';
import { connectInstallation } from '../../../src/store/repository-admission.js';
import { seedAcmeShop } from '../../support/check-fixtures.js';
import { useTestStore } from '../../support/dialects.js';
import { expressRoutes } from '../../support/express-routes.js';
import { useTestApi } from '../../support/use-test-api.js';

const CODEHOST_SECRET = 'codehost-webhook-secret';

/** The document's paths as Express writes them: `{id}` → `:id`. */
const expressPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
  components: { schemas: Record<string, unknown> };
}

/**
 * The document's schema of one answer as a zod schema, built from the served JSON (z.fromJSONSchema), so what is
 * checked is what a client reads, not the zod objects it was generated from. Component refs become `$defs`.
 */
function answerSchema(document: OpenApiDocument, schema: unknown): z.ZodType {
  const json = JSON.stringify({ ...(schema as object), $defs: document.components.schemas }).replaceAll('"#/components/schemas/', '"#/$defs/');
  return z.fromJSONSchema(JSON.parse(json) as Parameters<typeof z.fromJSONSchema>[0], { defaultTarget: 'draft-2020-12' });
}

/** The document path that an actual request path is (a static segment wins over a parameter: `/updates` over `/{id}`). */
function documentedPath(document: OpenApiDocument, actual: string): string | undefined {
  const matches = Object.keys(document.paths).filter((template) =>
    new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`).test(actual),
  );
  return matches.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))[0];
}

describe('the OpenAPI document', () => {
  const store = useTestStore('mysql');
  let organizationId = '';
  /** A person the directory has as an admin of acme (the organization seeded in each test). */
  const readAccess = async (): Promise<AccessState> => ({
    state: 'ready',
    user: { id: 'ada', email: 'ada@acme.test', name: 'Ada' },
    organizations: [{ id: organizationId, name: 'acme', role: 'admin' }],
  });
  const api = useTestApi(store, {
    readAccess,
    // Every optional part on, so every route the service can have is mounted. Nothing here is contacted.
    identity: { issuerUrl: 'http://127.0.0.1:9/', clientId: 'qa', clientSecret: 'secret' },
    identityWebhooks: { signingSecret: 'identity-secret' },
    codehost: { webhookSecret: CODEHOST_SECRET },
    chat: { signingSecret: 'chat-secret', clientId: 'client', clientSecret: 'client-secret', stateSecret: 'state-secret' },
  });

  it('documents every route of the app, and nothing the app does not have', async () => {
    const document = (await (await fetch(`${api.base}/api/openapi.json`)).json()) as OpenApiDocument;
    const documented = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${expressPath(path)}`));
    const left = NOT_IN_DOCUMENT.map(({ method, path }) => `${method} ${path}`);
    const routes = expressRoutes(api.app).map(({ method, path }) => `${method} ${path}`);
    expect(routes.length).toBeGreaterThan(60);
    expect(routes.filter((route) => !documented.includes(route) && !left.includes(route))).toEqual([]);
    expect(documented.filter((route) => !routes.includes(route))).toEqual([]);
    expect(left.filter((route) => !routes.includes(route))).toEqual([]);
    expect(documented.filter((route) => left.includes(route))).toEqual([]);
  });
});
