import { describe, expect, it } from '@jest/globals';
import { loadConfig, type Config } from '../../src/config.js';
import { isAppError } from '../../src/core/errors.js';
import { DEFAULT_WEBHOOKS, DEFAULT_CATALOG, NO_ONBOARDING_FETCH, NO_CHAT, NO_CODEHOST, NO_IDENTITY, NO_IDENTITY_WEBHOOKS } from '../support/service-config.js';

function configError(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env, { isTTY: false });
  } catch (error) {
    if (isAppError(error) && error.code === 'config.invalid') return error.message;
    throw error;
  }
  throw new Error('expected loadConfig to throw');
}

describe('loadConfig', () => {
  it('gives every variable its documented default', () => {
    const expected: Config = {
      database: { kind: 'sqlite', path: './data/qa.sqlite' },
      http: { host: '127.0.0.1', port: 3000 },
      log: { level: 'info', format: 'json' },
      queue: { pollIntervalMs: 250, lockLifetimeMs: 600_000, redisUrl: undefined },
      worker: { concurrency: 4, shutdownGraceMs: 30_000 },
      artifacts: { dir: './data/artifacts' },
      browser: { executablePath: '/usr/bin/chromium-headless-shell', navigationTimeoutMs: 30_000, stepTimeoutMs: 10_000, runTimeLimitMs: 600_000, wsEndpoint: undefined, egressProxyHost: '127.0.0.1' },
      repositories: { excludedOwners: [] },
      client: { apiUrl: 'http://127.0.0.1:3000', apiKey: undefined },
      probes: { allowCidrs: [] },
      planner: { kind: 'rule' },
      notify: { minIntervalMs: 1_500, publicBaseUrl: 'http://127.0.0.1:3000' },
      chat: NO_CHAT,
      codehost: NO_CODEHOST,
      identityWebhooks: NO_IDENTITY_WEBHOOKS,
      webhooks: DEFAULT_WEBHOOKS,
      catalog: DEFAULT_CATALOG,
      onboardingFetch: NO_ONBOARDING_FETCH,
      identity: NO_IDENTITY,
      metrics: { enabled: true, port: 9464, token: undefined, organizationLabel: false },
    };
    expect(loadConfig({}, { isTTY: false })).toEqual(expected);
  });

  it('logs pretty in a terminal and JSON elsewhere, unless LOG_FORMAT says otherwise', () => {
    expect(loadConfig({}, { isTTY: true }).log.format).toBe('pretty');
    expect(loadConfig({}, { isTTY: false }).log.format).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'json' }, { isTTY: true }).log.format).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }, { isTTY: false }).log.format).toBe('pretty');
  });

  it('reads every variable into its group', () => {
    const config = loadConfig(
      {
        DATABASE_URL: 'mysql://qa:s3cret@db.internal:3307/qa_prod',
        SQLITE_PATH: '/ignored/when/mysql.sqlite',
        HOST: '0.0.0.0',
        PORT: '8080',
        LOG_LEVEL: 'debug',
        LOG_FORMAT: 'json',
        REDIS_URL: 'redis://cache:6379/2',
        QUEUE_POLL_INTERVAL_MS: '100',
        QUEUE_LOCK_LIFETIME_MS: '60000',
        WORKER_CONCURRENCY: '8',
        ARTIFACTS_DIR: '/var/lib/qa/artifacts',
        BROWSER_EXECUTABLE_PATH: '/opt/chromium/chrome',
        BROWSER_NAVIGATION_TIMEOUT_MS: '15000',
        BROWSER_STEP_TIMEOUT_MS: '5000',
        RUN_TIME_LIMIT_MS: '120000',
        BROWSER_WS_ENDPOINT: 'wss://grid.internal:3000/playwright?token=t0k3n',
        BROWSER_EGRESS_PROXY_HOST: '10.0.0.5',
        SHUTDOWN_GRACE_MS: '0',
        EXCLUDED_OWNERS: ' Evil-Corp, spam-bot ,',
        QA_API_URL: 'https://qa.example.com/service/',
        QA_API_KEY: 'qa_0123456789ab_secret',
        PROBE_ALLOW_CIDRS: ' 127.0.0.1/32, fd00::/8 ,',
        PLANNER: 'openai',
        PLANNER_URL: 'https://llm.example.com/v1/',
        PLANNER_MODEL: 'gpt-4o-mini',
        PLANNER_API_KEY: 'sk-test-0123456789',
        PLANNER_TIMEOUT_MS: '15000',
        PUBLIC_BASE_URL: 'https://qa.example.com/service/',
        NOTIFY_MIN_INTERVAL_MS: '3000',
        CODEHOST_WEBHOOK_SECRET: 'codehost-secret',
        CODEHOST_WEBHOOK_SECRET_PREVIOUS: 'codehost-secret-old',
        CODEHOST_APP_ID: '4711',
        CODEHOST_PRIVATE_KEY: '/etc/qa/codehost-app.pem',
        CODEHOST_API_URL: 'https://git.example.com/api/v3/',
        CODEHOST_BOT_NAME: 'qa-bot',
        IDENTITY_WEBHOOK_SIGNING_SECRET: 'identity-secret',
        IDENTITY_WEBHOOK_SECRET_PREVIOUS: 'identity-secret-old',
        WEBHOOK_LEASE_MS: '5000',
        WEBHOOK_SWEEP_INTERVAL_MS: '250',
        METRICS_ENABLED: '0',
        METRICS_PORT: '9464',
        METRICS_TOKEN: 'metrics-token-0123456789',
        METRICS_ORG_LABEL: '1',
      },
      { isTTY: true },
    );
    expect(config).toEqual({
      database: { kind: 'mysql', url: 'mysql://qa:s3cret@db.internal:3307/qa_prod' },
      http: { host: '0.0.0.0', port: 8080 },
      log: { level: 'debug', format: 'json' },
      queue: { pollIntervalMs: 100, lockLifetimeMs: 60_000, redisUrl: 'redis://cache:6379/2' },
      worker: { concurrency: 8, shutdownGraceMs: 0 },
      artifacts: { dir: '/var/lib/qa/artifacts' },
      browser: {
        executablePath: '/opt/chromium/chrome',
        navigationTimeoutMs: 15_000,
        stepTimeoutMs: 5_000,
        runTimeLimitMs: 120_000,
        wsEndpoint: 'wss://grid.internal:3000/playwright?token=t0k3n',
        egressProxyHost: '10.0.0.5',
      },
      repositories: { excludedOwners: ['evil-corp', 'spam-bot'] },
      client: { apiUrl: 'https://qa.example.com/service', apiKey: 'qa_0123456789ab_secret' },
      probes: { allowCidrs: ['127.0.0.1/32', 'fd00::/8'] },
      planner: { kind: 'openai', url: 'https://llm.example.com/v1', model: 'gpt-4o-mini', apiKey: 'sk-test-0123456789', timeoutMs: 15_000 },
      notify: { minIntervalMs: 3_000, publicBaseUrl: 'https://qa.example.com/service' },
      chat: NO_CHAT,
      codehost: {
        webhookSecret: 'codehost-secret',
        previousWebhookSecret: 'codehost-secret-old',
        appId: 4711,
        privateKey: '/etc/qa/codehost-app.pem',
        apiUrl: 'https://git.example.com/api/v3',
        botName: 'qa-bot',
      },
      identityWebhooks: { signingSecret: 'identity-secret', previousSigningSecret: 'identity-secret-old' },
      webhooks: { leaseMs: 5_000, sweepIntervalMs: 250 },
      catalog: { maxBuilds: 10, maxConcurrency: 2, pollMs: 5_000 },
      onboardingFetch: NO_ONBOARDING_FETCH,
      identity: { ...NO_IDENTITY, publicBaseUrl: 'https://qa.example.com/service' },
      metrics: { enabled: false, port: 9464, token: 'metrics-token-0123456789', organizationLabel: true },
    });
  });

  it('refuses metrics settings out of their range, and never echoes the token', () => {
    const problems = configError({ METRICS_ENABLED: 'yes', METRICS_PORT: '65536', METRICS_TOKEN: 'short-secret', METRICS_ORG_LABEL: 'true' });
    for (const expected of ['METRICS_ENABLED must be 0 or 1', 'METRICS_PORT must be an integer between 0 and 65535', 'METRICS_TOKEN must be at least 16 characters', 'METRICS_ORG_LABEL must be 0 or 1']) {
      expect(problems).toContain(expected);
    }
    expect(problems).not.toContain('short-secret');
  });

  it('reads sign-in settings, wants the issuer and its client together, and https unless the issuer is on loopback', () => {
    const identity = loadConfig({
      IDENTITY_ISSUER_URL: 'https://auth.example.com/',
      IDENTITY_CLIENT_ID: 'qa-client',
      IDENTITY_CLIENT_SECRET: 'client-secret',
      IDENTITY_SESSION_IDLE_MINUTES: '30',
      IDENTITY_SESSION_ABSOLUTE_HOURS: '12',
      PUBLIC_BASE_URL: 'https://qa.example.com',
    }).identity;
    expect(identity).toEqual({
      issuerUrl: 'https://auth.example.com',
      clientId: 'qa-client',
      clientSecret: 'client-secret',
      publicBaseUrl: 'https://qa.example.com',
      sessionIdleMinutes: 30,
      sessionAbsoluteHours: 12,
    });
    expect(loadConfig({ IDENTITY_ISSUER_URL: 'http://127.0.0.1:4000', IDENTITY_CLIENT_ID: 'c', IDENTITY_CLIENT_SECRET: 's' }).identity.issuerUrl).toBe('http://127.0.0.1:4000');
    const partial = configError({ IDENTITY_ISSUER_URL: 'https://auth.example.com', IDENTITY_CLIENT_SECRET: 'do-not-echo' });
    expect(partial).toContain('IDENTITY_CLIENT_ID must be set with IDENTITY_ISSUER_URL, IDENTITY_CLIENT_SECRET (sign-in)');
    expect(partial).not.toContain('do-not-echo');
    expect(configError({ IDENTITY_ISSUER_URL: 'http://auth.example.com', IDENTITY_CLIENT_ID: 'c', IDENTITY_CLIENT_SECRET: 's' })).toContain('IDENTITY_ISSUER_URL must be a URL like https://auth.example.com');
  });

  it('uses SQLite at SQLITE_PATH when DATABASE_URL is unset or empty, and accepts mariadb:// URLs', () => {
    expect(loadConfig({ DATABASE_URL: '', SQLITE_PATH: '/tmp/x.sqlite' }).database).toEqual({
      kind: 'sqlite',
      path: '/tmp/x.sqlite',
    });
    expect(loadConfig({ DATABASE_URL: 'mariadb://root@127.0.0.1/qa' }).database.kind).toBe('mysql');
  });

  it('refuses an excluded-owners list with something that is not an owner name, naming the variable', () => {
    expect(() => loadConfig({ EXCLUDED_OWNERS: 'ok-owner, not/an owner' })).toThrow(/EXCLUDED_OWNERS must be a comma-separated list/);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', LOG_LEVEL: '' }, { isTTY: false })).toMatchObject({
      http: { port: 3000 },
      log: { level: 'info' },
    });
  });

  it('ignores variables it does not know', () => {
    expect(() => loadConfig({ PATH: '/usr/bin', SOMETHING_ELSE: 'x' })).not.toThrow();
  });

  it.each([
    ['PORT', 'abc', 'PORT must be an integer between 1 and 65535 (got "abc")'],
    ['PORT', '0', 'PORT must be an integer between 1 and 65535 (got "0")'],
    ['PORT', '65536', 'PORT must be an integer between 1 and 65535 (got "65536")'],
    ['PORT', '80.5', 'PORT must be an integer between 1 and 65535 (got "80.5")'],
    ['PORT', ' 80', 'PORT must be an integer between 1 and 65535 (got " 80")'],
    ['QUEUE_POLL_INTERVAL_MS', '5', 'QUEUE_POLL_INTERVAL_MS must be an integer between 10 and 3600000 (got "5")'],
    ['QUEUE_LOCK_LIFETIME_MS', '1e6', 'QUEUE_LOCK_LIFETIME_MS must be an integer between 1000 and 86400000 (got "1e6")'],
    ['WORKER_CONCURRENCY', '0', 'WORKER_CONCURRENCY must be an integer between 1 and 256 (got "0")'],
    ['SHUTDOWN_GRACE_MS', '-1', 'SHUTDOWN_GRACE_MS must be an integer between 0 and 3600000 (got "-1")'],
    ['LOG_LEVEL', 'verbose', 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")'],
    ['LOG_FORMAT', 'text', 'LOG_FORMAT must be json or pretty (got "text")'],
    ['HOST', '   ', 'HOST must not be blank (got "   ")'],
    ['SQLITE_PATH', ' ', 'SQLITE_PATH must not be blank (got " ")'],
    ['ARTIFACTS_DIR', ' ', 'ARTIFACTS_DIR must not be blank (got " ")'],
    ['REDIS_URL', 'http://cache:6379', 'REDIS_URL must be a URL like redis://127.0.0.1:6379 (got "http://cache:6379/")'],
    ['QA_API_URL', 'ftp://qa.example', 'QA_API_URL must be a URL like http://127.0.0.1:3000 (got "ftp://qa.example/")'],
    ['QA_API_URL', 'http://qa.example/?x=1', 'QA_API_URL must be a URL like http://127.0.0.1:3000 (got "http://qa.example/?x=1")'],
    ['QA_API_URL', 'ftp://qa:hunter2@qa.example', 'QA_API_URL must be a URL like http://127.0.0.1:3000 (got "ftp://qa:***@qa.example/")'],
    ['QA_API_URL', 'qa.example:3000', 'QA_API_URL must be a URL like http://127.0.0.1:3000 (got a value that is not a URL)'],
    ['QA_API_KEY', '  ', 'QA_API_KEY must not be blank (got "  ")'],
    ['PLANNER', 'gpt', 'PLANNER must be rule or openai (got "gpt")'],
    ['PLANNER_TIMEOUT_MS', '999', 'PLANNER_TIMEOUT_MS must be an integer between 1000 and 600000 (got "999")'],
    ['PLANNER_URL', 'ftp://llm.example/v1', 'PLANNER_URL must be a URL like https://api.openai.com/v1 (got "ftp://llm.example/v1")'],
    ['PLANNER_URL', 'https://llm.example/v1?key=1', 'PLANNER_URL must be a URL like https://api.openai.com/v1 (got "https://llm.example/v1?key=1")'],
    ['PLANNER_URL', 'llm.example/v1', 'PLANNER_URL must be a URL like https://api.openai.com/v1 (got a value that is not a URL)'],
    ['PLANNER_MODEL', ' ', 'PLANNER_MODEL must not be blank (got " ")'],
    ['WEBHOOK_LEASE_MS', '999', 'WEBHOOK_LEASE_MS must be an integer between 1000 and 86400000 (got "999")'],
    ['WEBHOOK_SWEEP_INTERVAL_MS', '50', 'WEBHOOK_SWEEP_INTERVAL_MS must be an integer between 100 and 3600000 (got "50")'],
    ['CODEHOST_APP_ID', 'my-app', 'CODEHOST_APP_ID must be an integer between 1 and 9007199254740991 (got "my-app")'],
    ['CODEHOST_PRIVATE_KEY', '  ', 'CODEHOST_PRIVATE_KEY must not be blank (got a value that is not shown)'],
    ['CODEHOST_API_URL', 'ftp://git.example/api/v3', 'CODEHOST_API_URL must be a URL like https://api.github.com (got "ftp://git.example/api/v3")'],
    ['CODEHOST_API_URL', 'https://git.example/api/v3?x=1', 'CODEHOST_API_URL must be a URL like https://api.github.com (got "https://git.example/api/v3?x=1")'],
    ['CODEHOST_BOT_NAME', 'qa bot', 'CODEHOST_BOT_NAME must be a code-host login (letters, digits, hyphens) (got "qa bot")'],
    ['BROWSER_WS_ENDPOINT', 'http://grid.internal:3000/?token=t0k3n', 'BROWSER_WS_ENDPOINT must be a URL like ws://browsers.internal:3000/playwright (got a value that is not shown)'],
    ['BROWSER_WS_ENDPOINT', 'grid.internal:3000', 'BROWSER_WS_ENDPOINT must be a URL like ws://browsers.internal:3000/playwright (got a value that is not shown)'],
    [
      'BROWSER_EGRESS_PROXY_HOST',
      '0.0.0.0',
      'BROWSER_EGRESS_PROXY_HOST must be an address (or host name) of this machine that the browser can reach, such as 127.0.0.1 or 10.0.0.5, not a wildcard like 0.0.0.0 (got "0.0.0.0")',
    ],
    [
      'BROWSER_EGRESS_PROXY_HOST',
      'http://10.0.0.5',
      'BROWSER_EGRESS_PROXY_HOST must be an address (or host name) of this machine that the browser can reach, such as 127.0.0.1 or 10.0.0.5, not a wildcard like 0.0.0.0 (got "http://10.0.0.5")',
    ],
    [
      'PROBE_ALLOW_CIDRS',
      '127.0.0.1/32, 10.0.0.1/8, localhost',
      'PROBE_ALLOW_CIDRS must be comma-separated CIDR ranges: "10.0.0.1/8" has bits set past its /8 prefix (did you mean 10.0.0.0/8?); ' +
        '"localhost" is not an IPv4 or IPv6 range like 127.0.0.1/32 or fd00::/8 (got "127.0.0.1/32, 10.0.0.1/8, localhost")',
    ],
  ])('names %s and what it expects when it is %j', (name, value, message) => {
    expect(configError({ [name]: value })).toBe(`Invalid configuration: ${message}`);
  });

  it('rejects a DATABASE_URL that is not mysql://…/<safe name>, without echoing its password', () => {
    const expects = 'DATABASE_URL must be a URL like mysql://user:password@127.0.0.1:3306/qa';
    expect(configError({ DATABASE_URL: 'postgres://qa:hunter2@db/qa' })).toBe(
      `Invalid configuration: ${expects} (database name: letters, digits, _ $ -) (got "postgres://qa:***@db/qa")`,
    );
    expect(configError({ DATABASE_URL: 'mysql://qa:hunter2@db/' })).toContain('(got "mysql://qa:***@db/")');
    expect(configError({ DATABASE_URL: 'mysql://db/qa;drop' })).toContain(expects);
    expect(configError({ DATABASE_URL: 'mysql:qa:hunter2@db' })).not.toContain('hunter2');
    expect(configError({ DATABASE_URL: 'qa:hunter2@db' })).toBe(
      `Invalid configuration: ${expects} (database name: letters, digits, _ $ -) (got a value that is not a URL)`,
    );
  });

  describe('the planner', () => {
    const openai = { PLANNER: 'openai', PLANNER_URL: 'https://api.openai.com/v1', PLANNER_MODEL: 'gpt-4o-mini', PLANNER_API_KEY: 'sk-live-abcdef' };

    it('is the rule planner unless PLANNER=openai; with openai it takes URL (without trailing slashes), model, key and timeout', () => {
      expect(loadConfig({ PLANNER_URL: 'https://api.openai.com/v1' }).planner).toEqual({ kind: 'rule' });
      expect(loadConfig({ PLANNER: 'rule', PLANNER_API_KEY: 'sk-live-abcdef' }).planner).toEqual({ kind: 'rule' });
      expect(loadConfig(openai).planner).toEqual({ kind: 'openai', url: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: 'sk-live-abcdef', timeoutMs: 60_000 });
      expect(loadConfig({ ...openai, PLANNER_URL: 'http://127.0.0.1:8080/v1//' }).planner).toMatchObject({ url: 'http://127.0.0.1:8080/v1' });
    });

    it('with PLANNER=openai, names each missing variable of URL, model and key', () => {
      expect(configError({ PLANNER: 'openai' })).toBe(
        'Invalid configuration: PLANNER_URL must be set when PLANNER=openai (got nothing); ' +
          'PLANNER_MODEL must be set when PLANNER=openai (got nothing); PLANNER_API_KEY must be set when PLANNER=openai (got nothing)',
      );
      expect(configError({ ...openai, PLANNER_MODEL: '' })).toBe('Invalid configuration: PLANNER_MODEL must be set when PLANNER=openai (got nothing)');
    });

    it('never echoes the API key, and masks a password in PLANNER_URL', () => {
      const blank = configError({ ...openai, PLANNER_API_KEY: '   ' });
      expect(blank).toBe('Invalid configuration: PLANNER_API_KEY must not be blank (got a value that is not shown)');
      const wrong = configError({ ...openai, PLANNER_URL: 'ftp://user:hunter2@llm.example/v1', PORT: 'x' });
      expect(wrong).toContain('PLANNER_URL must be a URL like https://api.openai.com/v1 (got "ftp://user:***@llm.example/v1")');
      expect(wrong).not.toContain('hunter2');
      expect(wrong).not.toContain('sk-live-abcdef');
    });
  });

  it('takes a remote browser at a ws:// or wss:// BROWSER_WS_ENDPOINT, and an egress proxy address the browser can reach', () => {
    expect(loadConfig({ BROWSER_WS_ENDPOINT: 'ws://127.0.0.1:9222/abc' }).browser).toMatchObject({ wsEndpoint: 'ws://127.0.0.1:9222/abc', egressProxyHost: '127.0.0.1' });
    expect(loadConfig({ BROWSER_EGRESS_PROXY_HOST: 'worker-1.internal' }).browser.egressProxyHost).toBe('worker-1.internal');
    expect(loadConfig({ BROWSER_EGRESS_PROXY_HOST: 'fd00::5' }).browser.egressProxyHost).toBe('fd00::5');
    expect(configError({ BROWSER_EGRESS_PROXY_HOST: '::' })).toContain('not a wildcard like 0.0.0.0 (got "::")');
    // A grid's token may be in the endpoint's path or query: a wrong endpoint is named, never echoed.
    const wrong = configError({ BROWSER_WS_ENDPOINT: 'https://user:hunter2@grid.internal/ws?token=t0k3n' });
    expect(wrong).toContain('BROWSER_WS_ENDPOINT must be a URL like ws://');
    expect(wrong).not.toMatch(/hunter2|t0k3n/);
  });

  it('lists every wrong variable at once', () => {
    const message = configError({ PORT: 'x', WORKER_CONCURRENCY: 'many' });
    expect(message).toMatch(/^Invalid configuration: PORT must be .*; WORKER_CONCURRENCY must be /);
  });

  describe('chat', () => {
    it('reads the Slack settings, a hex or base64 token key, and adds the trailing slash of the API base', () => {
      const hexKey = 'ab'.repeat(32);
      const config = loadConfig(
        {
          CHAT_SIGNING_SECRET: 'signing',
          CHAT_BOT_TOKEN: 'xoxb-1-2-abc',
          CHAT_APP_TOKEN: 'xapp-1-A1-2-def',
          CHAT_CLIENT_ID: '1.2',
          CHAT_CLIENT_SECRET: 'client-secret',
          CHAT_STATE_SECRET: 'a-state-secret-of-16+',
          CHAT_TOKEN_KEY: hexKey,
          CHAT_API_URL: 'http://127.0.0.1:9999/api',
        },
        { isTTY: false },
      );
      expect(config.chat).toMatchObject({ signingSecret: 'signing', botToken: 'xoxb-1-2-abc', appToken: 'xapp-1-A1-2-def', clientId: '1.2', apiUrl: 'http://127.0.0.1:9999/api/' });
      expect(config.chat.tokenKey).toEqual(Buffer.from(hexKey, 'hex'));
      expect(loadConfig({ CHAT_TOKEN_KEY: Buffer.alloc(32, 7).toString('base64'), CHAT_CLIENT_ID: 'x', CHAT_CLIENT_SECRET: 'y', CHAT_STATE_SECRET: 'z'.repeat(16) }, { isTTY: false }).chat.tokenKey).toEqual(Buffer.alloc(32, 7));
    });

    it('refuses wrong tokens and keys without echoing them', () => {
      const message = configError({ CHAT_BOT_TOKEN: 'xapp-wrong-kind', CHAT_APP_TOKEN: 'xoxb-wrong-kind', CHAT_TOKEN_KEY: 'c2hvcnQ=', CHAT_CLIENT_ID: 'x', CHAT_CLIENT_SECRET: 'y', CHAT_STATE_SECRET: 'z'.repeat(16) });
      expect(message).toContain('CHAT_BOT_TOKEN must be a bot token');
      expect(message).toContain('CHAT_APP_TOKEN must be an app-level token');
      expect(message).toContain('CHAT_TOKEN_KEY must be 32 bytes');
      expect(message).not.toContain('wrong-kind');
      expect(message).not.toContain('c2hvcnQ');
    });

    it('links to http://HOST:PORT by default: loopback for a wildcard HOST, an IPv6 address in brackets', () => {
      const base = (env: NodeJS.ProcessEnv) => loadConfig(env, { isTTY: false }).notify.publicBaseUrl;
      expect(base({ HOST: 'qa.internal', PORT: '8080' })).toBe('http://qa.internal:8080');
      expect(base({ HOST: '0.0.0.0', PORT: '8080' })).toBe('http://127.0.0.1:8080');
      expect(base({ HOST: '::' })).toBe('http://[::1]:3000');
      expect(base({ HOST: '0:0:0:0:0:0:0:0' })).toBe('http://[::1]:3000');
      expect(base({ HOST: 'fd00::5', PORT: '8080' })).toBe('http://[fd00::5]:8080');
      expect(base({ HOST: '0.0.0.0', PUBLIC_BASE_URL: 'https://qa.example.com/' })).toBe('https://qa.example.com');
      for (const host of ['0.0.0.0', '::', 'fd00::5']) expect(() => new URL(base({ HOST: host }))).not.toThrow();
    });

    it('refuses a PUBLIC_BASE_URL with a query or fragment (links are built under it) and a NOTIFY_MIN_INTERVAL_MS out of range', () => {
      expect(configError({ PUBLIC_BASE_URL: 'https://qa.example.com/?x=1' })).toContain('PUBLIC_BASE_URL must be a URL like https://qa.example.com');
      expect(configError({ PUBLIC_BASE_URL: 'https://qa.example.com/#top' })).toContain('PUBLIC_BASE_URL must be a URL like https://qa.example.com');
      expect(configError({ NOTIFY_MIN_INTERVAL_MS: 'soon' })).toMatch(/NOTIFY_MIN_INTERVAL_MS must be an integer/);
      expect(configError({ NOTIFY_MIN_INTERVAL_MS: '10' })).toMatch(/NOTIFY_MIN_INTERVAL_MS must be an integer/);
    });

    it('reads CHAT_RECEIPT_RETENTION_HOURS and refuses one shorter than an hour (Slack still retries then) or not a whole number', () => {
      expect(loadConfig({ CHAT_RECEIPT_RETENTION_HOURS: '6' }).chat.receiptRetentionHours).toBe(6);
      for (const bad of ['0', '0.5', 'forever', '8761']) {
        expect(configError({ CHAT_RECEIPT_RETENTION_HOURS: bad })).toMatch(/CHAT_RECEIPT_RETENTION_HOURS must be an integer between 1 and 8760/);
      }
    });

    it('needs every OAuth setting once one is given', () => {
      const message = configError({ CHAT_CLIENT_ID: '1.2' });
      for (const name of ['CHAT_CLIENT_SECRET', 'CHAT_STATE_SECRET', 'CHAT_TOKEN_KEY']) expect(message).toContain(`${name} must be set with CHAT_CLIENT_ID`);
    });
  });
});
