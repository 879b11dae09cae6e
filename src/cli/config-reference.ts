/**
 * What each configuration variable means, for people: docs/configuration.md is rendered from this and from the
 * schema in src/config.ts (the variables, their defaults), and a test fails when the file, this list and the schema
 * disagree, so the reference cannot drift from what `loadConfig` reads. `npm run docs:config` writes the file.
 */
import { writeFile } from 'node:fs/promises';
import { CONFIG_VARIABLES, configDefault, type EnvName } from '../config.js';

export interface ConfigReferenceEntry {
  /** Variables described together (a client id and its secret). */
  readonly names: readonly EnvName[];
  /** The default as words, where it is computed rather than a value of the schema. */
  readonly defaultText?: string;
  readonly meaning: string;
}

export interface ConfigReferenceGroup {
  readonly title: string;
  readonly entries: readonly ConfigReferenceEntry[];
}

export const CONFIG_REFERENCE: readonly ConfigReferenceGroup[] = [
  {
    title: 'The service',
    entries: [
      {
        names: ['DATABASE_URL'],
        meaning:
          '`mysql://user:password@host:port/database` (MySQL 8 or MariaDB 10.6+; `mariadb://` also accepted). The database is created if missing (name: letters, digits, `_ $ -`). Unset: the embedded SQLite file at `SQLITE_PATH`.',
      },
      {
        names: ['SQLITE_PATH'],
        meaning:
          'The embedded SQLite database file, used when `DATABASE_URL` is unset. Its folder is created.',
      },
      {
        names: ['HOST'],
        meaning:
          'Address the HTTP server binds. Browser runs can never reach `HOST:PORT` (every loopback spelling of it, and every address of the machine when `HOST` is `0.0.0.0` or `::`), whatever their allowlist says; a `worker` process reads both too, so give it the service\'s values.',
      },
      {
        names: ['PORT'],
        meaning:
          'Port of the HTTP server (1–65535).',
      },
      {
        names: ['PUBLIC_BASE_URL'],
        defaultText: '`http://HOST:PORT` (loopback for a wildcard HOST such as `0.0.0.0` or `::`)',
        meaning:
          'The service\'s address as people reach it (an http(s) URL, optionally with a path prefix, without query or fragment): links in chat progress messages (the job, its screenshots and trace) point under it. Set it whenever people reach the service at another address than this machine\'s loopback. With sign-in it is also the redirect URI\'s base (`/auth/callback`), decides the session cookie\'s `Secure` and `__Host-` (https), and is the origin CSRF checks expect.',
      },
      {
        names: ['LOG_LEVEL'],
        meaning:
          '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`.',
      },
      {
        names: ['LOG_FORMAT'],
        defaultText: '`pretty` on a terminal, else `json`',
        meaning:
          '`json` (one object per line, for machines) or `pretty` (pino-pretty).',
      },
      {
        names: ['SHUTDOWN_GRACE_MS'],
        meaning:
          'On SIGTERM/SIGINT, how long running work may take to finish before it is handed back (0–3600000).',
      },
      {
        names: ['ARTIFACTS_DIR'],
        meaning:
          'Where screenshots, traces and other artifacts are written.',
      },
    ],
  },
  {
    title: 'Queue and workers',
    entries: [
      {
        names: ['REDIS_URL'],
        meaning:
          '`redis://host:port` for cross-process queue notifications. Without it, processes find each other\'s jobs by polling.',
      },
      {
        names: ['QUEUE_POLL_INTERVAL_MS'],
        meaning:
          'How often a process polls the queue for jobs saved by other processes (10–3600000).',
      },
      {
        names: ['QUEUE_LOCK_LIFETIME_MS'],
        meaning:
          'How long a running job stays locked without a `touch()` before another worker may take it over (1000–86400000).',
      },
      {
        names: ['WORKER_CONCURRENCY'],
        meaning:
          'Jobs one worker process runs at the same time (1–256).',
      },
    ],
  },
  {
    title: 'Browser runs',
    entries: [
      {
        names: ['BROWSER_EXECUTABLE_PATH'],
        meaning:
          'The Chromium that workers drive through Playwright: Debian\'s `chromium-headless-shell` package (Chromium\'s headless-only build, the one Playwright runs for headless Chromium); nothing is downloaded. The full browser (`/usr/bin/chromium`, package `chromium`) works too, at about 15 % more CPU per run.',
      },
      {
        names: ['BROWSER_NAVIGATION_TIMEOUT_MS'],
        meaning:
          'How long a page load or page action may take before the run reports it (1000–600000).',
      },
      {
        names: ['BROWSER_STEP_TIMEOUT_MS'],
        meaning:
          'How long one plan step waits for its target to appear or its expectation to hold (100–600000).',
      },
      {
        names: ['RUN_TIME_LIMIT_MS'],
        meaning:
          'A run that takes longer is stopped and fails with a `time_limit` finding (1000–86400000).',
      },
      {
        names: ['BROWSER_WS_ENDPOINT'],
        meaning:
          'A running Playwright browser server to use instead of launching Chromium: the `ws://` or `wss://` endpoint of `chromium.launchServer()` (or `npx playwright run-server`) or of a browser grid. Workers then `connect` to it, connect again when it drops, and never launch a browser of their own (`BROWSER_EXECUTABLE_PATH` is not used); one that cannot be reached makes runs fail with `browser.unavailable`. Never echoed in a config error (a grid token may be in it). The browser must be able to reach the worker\'s egress proxy: see `BROWSER_EGRESS_PROXY_HOST`.',
      },
      {
        names: ['BROWSER_EGRESS_PROXY_HOST'],
        meaning:
          'The address of the worker\'s egress proxy (every browser request goes through it, and it lets through only the run\'s allowed origins): the proxy listens there, on an ephemeral port for each browser context, and the browser is told to use it there. The default serves a browser on the same machine only; for a `BROWSER_WS_ENDPOINT` browser on another host, set an address of the worker that host can reach on any port (not a wildcard such as `0.0.0.0`): beyond loopback each context\'s port also asks for credentials of the context\'s own. Targets are still fetched from the worker, so allowlists hold wherever the browser runs.',
      },
    ],
  },
  {
    title: 'Repositories and evidence probes',
    entries: [
      {
        names: ['EXCLUDED_OWNERS'],
        meaning:
          'Comma-separated code-host owners whose repositories are refused before anything is stored (also `qa owners exclude <owner>`).',
      },
      {
        names: ['PROBE_ALLOW_CIDRS'],
        meaning:
          'Comma-separated CIDR ranges (IPv4 or IPv6, e.g. `127.0.0.1/32,fd00::/8`) that evidence probes may reach although they are loopback, private, link-local or otherwise special. Unset: probes connect to public addresses only.',
      },
    ],
  },
  {
    title: 'The CLI\'s client verbs',
    entries: [
      {
        names: ['QA_API_URL'],
        meaning:
          'Where the CLI\'s client verbs (`qa jobs`, `qa runs`, `qa follow`, `qa answer`, `qa repos`) find the running service: an http(s) URL, optionally with a path prefix, without query or fragment.',
      },
      {
        names: ['QA_API_KEY'],
        meaning:
          'The API key those client verbs send (`Authorization: Bearer`). Needed only by them: without it they exit 2 naming the variable.',
      },
    ],
  },
  {
    title: 'Onboarding',
    entries: [
      {
        names: ['CATALOG_MAX_BUILDS'],
        meaning:
          'Checks one onboarding builds at most for the flows no check covers yet, most valuable first (0–1000; 0 builds none). Counted in the store, so several workers together never exceed it.',
      },
      {
        names: ['CATALOG_MAX_CONCURRENCY'],
        meaning:
          'Of those builds, how many run at once (1–100), across all workers.',
      },
      {
        names: ['ONBOARDING_POLL_MS'],
        meaning:
          'How soon an onboarding looks again at its running builds, or at a paused capability it waits for (50–600000).',
      },
      {
        names: ['NODE_EXTRA_CA_CERTS'],
        meaning:
          'Node\'s own variable (a PEM file of extra certificate authorities), honoured by the repository clones too: git is given Node\'s root certificates and these. For a code host behind a private CA.',
      },
    ],
  },
  {
    title: 'Planner',
    entries: [
      {
        names: ['PLANNER'],
        meaning:
          'Which planner reads natural-language tasks: `rule` (built in, no network) or `openai` (an OpenAI-compatible chat-completions endpoint with structured output; the rule planner\'s clarification policy still asks first, and every click or key press the model plans is checked against it). With `openai`, the three variables below are required.',
      },
      {
        names: ['PLANNER_URL'],
        meaning:
          'The endpoint\'s API base, an http(s) URL without query or fragment, e.g. `https://api.openai.com/v1`; requests go to `<url>/chat/completions`.',
      },
      {
        names: ['PLANNER_MODEL'],
        meaning:
          'The model to ask, e.g. `gpt-4o-mini`; it must support `response_format` `json_schema` with `strict: true`.',
      },
      {
        names: ['PLANNER_API_KEY'],
        meaning:
          'Sent as `Authorization: Bearer`; never shown in a config error, a log line, an event or an error answer.',
      },
      {
        names: ['PLANNER_TIMEOUT_MS'],
        meaning:
          'How long one request to the model may take (1000–600000). A timed-out, cut-off, unreadable or 429/5xx answer is tried once more; then the job is `errored` with the reason and the API answers 502 `planner.failed`. Each request is a `planner.called` job event with its tokens and `durationMs`.',
      },
    ],
  },
  {
    title: 'Chat (Slack)',
    entries: [
      {
        names: ['CHAT_SIGNING_SECRET'],
        meaning:
          'The Slack app\'s signing secret: turns on the chat receiver at `POST /api/webhooks/chat` (events, buttons and the `/qa` command on one URL). Requests not signed with it (v0 HMAC over the raw body), or with a timestamp more than 5 minutes off, get 401. Never echoed. See [Chat](chat.md).',
      },
      {
        names: ['CHAT_BOT_TOKEN'],
        meaning:
          'Single-workspace mode: the bot token (`xoxb-…`) of the one workspace the app is installed in; connect that workspace with `qa chat connect`. Never echoed.',
      },
      {
        names: ['CHAT_APP_TOKEN'],
        meaning:
          'Socket Mode: an app-level token (`xapp-…`, scope `connections:write`); the serving process opens a WebSocket to Slack instead of receiving HTTP (no public URL needed). Never echoed.',
      },
      {
        names: ['CHAT_CLIENT_ID', 'CHAT_CLIENT_SECRET'],
        meaning:
          'Distribution to many workspaces through Slack\'s OAuth v2 install (`GET /api/chat/install`, redirect `{PUBLIC_BASE_URL}/api/chat/oauth_redirect`). Need `CHAT_STATE_SECRET` and `CHAT_TOKEN_KEY` too.',
      },
      {
        names: ['CHAT_STATE_SECRET'],
        meaning:
          'Signs the OAuth `state` (at least 16 characters).',
      },
      {
        names: ['CHAT_TOKEN_KEY'],
        meaning:
          '32 bytes (64 hex digits or base64, e.g. `openssl rand -base64 32`): installed workspaces\' bot tokens are stored AES-256-GCM encrypted with it. A changed key makes stored tokens unreadable (`chat.token_unreadable`): reinstall.',
      },
      {
        names: ['CHAT_API_URL'],
        meaning:
          'Slack\'s Web API base (tests point it at a local fake).',
      },
      {
        names: ['CHAT_AUTHORIZE_URL'],
        meaning:
          'Slack\'s OAuth authorize page.',
      },
      {
        names: ['CHAT_RECEIPT_RETENTION_HOURS'],
        meaning:
          'How long the receipt of a handled chat delivery (`chat_event_receipts`, one row per event, command or button press) is kept, in hours (1–8760). While it exists, Slack\'s retries and duplicates of that delivery start nothing, so keep it well beyond Slack\'s retry window (3 retries within about 5 minutes). Workers purge older settled receipts every hour, at most 500 rows per statement; a receipt whose handling never settled is never purged.',
      },
      {
        names: ['NOTIFY_MIN_INTERVAL_MS'],
        meaning:
          'At most one edit of a job\'s progress message per this interval (200–600000), to stay inside Slack\'s rate limits; the final state is always delivered.',
      },
    ],
  },
  {
    title: 'Code host',
    entries: [
      {
        names: ['CODEHOST_WEBHOOK_SECRET'],
        meaning:
          'Checks `x-codehost-signature-256` (`sha256=` HMAC of the raw body) on `POST /api/webhooks/codehost`; unset, that endpoint does not exist.',
      },
      {
        names: ['CODEHOST_WEBHOOK_SECRET_PREVIOUS'],
        meaning:
          'A secret being rotated out: deliveries signed with it are accepted too, until the app\'s setting has changed.',
      },
      {
        names: ['CODEHOST_APP_ID'],
        meaning:
          'The GitHub App\'s id (a positive integer): the `iss` of the app JWTs the service signs to call the code host\'s API.',
      },
      {
        names: ['CODEHOST_PRIVATE_KEY'],
        meaning:
          'The app\'s private key: the PEM itself (newlines may be written `\\n`), or the path of a PEM file. Never echoed.',
      },
      {
        names: ['CODEHOST_API_URL'],
        meaning:
          'The code host\'s REST API base, an http(s) URL without query or fragment (GitHub Enterprise: `https://host/api/v3`; tests point it at a local fake).',
      },
      {
        names: ['CODEHOST_BOT_NAME'],
        meaning:
          'The app\'s login as people mention it in PR comments (`@<bot> <task>`; letters, digits, hyphens). Also the only author whose comments the PR sink trusts when it recovers its own comment after a crash (`<name>[bot]`).',
      },
    ],
  },
  {
    title: 'Webhooks of every provider',
    entries: [
      {
        names: ['WEBHOOK_LEASE_MS'],
        meaning:
          'How long a worker holds a webhook receipt it took, in ms (1000–86400000; spec section 8: ten minutes). A receipt whose worker died is taken over by another worker once this has passed; keep it above the longest any delivery takes to handle.',
      },
      {
        names: ['WEBHOOK_SWEEP_INTERVAL_MS'],
        meaning:
          'How often workers queue again receipts whose lease expired, failed receipts past their back-off, and pending receipts whose queue job was lost, in ms (100–3600000). One repeating queue job for all processes.',
      },
    ],
  },
  {
    title: 'Metrics',
    entries: [
      {
        names: ['METRICS_ENABLED'],
        meaning:
          '`1` (default): `GET /metrics` answers in the Prometheus text format on the HTTP port of `qa serve` and `qa start`, and on `METRICS_PORT` of a `qa worker`; `0`: nowhere. See [Operations](operations.md#metrics).',
      },
      {
        names: ['METRICS_PORT'],
        meaning:
          'The port (on `HOST`; default `9464`; `0` takes any free port, which the log line `metrics listening` names) where a `qa worker`, which has no HTTP port of its own, answers `/metrics`, `/healthz` and `/readyz`. Two workers on one host need a port each. `serve` and `start` answer on `PORT`; `METRICS_ENABLED=0` turns all of them off.',
      },
      {
        names: ['METRICS_TOKEN'],
        meaning:
          'When set (16 characters or more), `/metrics` answers only requests with `Authorization: Bearer <token>` (compared in constant time), and 401 `metrics.unauthorized` otherwise. Never echoed.',
      },
      {
        names: ['METRICS_ORG_LABEL'],
        meaning:
          '`1`: job counts also carry an `organization` label (the organization\'s slug). Off by default: tenants\' names stay out of the metrics, and the number of series does not grow with the number of organizations.',
      },
    ],
  },
  {
    title: 'Identity: webhooks and sign-in',
    entries: [
      {
        names: ['IDENTITY_WEBHOOK_SIGNING_SECRET'],
        meaning:
          'Checks `x-identity-signature` (`t=<unix ms>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`) on `POST /api/webhooks/identity`, the identity provider\'s deliveries that keep the access directory; unset, that endpoint does not exist (404). Never echoed. See [People](people.md).',
      },
      {
        names: ['IDENTITY_WEBHOOK_SECRET_PREVIOUS'],
        meaning:
          'A signing secret being rotated out: deliveries signed with it are accepted too, until the provider\'s setting has changed. Never echoed.',
      },
      {
        names: ['IDENTITY_ISSUER_URL'],
        meaning:
          'Turns people\'s sign-in on: the OpenID Connect provider\'s issuer (its discovery document is read from `<issuer>/.well-known/openid-configuration`). https, except on loopback. Unset: `/auth/*`, `/api/session*` answer 404, `/jobs/:id` leads to the API route, and only API keys reach the API. Needs the two below.',
      },
      {
        names: ['IDENTITY_CLIENT_ID', 'IDENTITY_CLIENT_SECRET'],
        meaning:
          'The service\'s client at the provider (secret sent as `client_secret_post`; never echoed). Register `{PUBLIC_BASE_URL}/auth/callback` as its redirect URI.',
      },
      {
        names: ['IDENTITY_SESSION_IDLE_MINUTES'],
        meaning:
          'A session unused this long ends (1–43200; counted to the minute).',
      },
      {
        names: ['IDENTITY_SESSION_ABSOLUTE_HOURS'],
        meaning:
          'A session ends this long after sign-in, however busy (1–8760).',
      },
    ],
  },
];

export const CONFIGURATION_DOC_PATH = 'docs/configuration.md';

/** Variables of the schema the reference does not describe, and names it describes that the schema lacks. */
export function referenceDrift(): { undescribed: EnvName[]; unknown: string[]; repeated: string[] } {
  const described = CONFIG_REFERENCE.flatMap((group) => group.entries.flatMap((entry) => entry.names));
  const known = new Set<string>(CONFIG_VARIABLES);
  return {
    undescribed: CONFIG_VARIABLES.filter((name) => !described.includes(name)),
    unknown: described.filter((name) => !known.has(name)),
    repeated: described.filter((name, index) => described.indexOf(name) !== index),
  };
}

function defaultCell(entry: ConfigReferenceEntry): string {
  if (entry.defaultText !== undefined) return entry.defaultText;
  const values = [...new Set(entry.names.map((name) => configDefault(name)))];
  return values.map((value) => (value === undefined ? '(unset)' : `\`${value}\``)).join(', ');
}

/** docs/configuration.md, as it must read. Throws when the reference and the schema disagree. */
export function renderConfigurationDoc(): string {
  const drift = referenceDrift();
  if (drift.undescribed.length + drift.unknown.length + drift.repeated.length > 0) {
    throw new Error(`src/cli/config-reference.ts and src/config.ts disagree: ${JSON.stringify(drift)}`);
  }
  const sections = CONFIG_REFERENCE.map((group) => [
    `## ${group.title}`,
    '',
    '| Variable | Default | Meaning |',
    '|---|---|---|',
    ...group.entries.map((entry) => `| ${entry.names.map((name) => `\`${name}\``).join(', ')} | ${defaultCell(entry)} | ${entry.meaning} |`),
  ].join('\n'));
  return [
    '# Configuration',
    '',
    '<!-- Generated by `npm run docs:config` from src/config.ts and src/cli/config-reference.ts; edit those, not this file. -->',
    '',
    'Everything is read from the environment, once, by `src/config.ts`; a wrong value stops the process with exit code 2',
    'and a message naming the variable and what it expects. An empty variable counts as unset.',
    '',
    sections.join('\n\n'),
    '',
  ].join('\n');
}

export async function writeConfigurationDoc(path = CONFIGURATION_DOC_PATH): Promise<void> {
  await writeFile(path, renderConfigurationDoc());
}
