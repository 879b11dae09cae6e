/**
 * Discovery's port as the composition root builds it (src/compose/onboarding.ts), with the planner `loadConfig`
 * chooses: with PLANNER=openai the discovered flows are named by the model (a real local HTTP server speaking the
 * chat-completions wire format), and what each flow runs stays the rules'; a model that fails leaves the rules'
 * names and onboarding goes on; the rule planner asks nobody.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createBrowserPool, type BrowserPool } from '../../../src/browser/browser-pool.js';
import { createOnboardingPorts } from '../../../src/compose/onboarding.js';
import { loadConfig } from '../../../src/config.js';
import { discoverFlows } from '../../../src/onboarding/discover/discover-flows.js';
import type { CrawledPage, RepositoryIndex } from '../../../src/onboarding/model.js';
import { createPlanner } from '../../../src/planner/create-planner.js';
import type { OnboardingRepository } from '../../../src/workflows/onboarding.js';
import { startFakeChatCompletions, type FakeChatCompletions } from '../../support/fake-chat-completions.js';
import { silentLogger } from '../../support/logger.js';
import { field, index, page, route } from '../../unit/onboarding/discover-support.js';

const REPOSITORY: OnboardingRepository = {
  id: '01930000-0000-7000-8000-000000000001',
  organizationId: '01930000-0000-7000-8000-000000000002',
  provider: 'github',
  providerInstallationId: 'local',
  owner: 'acme',
  name: 'shop',
  defaultBranch: 'main',
  cloneUrl: 'https://git.example.test/acme/shop.git',
  baseUrl: 'http://127.0.0.1:9/',
  networkAllowlist: [],
};

// A shop as the index and the crawl see it: a sign-in form, a search form and a contact form.
const INDEX: RepositoryIndex = index([
  route('/login', ['src/pages/login.tsx'], { forms: [{ file: 'src/pages/login.tsx', action: null, method: 'POST', fields: [field('Email', 'email', { required: true }), field('Password', 'password', { required: true })], submitLabel: 'Sign in' }] }),
  route('/search', ['src/pages/search.tsx'], { forms: [{ file: 'src/pages/search.tsx', action: null, method: 'GET', fields: [field('Search products')], submitLabel: 'Search' }] }),
  route('/contact', ['src/pages/contact.tsx'], { forms: [{ file: 'src/pages/contact.tsx', action: null, method: 'POST', fields: [field('Your message', 'textarea', { required: true })], submitLabel: 'Send message' }] }),
]);
const PAGES: CrawledPage[] = [
  page('/login', 'Sign in', { forms: [{ fields: [field('Email', 'email', { required: true }), field('Password', 'password', { required: true })], submitLabel: 'Sign in', method: 'POST', action: null }] }),
  page('/search', 'Search', { forms: [{ fields: [field('Search products')], submitLabel: 'Search', method: 'GET', action: null }] }),
  page('/contact', 'Contact us', { forms: [{ fields: [field('Your message', 'textarea', { required: true })], submitLabel: 'Send message', method: 'POST', action: null }] }),
];

describe('discovery with the planner the configuration chooses', () => {
  let fake: FakeChatCompletions;
  let browsers: BrowserPool;
  const ruleFlows = discoverFlows({ index: INDEX, pages: PAGES });
  const discover = (env: Record<string, string>) => {
    const config = loadConfig({ SQLITE_PATH: '/tmp/unused.sqlite', ...env });
    const ports = createOnboardingPorts({ config, logger: silentLogger(), browsers, codehost: undefined, planner: createPlanner(config.planner) });
    return ports.discover({ repository: REPOSITORY, index: INDEX, pages: PAGES, signal: new AbortController().signal });
  };
  const withModel = () => ({ PLANNER: 'openai', PLANNER_URL: fake.url, PLANNER_MODEL: 'gpt-4o-mini', PLANNER_API_KEY: 'sk-test-Discover4Names', PLANNER_TIMEOUT_MS: '5000' });

  beforeAll(async () => {
    fake = await startFakeChatCompletions();
    // Discovery never opens it (the crawl is its own port); the ports take one, as the worker's.
    browsers = createBrowserPool({ executablePath: '/usr/bin/chromium-headless-shell', navigationTimeoutMs: 5_000 }, silentLogger());
  });
  beforeEach(() => fake.reset());
  afterAll(async () => {
    await browsers?.close();
    await fake?.close();
  });

  it('finds the forms by rules first', () => {
    expect(ruleFlows.map((flow) => flow.name)).toEqual(expect.arrayContaining(['Sign in']));
    expect(ruleFlows.length).toBeGreaterThanOrEqual(3);
  });

  it('with a model planner, takes its names and descriptions and nothing else', async () => {
    // The model answers from what it was sent: a name for every flow, and an attempt to change what one runs.
    fake.respond((body) => {
      const { flows } = JSON.parse(body.messages[1].content as string) as { flows: { key: string; name: string; entryPath: string }[] };
      return { content: { flows: flows.map((flow) => ({ key: flow.key, name: `${flow.name} (${flow.entryPath})`, description: `Everything about ${flow.entryPath}.` })) } };
    });
    const flows = await discover(withModel());
    expect(fake.requests).toHaveLength(1);
    expect(flows.map((flow) => flow.key)).toEqual(ruleFlows.map((flow) => flow.key));
    for (const [i, flow] of flows.entries()) {
      const rules = ruleFlows[i]!;
      expect(flow).toEqual({ ...rules, name: `${rules.name} (${rules.entryPath})`, description: `Everything about ${rules.entryPath}.`, namedBy: 'model' });
    }
  });

  it('keeps the rules\' names when the model fails, and goes on', async () => {
    fake.script({ status: 500, errorCode: 'server_error' }, { status: 500, errorCode: 'server_error' });
    const flows = await discover(withModel());
    expect(fake.requests).toHaveLength(2);
    expect(flows).toEqual(ruleFlows);
  });

  it('with the rule planner, asks no model', async () => {
    expect(await discover({ PLANNER: 'rule' })).toEqual(ruleFlows);
    expect(fake.requests).toHaveLength(0);
  });
});
