import { readFileSync } from 'node:fs';
import { App } from '@octokit/app';
import { Octokit } from '@octokit/rest';
import { AppError, ErrorCode } from '../core/errors.js';

/** What the client needs of CODEHOST_* (src/config.ts fills it). */
export interface CodehostClientSettings {
  appId: number;
  /** A PEM, or the path of a PEM file. */
  privateKey: string;
  /** The REST API base (`https://api.github.com`, or a GitHub Enterprise-style `https://host/api/v3`). */
  apiUrl: string;
}

export interface InstallationToken {
  token: string;
  expiresAt: Date;
}

/** The code host's REST API as the GitHub App: app JWTs and installation tokens through @octokit/app. */
export interface CodehostClient {
  /** A token for the installation, from the cache while it has more than `REFRESH_BEFORE_EXPIRY_MS` to live. */
  installationToken(installationId: number): Promise<InstallationToken>;
  /** An @octokit/rest client acting as the installation. Its calls' failures go through `codehostError`. */
  forInstallation(installationId: number): Promise<Octokit>;
}

/** Tokens live an hour; one is replaced five minutes before it expires, so a call never starts with a dying one. */
export const REFRESH_BEFORE_EXPIRY_MS = 5 * 60_000;

/** The PEM itself, or read from the path it names; `\n` escapes (a PEM squeezed into one variable) are undone. */
export function readPrivateKey(value: string): string {
  const text = value.includes('-----BEGIN') ? value : readFileSync(value, 'utf8');
  return text.replace(/\\n/g, '\n');
}

/**
 * A code-host failure as a coded error: 429 (or a 403 with no rate limit left, or with Retry-After)
 * `codehost.rate_limited` with `retryAfterSeconds`, 5xx or no answer `codehost.unavailable`, 401/403
 * `codehost.unauthorized`, another 4xx `codehost.request_failed`. Nothing here retries: the queue does, with back-off, never on a webhook request.
 */
export function codehostError(error: unknown, what: string): AppError {
  if (error instanceof AppError) return error;
  // Octokit's RequestError (name `HttpError`), read by shape: @octokit/request-error is not our dependency.
  const failed = error as { name?: unknown; status?: unknown; response?: { headers?: Record<string, string | number | undefined> } } | null;
  if (failed?.name !== 'HttpError' || typeof failed.status !== 'number') {
    return new AppError({ kind: 'operational', code: ErrorCode.CodehostUnavailable, message: `The code host could not be reached (${what})`, cause: error });
  }
  const status = failed.status;
  const headers = failed.response?.headers ?? {};
  const retryAfter = Number(headers['retry-after']);
  // A secondary rate limit (too many posts too fast) is a 403 with Retry-After and requests left:
  // https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits
  const limited = status === 429 || (status === 403 && (String(headers['x-ratelimit-remaining']) === '0' || headers['retry-after'] !== undefined));
  if (limited) {
    return new AppError({ kind: 'operational', code: ErrorCode.CodehostRateLimited, message: `The code host is rate limiting us (${what})`, details: { status, retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : undefined }, cause: error });
  }
  if (status >= 500 || status === 0) {
    return new AppError({ kind: 'operational', code: ErrorCode.CodehostUnavailable, message: `The code host answered ${status} (${what})`, details: { status: status }, cause: error });
  }
  if (status === 401 || status === 403) {
    return new AppError({ kind: 'operational', code: ErrorCode.CodehostUnauthorized, message: `The code host refused the app's credentials (${what}): check CODEHOST_APP_ID and CODEHOST_PRIVATE_KEY`, details: { status: status }, cause: error });
  }
  return new AppError({ kind: 'operational', code: ErrorCode.CodehostRequestFailed, message: `The code host refused the request (${what}): ${status}`, details: { status: status }, cause: error });
}

/** Octokit's logger shape; its request log reports each call (failures too, which also come back as coded errors). */
export interface OctokitLog {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

const QUIET: OctokitLog = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

export function createCodehostClient(settings: CodehostClientSettings, options: { now?: () => number; log?: OctokitLog } = {}): CodehostClient {
  const now = options.now ?? Date.now;
  const log = options.log ?? QUIET;
  const baseUrl = settings.apiUrl.replace(/\/+$/, '');
  // @octokit/app signs the app JWT (RS256, iss = app id, 10 minutes) for every app-level request.
  const app = new App({ appId: settings.appId, privateKey: readPrivateKey(settings.privateKey), Octokit: Octokit.defaults({ baseUrl, log }), log });
  const cache = new Map<number, InstallationToken>();
  const pending = new Map<number, Promise<InstallationToken>>();

  async function exchange(installationId: number): Promise<InstallationToken> {
    try {
      // Octokit's own installation auth caches tokens for a fixed 59 minutes, whatever `expires_at` says; this
      // cache follows `expires_at`, so a shorter-lived token (GitHub Enterprise, a revoked one) is replaced in time.
      const { data } = await (app.octokit as unknown as Octokit).rest.apps.createInstallationAccessToken({ installation_id: installationId });
      const issued = { token: data.token, expiresAt: new Date(data.expires_at) };
      cache.set(installationId, issued);
      return issued;
    } catch (error) {
      throw codehostError(error, `installation token for ${installationId}`);
    }
  }

  async function installationToken(installationId: number): Promise<InstallationToken> {
    const cached = cache.get(installationId);
    if (cached && cached.expiresAt.getTime() - now() > REFRESH_BEFORE_EXPIRY_MS) return cached;
    // Concurrent callers share one exchange.
    let inFlight = pending.get(installationId);
    if (!inFlight) {
      inFlight = exchange(installationId).finally(() => pending.delete(installationId));
      pending.set(installationId, inFlight);
    }
    return inFlight;
  }

  return {
    installationToken,
    async forInstallation(installationId) {
      const { token } = await installationToken(installationId);
      return new Octokit({ auth: token, baseUrl, log });
    },
  };
}
