/**
 * The only reader of `process.env`. Everything else receives the typed `Config` (or one of its groups) from
 * the CLI through `src/compose`; tests build config objects directly. Every variable is documented in
 * docs/configuration.md, generated from these names and defaults and src/cli/config-reference.ts (`npm run docs:config`).
 */
import { isIP } from 'node:net';
import * as z from 'zod';
import { AppError, ErrorCode } from './core/errors.js';
import { parseCidr, splitCidrList } from './probes/cidr.js';
import { parseMysqlUrl, redactUrl, SAFE_DATABASE_NAME } from './store/mysql-url.js';
import type { DatabaseSettings } from './store/data-source.js';
import { LOG_LEVELS, type LogSettings } from './logger.js';
import type { PlannerSettings } from './planner/create-planner.js';
import type { RepositorySettings } from './repos/repository-service.js';

// The groups a layer below takes are defined by that layer (the config sits above every folder it configures, and
// nothing under src/ but the CLI and the composition root imports it); these are their names here.
export type DatabaseConfig = DatabaseSettings;
export type LogConfig = LogSettings;
export type PlannerConfig = PlannerSettings;
export type RepositoriesConfig = RepositorySettings;
export { LOG_LEVELS };
export type { LogFormat, LogLevel } from './logger.js';

export interface HttpConfig {
  readonly host: string;
  readonly port: number;
}

export interface QueueConfig {
  /** How often a process polls for jobs saved by other processes. */
  readonly pollIntervalMs: number;
  /** How long a claimed job stays locked without `touch()` before another worker may take it. */
  readonly lockLifetimeMs: number;
  /** Optional cross-process notification channel; without it, workers rely on polling. */
  readonly redisUrl: string | undefined;
}

export interface WorkerConfig {
  readonly concurrency: number;
  /** How long `stop()` waits for running work (jobs, in-flight requests) before giving up on it. */
  readonly shutdownGraceMs: number;
}

export interface ArtifactsConfig {
  readonly dir: string;
}

export interface BrowserSettings {
  /** The Chromium binary Playwright drives; nothing is downloaded. */
  readonly executablePath: string;
  /** Per navigation or page action. */
  readonly navigationTimeoutMs: number;
  /** How long one plan step waits for its target or expectation to hold. */
  readonly stepTimeoutMs: number;
  /** A run that takes longer is stopped and fails. */
  readonly runTimeLimitMs: number;
  /** A running Playwright browser server (ws:// or wss://) to connect to instead of launching Chromium. */
  readonly wsEndpoint: string | undefined;
  /** The address the egress proxy listens on and the browser reaches it at. */
  readonly egressProxyHost: string;
}

/** What the CLI's client verbs (`qa jobs`, `qa follow`, `qa answer`, `qa repos`) need to call the REST API. */
export interface ClientConfig {
  /** The service's base URL (http or https), without a trailing slash. */
  readonly apiUrl: string;
  /** The API key sent as `Authorization: Bearer`; unset is an error only for a verb that calls the API. */
  readonly apiKey: string | undefined;
}

export interface ProbesConfig {
  /** Special-purpose ranges (loopback, private, …) evidence probes may reach anyway, as CIDRs; normally none. */
  readonly allowCidrs: readonly string[];
}

/** Progress messages of notified jobs (chat threads): src/notify's settings. */
export interface NotifyConfig {
  /** At most one edit of a job's message per this interval. */
  readonly minIntervalMs: number;
  /** The service's address as people reach it: links in messages point under it. */
  readonly publicBaseUrl: string;
}

/**
 * The Slack bot. Everything is optional: with no CHAT_SIGNING_SECRET and no CHAT_APP_TOKEN the service has no chat
 * receiver and runs as before. Secrets here are never echoed in a config error.
 */
export interface ChatConfig {
  /** Checks the signature of `POST /api/webhooks/chat` (HTTP mode). */
  readonly signingSecret: string | undefined;
  /** Single-workspace mode: the bot token of the one workspace (`xoxb-…`), connected with `qa chat connect`. */
  readonly botToken: string | undefined;
  /** Socket Mode (`xapp-…`): the app opens a WebSocket to Slack instead of receiving HTTP. */
  readonly appToken: string | undefined;
  /** OAuth distribution: the app's client id and secret (both or neither). */
  readonly clientId: string | undefined;
  readonly clientSecret: string | undefined;
  /** Signs the OAuth `state`; required with the client id. */
  readonly stateSecret: string | undefined;
  /** Encrypts installation bot tokens at rest (32 bytes); required with the client id. */
  readonly tokenKey: Buffer | undefined;
  /** Slack's Web API base, ending in `/`. */
  readonly apiUrl: string;
  /** Slack's OAuth authorize page. */
  readonly authorizeUrl: string;
  /**
   * How long a settled delivery's receipt is kept (it is what makes Slack's retries of that delivery no-ops), before
   * the periodic purge deletes it. Unsettled receipts are never purged.
   */
  readonly receiptRetentionHours: number;
}

/**
 * The code host (a GitHub App; headers renamed `x-codehost-*`). With no CODEHOST_WEBHOOK_SECRET the service has no
 * code-host receiver. Secrets here are never echoed in a config error.
 */
export interface CodehostConfig {
  /** Checks `x-codehost-signature-256` on `POST /api/webhooks/codehost`. */
  readonly webhookSecret: string | undefined;
  /** The secret being rotated out: deliveries signed with it are still accepted while the app's setting changes. */
  readonly previousWebhookSecret: string | undefined;
  /** The GitHub App's id: the `iss` of its JWTs. With `privateKey`, the service can call the code host's API. */
  readonly appId: number | undefined;
  /** The app's private key: a PEM, or the path of a PEM file (read by src/codehost). */
  readonly privateKey: string | undefined;
  /** The REST API base; tests point it at a local fake. */
  readonly apiUrl: string;
  /** The app's name as commenters mention it (`@<bot> <task>`). */
  readonly botName: string | undefined;
}

/**
 * The identity provider's webhooks (`POST /api/webhooks/identity`, which keep the access directory). With no
 * IDENTITY_WEBHOOK_SIGNING_SECRET the service has no identity receiver. Secrets here are never echoed in a config error.
 */
export interface IdentityWebhooksConfig {
  /** Checks `x-identity-signature` (`t=<unix ms>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`). */
  readonly signingSecret: string | undefined;
  /** The secret being rotated out: deliveries signed with it are still accepted while the provider's setting changes. */
  readonly previousSigningSecret: string | undefined;
}

/**
 * Durable webhook receipts (src/jobs/webhooks/webhook-receipts.ts), of every provider. The defaults are the spec's (section 8);
 * tests and operators shorten them to see a dead worker's delivery taken over sooner.
 */
export interface WebhooksConfig {
  /** How long a worker holds a receipt it took; after that another worker may take it over (its holder died). */
  readonly leaseMs: number;
  /** How often the sweep queues again expired leases, failed receipts past their back-off and lost queue jobs. */
  readonly sweepIntervalMs: number;
}

/**
 * People signing in (OpenID Connect) and their sessions. With no IDENTITY_ISSUER_URL sign-in is off: `/auth/*` and
 * `/api/session*` answer 404 and only API keys reach the API. Secrets here are never echoed in a config error.
 */
export interface IdentityConfig {
  /** The OpenID provider's issuer; its discovery document is read from `<issuer>/.well-known/openid-configuration`. */
  readonly issuerUrl: string | undefined;
  readonly clientId: string | undefined;
  readonly clientSecret: string | undefined;
  /** PUBLIC_BASE_URL (or its default): the redirect URI, the cookie's flags and the origin CSRF checks expect. */
  readonly publicBaseUrl: string;
  /** A session unused this long ends. */
  readonly sessionIdleMinutes: number;
  /** A session ends this long after sign-in, however much it is used. */
  readonly sessionAbsoluteHours: number;
}

/** How onboarding fetches a repository's revision (src/onboarding/fetch/). */
export interface OnboardingFetchConfig {
  /** Node's NODE_EXTRA_CA_CERTS: git is given the same extra certificate authorities as Node. */
  readonly extraCaFile: string | undefined;
  /** The only variables of this process git sees: where programs are, and the proxy settings. */
  readonly gitEnvironment: Readonly<Record<string, string>>;
}

/** The variables git's HTTPS fetches need from the process's environment (src/onboarding/fetch/ adds git's own). */
const GIT_ENVIRONMENT = ['PATH', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy'] as const;

/** Repository onboarding's child catalog builds (src/workflows/onboarding/build-step.ts). */
export interface CatalogConfig {
  /** Child builds one onboarding starts at most. */
  readonly maxBuilds: number;
  /** Child builds of one onboarding running at once at most. */
  readonly maxConcurrency: number;
  /** How soon an onboarding looks again at its running children, or at a paused capability. */
  readonly pollMs: number;
}

/** Prometheus metrics (docs/operations.md, "Metrics"). */
export interface MetricsConfig {
  /** `GET /metrics` on the HTTP port of `serve` and `start`, and on `port` of a `qa worker`. */
  readonly enabled: boolean;
  /** Where a `qa worker` (which has no HTTP port) answers /metrics, /healthz and /readyz; unset: it does not. */
  readonly port: number | undefined;
  /** When set, /metrics asks for `Authorization: Bearer <token>`. */
  readonly token: string | undefined;
  /** Label job counts by organization slug (tenants' names in the metrics: off by default). */
  readonly organizationLabel: boolean;
}

export interface Config {
  readonly database: DatabaseConfig;
  readonly http: HttpConfig;
  readonly log: LogConfig;
  readonly queue: QueueConfig;
  readonly worker: WorkerConfig;
  readonly artifacts: ArtifactsConfig;
  readonly browser: BrowserSettings;
  readonly repositories: RepositoriesConfig;
  readonly client: ClientConfig;
  readonly probes: ProbesConfig;
  readonly planner: PlannerConfig;
  readonly notify: NotifyConfig;
  readonly chat: ChatConfig;
  readonly codehost: CodehostConfig;
  readonly identityWebhooks: IdentityWebhooksConfig;
  readonly webhooks: WebhooksConfig;
  readonly identity: IdentityConfig;
  readonly catalog: CatalogConfig;
  readonly onboardingFetch: OnboardingFetchConfig;
  readonly metrics: MetricsConfig;
}

export interface LoadConfigOptions {
  /** Whether stdout is a terminal; decides the default LOG_FORMAT. */
  isTTY?: boolean;
}

function integer(min: number, max: number) {
  return z
    .string()
    .refine((raw) => /^[0-9]+$/.test(raw) && Number(raw) >= min && Number(raw) <= max, {
      error: `must be an integer between ${min} and ${max}`,
    })
    .transform(Number);
}

function nonEmpty() {
  return z.string().refine((raw) => raw.trim() !== '', { error: 'must not be blank' });
}

function url(protocols: readonly string[], example: string, check: (url: URL) => boolean = () => true) {
  return z.string().refine(
    (raw) => {
      if (!URL.canParse(raw)) return false;
      const parsed = new URL(raw);
      try {
        return protocols.includes(parsed.protocol) && parsed.hostname !== '' && check(parsed);
      } catch {
        return false; // e.g. a malformed percent-escape in the user name or password
      }
    },
    { error: `must be a URL like ${example}` },
  );
}

/** Addresses that mean "every interface": fine to listen on, but not an address a browser can be sent to. */
const WILDCARD_ADDRESSES: ReadonlySet<string> = new Set(['0.0.0.0', '::', '0:0:0:0:0:0:0:0']);
/** Host names (as URL.hostname gives them) of this machine's loopback. */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/**
 * Debian's `chromium-headless-shell`: Chromium's headless-only build, the one Playwright itself runs for headless
 * Chromium. The full `chromium` works too (BROWSER_EXECUTABLE_PATH=/usr/bin/chromium), but it builds a browser
 * window per context that nobody sees; on bench:runs the shell does the same runs with about 15 % less CPU.
 */
export const DEFAULT_BROWSER_EXECUTABLE_PATH = '/usr/bin/chromium-headless-shell';

/** A code-host owner (user or organization) name. */
export const OWNER_NAME = /^[a-z0-9](?:[a-z0-9-]{0,38})$/i;

const envSchema = z.object({
  DATABASE_URL: url(
    ['mysql:', 'mariadb:'],
    'mysql://user:password@127.0.0.1:3306/qa (database name: letters, digits, _ $ -)',
    (parsed) => SAFE_DATABASE_NAME.test(parseMysqlUrl(parsed.href).database),
  ).optional(),
  SQLITE_PATH: nonEmpty().default('./data/qa.sqlite'),
  HOST: nonEmpty().default('127.0.0.1'),
  PORT: integer(1, 65535).default(3000),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty'], { error: 'must be json or pretty' }).optional(),
  REDIS_URL: url(['redis:', 'rediss:'], 'redis://127.0.0.1:6379').optional(),
  QUEUE_POLL_INTERVAL_MS: integer(10, 3_600_000).default(250),
  QUEUE_LOCK_LIFETIME_MS: integer(1_000, 86_400_000).default(600_000),
  WORKER_CONCURRENCY: integer(1, 256).default(4),
  ARTIFACTS_DIR: nonEmpty().default('./data/artifacts'),
  BROWSER_EXECUTABLE_PATH: nonEmpty().default(DEFAULT_BROWSER_EXECUTABLE_PATH),
  BROWSER_NAVIGATION_TIMEOUT_MS: integer(1_000, 600_000).default(30_000),
  BROWSER_STEP_TIMEOUT_MS: integer(100, 600_000).default(10_000),
  RUN_TIME_LIMIT_MS: integer(1_000, 86_400_000).default(600_000),
  BROWSER_WS_ENDPOINT: url(['ws:', 'wss:'], 'ws://browsers.internal:3000/playwright').optional(),
  BROWSER_EGRESS_PROXY_HOST: z.string().refine((raw) => (isIP(raw) !== 0 ? !WILDCARD_ADDRESSES.has(raw) : HOST_NAME.test(raw)), {
    error: 'must be an address (or host name) of this machine that the browser can reach, such as 127.0.0.1 or 10.0.0.5, not a wildcard like 0.0.0.0',
  }).default('127.0.0.1'),
  SHUTDOWN_GRACE_MS: integer(0, 3_600_000).default(30_000),
  EXCLUDED_OWNERS: z
    .string()
    .transform((raw) => raw.split(',').map((owner) => owner.trim().toLowerCase()).filter(Boolean))
    .refine((owners) => owners.every((owner) => OWNER_NAME.test(owner)), {
      error: 'must be a comma-separated list of code-host owner names (letters, digits, hyphens)',
    })
    .optional(),
  // A path prefix is kept (a service behind a proxy); a query or fragment would end up inside every request path.
  QA_API_URL: url(['http:', 'https:'], 'http://127.0.0.1:3000', (parsed) => parsed.search === '' && parsed.hash === '').default(
    'http://127.0.0.1:3000',
  ),
  QA_API_KEY: nonEmpty().optional(),
  PROBE_ALLOW_CIDRS: z
    .string()
    .transform(splitCidrList)
    .superRefine((cidrs, context) => {
      const problems = cidrs.map(parseCidr).flatMap((parsed) => (parsed.ok ? [] : [parsed.problem]));
      if (problems.length > 0) context.addIssue({ code: 'custom', message: `must be comma-separated CIDR ranges: ${problems.join('; ')}` });
    })
    .optional(),
  PLANNER: z.enum(['rule', 'openai'], { error: 'must be rule or openai' }).default('rule'),
  // The API base: `/chat/completions` is appended, so a query or fragment cannot be kept.
  PLANNER_URL: url(['http:', 'https:'], 'https://api.openai.com/v1', (parsed) => parsed.search === '' && parsed.hash === '').optional(),
  PLANNER_MODEL: nonEmpty().optional(),
  PLANNER_API_KEY: nonEmpty().optional(),
  PLANNER_TIMEOUT_MS: integer(1_000, 600_000).default(60_000),
  // Links in chat messages: a path prefix is kept (a service behind a proxy); a query or fragment would break them.
  PUBLIC_BASE_URL: url(['http:', 'https:'], 'https://qa.example.com', (parsed) => parsed.search === '' && parsed.hash === '').optional(),
  NOTIFY_MIN_INTERVAL_MS: integer(200, 600_000).default(1_500),
  CHAT_SIGNING_SECRET: nonEmpty().optional(),
  CODEHOST_WEBHOOK_SECRET: nonEmpty().optional(),
  CODEHOST_WEBHOOK_SECRET_PREVIOUS: nonEmpty().optional(),
  IDENTITY_WEBHOOK_SIGNING_SECRET: nonEmpty().optional(),
  IDENTITY_WEBHOOK_SECRET_PREVIOUS: nonEmpty().optional(),
  CODEHOST_APP_ID: integer(1, Number.MAX_SAFE_INTEGER).optional(),
  CODEHOST_PRIVATE_KEY: nonEmpty().optional(),
  CODEHOST_API_URL: url(['http:', 'https:'], 'https://api.github.com', (parsed) => parsed.search === '' && parsed.hash === '').default('https://api.github.com'),
  CODEHOST_BOT_NAME: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/, { error: 'must be a code-host login (letters, digits, hyphens)' }).optional(),
  CHAT_BOT_TOKEN: z.string().regex(/^xoxb-[A-Za-z0-9-]+$/, { error: 'must be a bot token (xoxb-…)' }).optional(),
  CHAT_APP_TOKEN: z.string().regex(/^xapp-[A-Za-z0-9-]+$/, { error: 'must be an app-level token (xapp-…) with connections:write' }).optional(),
  CHAT_CLIENT_ID: nonEmpty().optional(),
  CHAT_CLIENT_SECRET: nonEmpty().optional(),
  CHAT_STATE_SECRET: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
  CHAT_TOKEN_KEY: z
    .string()
    .transform((raw) => (/^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64')))
    .refine((key) => key.length === 32, { error: 'must be 32 bytes, as 64 hex digits or base64 (openssl rand -base64 32)' })
    .optional(),
  CHAT_API_URL: url(['http:', 'https:'], 'https://slack.com/api/', (parsed) => parsed.search === '' && parsed.hash === '').default('https://slack.com/api/'),
  CHAT_AUTHORIZE_URL: url(['http:', 'https:'], 'https://slack.com/oauth/v2/authorize').default('https://slack.com/oauth/v2/authorize'),
  // At least an hour: Slack retries a delivery for minutes (3 times, the last about 5 minutes after the first), and a
  // receipt purged before its retries stop would let a retry start the work again.
  CHAT_RECEIPT_RETENTION_HOURS: integer(1, 8_760).default(72),
  // A lease shorter than a second would expire under a healthy worker between its claim and its first statement.
  WEBHOOK_LEASE_MS: integer(1_000, 86_400_000).default(600_000),
  WEBHOOK_SWEEP_INTERVAL_MS: integer(100, 3_600_000).default(60_000),
  METRICS_ENABLED: z.enum(['0', '1'], { error: 'must be 0 or 1' }).default('1'),
  // 9464: the port the Prometheus project lists for exporters of this kind; 0 takes any free port (tests, two workers on one host).
  METRICS_PORT: integer(0, 65535).default(9464),
  // Compared in constant time with the request's bearer token; never echoed in a config error.
  METRICS_TOKEN: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
  METRICS_ORG_LABEL: z.enum(['0', '1'], { error: 'must be 0 or 1' }).default('0'),
  CATALOG_MAX_BUILDS: integer(0, 1_000).default(10),
  CATALOG_MAX_CONCURRENCY: integer(1, 100).default(2),
  ONBOARDING_POLL_MS: integer(50, 600_000).default(5_000),
  NODE_EXTRA_CA_CERTS: nonEmpty().optional(),
  // https, except on loopback (a provider on this machine, as in tests): tokens must not cross a network in clear.
  IDENTITY_ISSUER_URL: url(['http:', 'https:'], 'https://auth.example.com', (parsed) => parsed.protocol === 'https:' || LOOPBACK_HOSTS.has(parsed.hostname)).optional(),
  IDENTITY_CLIENT_ID: nonEmpty().optional(),
  IDENTITY_CLIENT_SECRET: nonEmpty().optional(),
  IDENTITY_SESSION_IDLE_MINUTES: integer(1, 43_200).default(120),
  IDENTITY_SESSION_ABSOLUTE_HOURS: integer(1, 8_760).default(24),
});

export type EnvName = keyof z.input<typeof envSchema>;
const ENV_NAMES = Object.keys(envSchema.shape) as EnvName[];

/** Every variable `loadConfig` reads, in the schema's order (docs/configuration.md is generated from them). */
export const CONFIG_VARIABLES: readonly EnvName[] = ENV_NAMES;

/** The value a variable takes when it is unset, as the schema gives it; undefined when it stays unset. */
export function configDefault(name: EnvName): string | undefined {
  const parsed = envSchema.shape[name].safeParse(undefined);
  return parsed.success && parsed.data !== undefined ? String(parsed.data) : undefined;
}
const URL_VARIABLES: ReadonlySet<string> = new Set<EnvName>(['DATABASE_URL', 'REDIS_URL', 'QA_API_URL', 'PLANNER_URL', 'PUBLIC_BASE_URL', 'CHAT_API_URL', 'CHAT_AUTHORIZE_URL', 'CODEHOST_API_URL', 'IDENTITY_ISSUER_URL']);
/** Never echoed, whatever is wrong with them (a browser grid's token may sit in its endpoint's path or query). */
const SECRET_VARIABLES: ReadonlySet<string> = new Set<EnvName>([
  'PLANNER_API_KEY',
  'BROWSER_WS_ENDPOINT',
  'CHAT_SIGNING_SECRET',
  'CODEHOST_WEBHOOK_SECRET',
  'CODEHOST_WEBHOOK_SECRET_PREVIOUS',
  'IDENTITY_WEBHOOK_SIGNING_SECRET',
  'IDENTITY_WEBHOOK_SECRET_PREVIOUS',
  'CODEHOST_PRIVATE_KEY',
  'CHAT_BOT_TOKEN',
  'CHAT_APP_TOKEN',
  'CHAT_CLIENT_SECRET',
  'CHAT_STATE_SECRET',
  'METRICS_TOKEN',
  'CHAT_TOKEN_KEY',
  'IDENTITY_CLIENT_SECRET',
]);
/** Sign-in needs all of these once any is set. */
const IDENTITY_VARIABLES = ['IDENTITY_ISSUER_URL', 'IDENTITY_CLIENT_ID', 'IDENTITY_CLIENT_SECRET'] as const satisfies readonly EnvName[];
/** OAuth distribution needs all of these once any is set. */
const CHAT_OAUTH_VARIABLES = ['CHAT_CLIENT_ID', 'CHAT_CLIENT_SECRET', 'CHAT_STATE_SECRET', 'CHAT_TOKEN_KEY'] as const satisfies readonly EnvName[];
/** What PLANNER=openai needs besides itself. */
const OPENAI_PLANNER_VARIABLES = ['PLANNER_URL', 'PLANNER_MODEL', 'PLANNER_API_KEY'] as const satisfies readonly EnvName[];

/** The offending value, as the error message may show it: URL passwords are masked, unparsable URLs not echoed. */
function shownValue(name: string, raw: string | undefined): string {
  if (raw === undefined) return 'nothing';
  if (SECRET_VARIABLES.has(name)) return 'a value that is not shown';
  if (!URL_VARIABLES.has(name)) return JSON.stringify(raw);
  // Only a URL with an authority part has a password field to mask; anything else might hide one in its path.
  return URL.canParse(raw) && new URL(raw).host !== '' ? JSON.stringify(redactUrl(raw)) : 'a value that is not a URL';
}

/** The process environment, for entry points that pass it on to `loadConfig` (this module is its only reader). */
export function processEnvironment(): NodeJS.ProcessEnv {
  return process.env;
}

/**
 * Reads and validates the environment once. An empty variable counts as unset. Throws an `AppError`
 * (`config.invalid`) whose message names every wrong variable and what it expects.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: LoadConfigOptions = {}): Config {
  const isTTY = options.isTTY ?? process.stdout.isTTY === true;
  const input: Partial<Record<EnvName, string>> = {};
  for (const name of ENV_NAMES) {
    const value = env[name];
    if (value !== undefined && value !== '') input[name] = value;
  }

  const result = envSchema.safeParse(input);
  const issues = [
    ...(result.success ? [] : result.error.issues.map((issue) => ({ name: String(issue.path[0]), message: issue.message }))),
    ...missingForPlanner(input),
    ...missingForChatOAuth(input),
    ...missingForIdentity(input),
  ];
  if (!result.success || issues.length > 0) {
    const problems = issues.map(({ name, message }) => `${name} ${message} (got ${shownValue(name, input[name as EnvName])})`);
    throw new AppError({
      kind: 'user',
      code: ErrorCode.ConfigInvalid,
      message: `Invalid configuration: ${problems.join('; ')}`,
      details: { variables: issues.map((issue) => issue.name) },
    });
  }

  const vars = result.data;
  const publicBaseUrl = (vars.PUBLIC_BASE_URL ?? listenUrl(vars.HOST, vars.PORT)).replace(/\/+$/, '');
  return {
    database:
      vars.DATABASE_URL === undefined
        ? { kind: 'sqlite', path: vars.SQLITE_PATH }
        : { kind: 'mysql', url: vars.DATABASE_URL },
    http: { host: vars.HOST, port: vars.PORT },
    log: { level: vars.LOG_LEVEL, format: vars.LOG_FORMAT ?? (isTTY ? 'pretty' : 'json') },
    queue: {
      pollIntervalMs: vars.QUEUE_POLL_INTERVAL_MS,
      lockLifetimeMs: vars.QUEUE_LOCK_LIFETIME_MS,
      redisUrl: vars.REDIS_URL,
    },
    worker: { concurrency: vars.WORKER_CONCURRENCY, shutdownGraceMs: vars.SHUTDOWN_GRACE_MS },
    artifacts: { dir: vars.ARTIFACTS_DIR },
    browser: {
      executablePath: vars.BROWSER_EXECUTABLE_PATH,
      navigationTimeoutMs: vars.BROWSER_NAVIGATION_TIMEOUT_MS,
      stepTimeoutMs: vars.BROWSER_STEP_TIMEOUT_MS,
      runTimeLimitMs: vars.RUN_TIME_LIMIT_MS,
      wsEndpoint: vars.BROWSER_WS_ENDPOINT,
      egressProxyHost: vars.BROWSER_EGRESS_PROXY_HOST,
    },
    repositories: { excludedOwners: vars.EXCLUDED_OWNERS ?? [] },
    client: { apiUrl: vars.QA_API_URL.replace(/\/+$/, ''), apiKey: vars.QA_API_KEY?.trim() },
    probes: { allowCidrs: vars.PROBE_ALLOW_CIDRS ?? [] },
    notify: {
      minIntervalMs: vars.NOTIFY_MIN_INTERVAL_MS,
      publicBaseUrl,
    },
    chat: {
      signingSecret: vars.CHAT_SIGNING_SECRET,
      botToken: vars.CHAT_BOT_TOKEN,
      appToken: vars.CHAT_APP_TOKEN,
      clientId: vars.CHAT_CLIENT_ID,
      clientSecret: vars.CHAT_CLIENT_SECRET,
      stateSecret: vars.CHAT_STATE_SECRET,
      tokenKey: vars.CHAT_TOKEN_KEY,
      apiUrl: vars.CHAT_API_URL.endsWith('/') ? vars.CHAT_API_URL : `${vars.CHAT_API_URL}/`,
      authorizeUrl: vars.CHAT_AUTHORIZE_URL,
      receiptRetentionHours: vars.CHAT_RECEIPT_RETENTION_HOURS,
    },
    codehost: {
      webhookSecret: vars.CODEHOST_WEBHOOK_SECRET,
      previousWebhookSecret: vars.CODEHOST_WEBHOOK_SECRET_PREVIOUS,
      appId: vars.CODEHOST_APP_ID,
      privateKey: vars.CODEHOST_PRIVATE_KEY,
      apiUrl: vars.CODEHOST_API_URL.replace(/\/+$/, ''),
      botName: vars.CODEHOST_BOT_NAME,
    },
    identityWebhooks: { signingSecret: vars.IDENTITY_WEBHOOK_SIGNING_SECRET, previousSigningSecret: vars.IDENTITY_WEBHOOK_SECRET_PREVIOUS },
    webhooks: { leaseMs: vars.WEBHOOK_LEASE_MS, sweepIntervalMs: vars.WEBHOOK_SWEEP_INTERVAL_MS },
    metrics: {
      enabled: vars.METRICS_ENABLED === '1',
      port: vars.METRICS_PORT,
      token: vars.METRICS_TOKEN,
      organizationLabel: vars.METRICS_ORG_LABEL === '1',
    },
    catalog: { maxBuilds: vars.CATALOG_MAX_BUILDS, maxConcurrency: vars.CATALOG_MAX_CONCURRENCY, pollMs: vars.ONBOARDING_POLL_MS },
    onboardingFetch: {
      extraCaFile: vars.NODE_EXTRA_CA_CERTS,
      gitEnvironment: Object.fromEntries(GIT_ENVIRONMENT.flatMap((name) => (env[name] ? [[name, env[name]]] : []))),
    },
    identity: {
      issuerUrl: vars.IDENTITY_ISSUER_URL?.replace(/\/+$/, ''),
      clientId: vars.IDENTITY_CLIENT_ID?.trim(),
      clientSecret: vars.IDENTITY_CLIENT_SECRET,
      publicBaseUrl,
      sessionIdleMinutes: vars.IDENTITY_SESSION_IDLE_MINUTES,
      sessionAbsoluteHours: vars.IDENTITY_SESSION_ABSOLUTE_HOURS,
    },
    planner:
      vars.PLANNER === 'rule'
        ? { kind: 'rule' }
        : {
            kind: 'openai',
            // All three are set: missingForPlanner stopped the process otherwise.
            url: vars.PLANNER_URL!.replace(/\/+$/, ''),
            model: vars.PLANNER_MODEL!.trim(),
            apiKey: vars.PLANNER_API_KEY!.trim(),
            timeoutMs: vars.PLANNER_TIMEOUT_MS,
          },
  };
}

/**
 * PUBLIC_BASE_URL's default, `http://HOST:PORT`: a wildcard HOST (listen everywhere) is no address to link to, so
 * links go to loopback of the same family (`::` may be IPv6-only); an IPv6 address is bracketed, as URLs need.
 */
function listenUrl(host: string, port: number): string {
  const reachable = WILDCARD_ADDRESSES.has(host) ? (isIP(host) === 6 ? '::1' : '127.0.0.1') : host;
  return `http://${isIP(reachable) === 6 ? `[${reachable}]` : reachable}:${port}`;
}

/** PLANNER=openai without the endpoint, model or key it needs: one problem per missing variable. */
function missingForPlanner(input: Partial<Record<EnvName, string>>): { name: string; message: string }[] {
  if (input.PLANNER !== 'openai') return [];
  return OPENAI_PLANNER_VARIABLES.filter((name) => input[name] === undefined).map((name) => ({ name, message: 'must be set when PLANNER=openai' }));
}

/** OAuth distribution (CHAT_CLIENT_ID) without the secret, the state secret or the token key: one problem each. */
function missingForChatOAuth(input: Partial<Record<EnvName, string>>): { name: string; message: string }[] {
  if (CHAT_OAUTH_VARIABLES.every((name) => input[name] === undefined)) return [];
  return CHAT_OAUTH_VARIABLES.filter((name) => input[name] === undefined).map((name) => ({ name, message: `must be set with ${CHAT_OAUTH_VARIABLES.filter((other) => input[other] !== undefined).join(', ')} (Slack OAuth install)` }));
}

/** Sign-in set up in part (an issuer without its client, or the reverse): one problem per missing variable. */
function missingForIdentity(input: Partial<Record<EnvName, string>>): { name: string; message: string }[] {
  if (IDENTITY_VARIABLES.every((name) => input[name] === undefined)) return [];
  return IDENTITY_VARIABLES.filter((name) => input[name] === undefined).map((name) => ({ name, message: `must be set with ${IDENTITY_VARIABLES.filter((other) => input[other] !== undefined).join(', ')} (sign-in)` }));
}
