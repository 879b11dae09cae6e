import { DEFAULT_BROWSER_EXECUTABLE_PATH, type Config, type DatabaseConfig, type PlannerConfig } from '../../src/config.js';

/** No chat receiver: what `loadConfig` gives with no CHAT_* variable set. */
export const NO_CHAT: Config['chat'] = {
  signingSecret: undefined,
  botToken: undefined,
  appToken: undefined,
  clientId: undefined,
  clientSecret: undefined,
  stateSecret: undefined,
  tokenKey: undefined,
  apiUrl: 'https://slack.com/api/',
  authorizeUrl: 'https://slack.com/oauth/v2/authorize',
  receiptRetentionHours: 72,
};

/** No code-host receiver: what `loadConfig` gives with no CODEHOST_* variable set. */
export const NO_CODEHOST: Config['codehost'] = {
  webhookSecret: undefined,
  previousWebhookSecret: undefined,
  appId: undefined,
  privateKey: undefined,
  apiUrl: 'https://api.github.com',
  botName: undefined,
};

/** No identity receiver: what `loadConfig` gives with no IDENTITY_WEBHOOK_* variable set. */
export const NO_IDENTITY_WEBHOOKS: Config['identityWebhooks'] = { signingSecret: undefined, previousSigningSecret: undefined };

/** The spec's webhook receipt lease (ten minutes) and a sweep every minute: what `loadConfig` gives by default. */
export const DEFAULT_WEBHOOKS: Config['webhooks'] = { leaseMs: 600_000, sweepIntervalMs: 60_000 };

/** What `loadConfig` gives for onboarding's catalog builds by default. */
export const DEFAULT_CATALOG: Config['catalog'] = { maxBuilds: 10, maxConcurrency: 2, pollMs: 5_000 };
/** Onboarding's fetches with no extra CA and, of an empty environment, nothing for git. */
export const NO_ONBOARDING_FETCH: Config['onboardingFetch'] = { extraCaFile: undefined, gitEnvironment: {} };

/** Sign-in off: what `loadConfig` gives with no IDENTITY_* variable set. */
export const NO_IDENTITY: Config['identity'] = {
  issuerUrl: undefined,
  clientId: undefined,
  clientSecret: undefined,
  publicBaseUrl: 'http://127.0.0.1:3000',
  sessionIdleMinutes: 120,
  sessionAbsoluteHours: 24,
};

type Groups = { [Group in Exclude<keyof Config, 'database' | 'planner'>]?: Partial<Config[Group]> } & {
  database?: DatabaseConfig;
  planner?: PlannerConfig;
};

/**
 * A `Config` for a service composed inside a test (src/compose), as `loadConfig` would give it with nothing set,
 * each group changed by `groups`. The store is usually handed over as an override, so `database` is then unused.
 */
export function testConfig(groups: Groups = {}): Config {
  return {
    database: groups.database ?? { kind: 'sqlite', path: ':memory:' },
    http: { host: '127.0.0.1', port: 0, ...groups.http },
    log: { level: 'silent', format: 'json', ...groups.log },
    queue: { pollIntervalMs: 250, lockLifetimeMs: 600_000, redisUrl: undefined, ...groups.queue },
    worker: { concurrency: 4, shutdownGraceMs: 30_000, ...groups.worker },
    artifacts: { dir: './data/artifacts', ...groups.artifacts },
    browser: {
      executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH,
      navigationTimeoutMs: 30_000,
      stepTimeoutMs: 10_000,
      runTimeLimitMs: 600_000,
      wsEndpoint: undefined,
      egressProxyHost: '127.0.0.1',
      ...groups.browser,
    },
    repositories: { excludedOwners: [], ...groups.repositories },
    client: { apiUrl: 'http://127.0.0.1:3000', apiKey: undefined, ...groups.client },
    probes: { allowCidrs: [], ...groups.probes },
    planner: groups.planner ?? { kind: 'rule' },
    notify: { minIntervalMs: 1_500, publicBaseUrl: 'http://127.0.0.1:3000', ...groups.notify },
    chat: { ...NO_CHAT, ...groups.chat },
    codehost: { ...NO_CODEHOST, ...groups.codehost },
    identityWebhooks: { ...NO_IDENTITY_WEBHOOKS, ...groups.identityWebhooks },
    webhooks: { ...DEFAULT_WEBHOOKS, ...groups.webhooks },
    identity: { ...NO_IDENTITY, ...groups.identity },
    catalog: { ...DEFAULT_CATALOG, ...groups.catalog },
    onboardingFetch: { ...NO_ONBOARDING_FETCH, ...groups.onboardingFetch },
    metrics: { enabled: true, port: undefined, token: undefined, organizationLabel: false, ...groups.metrics },
  };
}
