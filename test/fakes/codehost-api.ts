/**
 * A local stand-in for the code host's REST API (GitHub's wire format, as @octokit/rest and @octokit/app send it): a
 * real HTTP server on 127.0.0.1. It checks the app JWT as GitHub does (RS256 under the app's public key, `iss` = the
 * app id, `exp` at most 10 minutes after `iat`, not expired), exchanges it for installation tokens
 * (`POST /app/installations/:id/access_tokens`), accepts only live installation tokens elsewhere
 * (`Authorization: token …` or `Bearer …`), serves pull requests, their files and collaborator permissions, records
 * issue comments (and lists them, `since` honoured) and check runs, and can answer 429 (with `retry-after`) or 5xx for
 * the next calls.
 * Shapes: https://docs.github.com/en/rest (apps, pulls, collaborators, issues/comments, checks/runs).
 */
import { createPublicKey, randomBytes, verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeCodehostOptions {
  appId: number;
  /** The app's public key (PEM): the JWT must verify under it. */
  publicKey: string;
  /** How long installation tokens live (GitHub: 1 hour). */
  tokenLifetimeMs?: number;
  /** The bot's login on comments and check runs (`<name>[bot]`). */
  botName?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** What the Authorization header held: a JWT, another token (live or not), or nothing usable. */
  auth: 'jwt' | 'token' | 'none';
  status: number;
  body: unknown;
}

export interface IssuedToken {
  token: string;
  installationId: number;
  expiresAt: Date;
}

export interface FakeComment {
  id: number;
  repo: string;
  issueNumber: number;
  body: string;
  edits: number;
  /** When it was posted or last edited (what GitHub's `since` compares). */
  updatedAt: Date;
}

/** A pull request as a test registers it; the fake answers it in GitHub's shape. */
export interface FakePull {
  headSha: string;
  /** The author's login (default `octocat`). */
  author?: string;
  state?: 'open' | 'closed';
  draft?: boolean;
  /** The head's repository when the pull request comes from a fork (`owner/name`); default the base repository. */
  headRepo?: string;
}

export interface FakeCheckRun {
  id: number;
  repo: string;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  output?: unknown;
  updates: number;
}

export interface FakeCodehost {
  /** `http://127.0.0.1:<port>`: the API base (CODEHOST_API_URL). */
  url: string;
  requests: RecordedRequest[];
  tokens: IssuedToken[];
  comments: FakeComment[];
  checkRuns: FakeCheckRun[];
  addInstallation(id: number): void;
  setPullFiles(repo: string, number: number, files: { filename: string; status?: string }[]): void;
  /** Registers (or replaces) pull request `number` of `repo` (`owner/name`) for `GET /repos/{o}/{r}/pulls/{n}`. */
  setPull(repo: string, number: number, pull: FakePull): void;
  setPermission(repo: string, user: string, permission: 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none'): void;
  /** The next `count` requests (any route) answer `status`; a 429 carries `retry-after: retryAfterSeconds`. */
  failNext(count: number, status: number, retryAfterSeconds?: number): void;
  close(): Promise<void>;
}

const TEN_MINUTES_S = 600;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function base64urlJson(part: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  if (parsed === null || typeof parsed !== 'object') throw new Error('not an object');
  return parsed as Record<string, unknown>;
}

/** GitHub's app-JWT rules; throws a 401 with GitHub's wording of the fault. */
function verifyAppJwt(jwt: string, appId: number, key: KeyObject, nowS: number): void {
  const parts = jwt.split('.');
  if (parts.length !== 3) throw new HttpError(401, 'A JSON web token could not be decoded');
  const [head, body, signature] = parts as [string, string, string];
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = base64urlJson(head);
    claims = base64urlJson(body);
  } catch {
    throw new HttpError(401, 'A JSON web token could not be decoded');
  }
  if (header.alg !== 'RS256') throw new HttpError(401, "'alg' must be RS256");
  if (!verify('RSA-SHA256', Buffer.from(`${head}.${body}`), key, Buffer.from(signature, 'base64url'))) {
    throw new HttpError(401, 'A JSON web token could not be decoded');
  }
  if (String(claims.iss) !== String(appId)) throw new HttpError(401, "'Issuer' claim ('iss') must be an Integer");
  const iat = Number(claims.iat);
  const exp = Number(claims.exp);
  if (!Number.isFinite(iat) || !Number.isFinite(exp)) throw new HttpError(401, "'Issued at' and 'Expiration time' claims are required");
  if (exp - iat > TEN_MINUTES_S) throw new HttpError(401, "'Expiration time' claim ('exp') is too far in the future");
  if (exp <= nowS) throw new HttpError(401, "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires");
  if (iat > nowS + 60) throw new HttpError(401, "'Issued at' claim ('iat') must be an Integer representing a time in the past");
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'Problems parsing JSON');
  }
}

export async function startFakeCodehost(options: FakeCodehostOptions): Promise<FakeCodehost> {
  const key = createPublicKey(options.publicKey);
  const lifetimeMs = options.tokenLifetimeMs ?? 3_600_000;
  const bot = `${options.botName ?? 'qa-bot'}[bot]`;
  const installations = new Set<number>();
  const pullFiles = new Map<string, { filename: string; status?: string }[]>();
  const pulls = new Map<string, FakePull>();
  const permissions = new Map<string, string>();
  const requests: RecordedRequest[] = [];
  const tokens: IssuedToken[] = [];
  const comments: FakeComment[] = [];
  const checkRuns: FakeCheckRun[] = [];
  let failures: { count: number; status: number; retryAfterSeconds?: number } = { count: 0, status: 500 };
  let nextId = 1000;

  function authOf(req: IncomingMessage): { kind: RecordedRequest['auth']; credential: string } {
    const header = req.headers.authorization ?? '';
    const match = /^(token|bearer)\s+(\S+)$/i.exec(header);
    if (!match) return { kind: 'none', credential: '' };
    return { kind: match[2]!.split('.').length === 3 ? 'jwt' : 'token', credential: match[2]! };
  }

  function requireToken(auth: { kind: RecordedRequest['auth']; credential: string }): IssuedToken {
    const issued = tokens.find((candidate) => candidate.token === auth.credential);
    if (auth.kind !== 'token' || !issued || issued.expiresAt.getTime() <= Date.now()) throw new HttpError(401, 'Bad credentials');
    return issued;
  }

  function commentBody(comment: FakeComment) {
    const at = comment.updatedAt.toISOString().replace(/\.\d{3}Z$/, 'Z');
    return {
      id: comment.id,
      body: comment.body,
      user: { login: bot, type: 'Bot' },
      created_at: at,
      updated_at: at,
      html_url: `https://codehost.example/${comment.repo}/pull/${comment.issueNumber}#issuecomment-${comment.id}`,
    };
  }

  function pullBody(repo: string, number: number, pull: FakePull) {
    const [owner = '', name = ''] = repo.split('/');
    const repository = (fullName: string) => ({ name: fullName.split('/')[1], full_name: fullName, owner: { login: fullName.split('/')[0] }, fork: fullName.toLowerCase() !== repo.toLowerCase() });
    return {
      number,
      state: pull.state ?? 'open',
      draft: pull.draft ?? false,
      title: `Pull request ${number}`,
      user: { login: pull.author ?? 'octocat', type: 'User' },
      head: { sha: pull.headSha, ref: `feature-${number}`, repo: repository(pull.headRepo ?? repo) },
      base: { sha: '0'.repeat(40), ref: 'main', repo: repository(`${owner}/${name}`) },
      html_url: `https://codehost.example/${repo}/pull/${number}`,
      updated_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    };
  }

  async function route(req: IncomingMessage, auth: { kind: RecordedRequest['auth']; credential: string }): Promise<[number, unknown]> {
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    let match: RegExpExecArray | null;
    if (method === 'POST' && (match = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(path))) {
      if (auth.kind !== 'jwt') throw new HttpError(401, 'A JSON web token could not be decoded');
      verifyAppJwt(auth.credential, options.appId, key, Math.floor(Date.now() / 1000));
      const installationId = Number(match[1]);
      if (!installations.has(installationId)) throw new HttpError(404, 'Not Found');
      const issued = { token: `ghs_${randomBytes(18).toString('hex')}`, installationId, expiresAt: new Date(Date.now() + lifetimeMs) };
      tokens.push(issued);
      return [201, { token: issued.token, expires_at: issued.expiresAt.toISOString().replace(/\.\d{3}Z$/, 'Z'), permissions: { pull_requests: 'write', checks: 'write' }, repository_selection: 'selected' }];
    }
    requireToken(auth);
    if (method === 'GET' && (match = /^\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)\/files$/.exec(path))) {
      const files = pullFiles.get(`${match[1]}#${match[2]}`);
      if (!files) throw new HttpError(404, 'Not Found');
      return [200, files.map((file, index) => ({ sha: `${index}`.padStart(40, '0'), filename: file.filename, status: file.status ?? 'modified', additions: 1, deletions: 0, changes: 1 }))];
    }
    if (method === 'GET' && (match = /^\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)$/.exec(path))) {
      const pull = pulls.get(`${match[1]!.toLowerCase()}#${match[2]}`);
      if (!pull) throw new HttpError(404, 'Not Found');
      return [200, pullBody(match[1]!, Number(match[2]), pull)];
    }
    if (method === 'GET' && (match = /^\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)\/comments$/.exec(path))) {
      const query = new URL(req.url ?? '/', 'http://fake').searchParams;
      const since = query.has('since') ? new Date(query.get('since')!) : null;
      const perPage = Math.min(100, Number(query.get('per_page') ?? 30));
      const page = Math.max(1, Number(query.get('page') ?? 1));
      const listed = comments.filter((comment) => comment.repo.toLowerCase() === match![1]!.toLowerCase() && comment.issueNumber === Number(match![2]) && (!since || comment.updatedAt >= since));
      return [200, listed.slice((page - 1) * perPage, page * perPage).map((comment) => commentBody(comment))];
    }
    if (method === 'GET' && (match = /^\/repos\/([^/]+\/[^/]+)\/collaborators\/([^/]+)\/permission$/.exec(path))) {
      const permission = permissions.get(`${match[1]}#${match[2]!.toLowerCase()}`) ?? 'none';
      return [200, { permission, role_name: permission, user: { login: match[2], type: 'User' } }];
    }
    if (method === 'POST' && (match = /^\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)\/comments$/.exec(path))) {
      const body = (await readJson(req)) as { body?: unknown } | undefined;
      if (typeof body?.body !== 'string') throw new HttpError(422, 'Validation Failed');
      const comment = { id: (nextId += 1), repo: match[1]!, issueNumber: Number(match[2]), body: body.body, edits: 0, updatedAt: new Date() };
      comments.push(comment);
      return [201, commentBody(comment)];
    }
    if (method === 'PATCH' && (match = /^\/repos\/([^/]+\/[^/]+)\/issues\/comments\/(\d+)$/.exec(path))) {
      const comment = comments.find((candidate) => candidate.id === Number(match![2]) && candidate.repo === match![1]);
      if (!comment) throw new HttpError(404, 'Not Found');
      const body = (await readJson(req)) as { body?: unknown } | undefined;
      if (typeof body?.body !== 'string') throw new HttpError(422, 'Validation Failed');
      comment.body = body.body;
      comment.edits += 1;
      comment.updatedAt = new Date();
      return [200, { id: comment.id, body: comment.body, user: { login: bot, type: 'Bot' } }];
    }
    if (method === 'POST' && (match = /^\/repos\/([^/]+\/[^/]+)\/check-runs$/.exec(path))) {
      const body = (await readJson(req)) as Partial<FakeCheckRun> | undefined;
      if (typeof body?.name !== 'string' || typeof body.head_sha !== 'string') throw new HttpError(422, 'Validation Failed');
      const run: FakeCheckRun = { id: (nextId += 1), repo: match[1]!, name: body.name, head_sha: body.head_sha, status: body.status ?? 'queued', conclusion: body.conclusion ?? null, output: body.output, updates: 0 };
      checkRuns.push(run);
      return [201, { ...run, app: { slug: options.botName ?? 'qa-bot' } }];
    }
    if (method === 'PATCH' && (match = /^\/repos\/([^/]+\/[^/]+)\/check-runs\/(\d+)$/.exec(path))) {
      const run = checkRuns.find((candidate) => candidate.id === Number(match![2]) && candidate.repo === match![1]);
      if (!run) throw new HttpError(404, 'Not Found');
      const body = ((await readJson(req)) ?? {}) as Partial<FakeCheckRun>;
      Object.assign(run, { status: body.status ?? run.status, conclusion: body.conclusion ?? run.conclusion, output: body.output ?? run.output });
      run.updates += 1;
      return [200, { ...run }];
    }
    throw new HttpError(404, 'Not Found');
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const auth = authOf(req);
    const record = (status: number, body: unknown) => requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', auth: auth.kind, status, body });
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      record(status, body);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    };
    if (failures.count > 0) {
      failures.count -= 1;
      const { status, retryAfterSeconds } = failures;
      req.resume();
      answer(status, { message: status === 429 ? 'API rate limit exceeded' : 'Server Error' }, status === 429 ? { 'retry-after': String(retryAfterSeconds ?? 1), 'x-ratelimit-remaining': '0' } : {});
      return;
    }
    route(req, auth).then(
      ([status, body]) => answer(status, body),
      (error: unknown) => {
        if (error instanceof HttpError) {
          answer(error.status, { message: error.message, documentation_url: 'https://docs.github.com/rest' });
        } else answer(500, { message: String(error) });
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    tokens,
    comments,
    checkRuns,
    addInstallation: (id) => void installations.add(id),
    setPullFiles: (repo, number, files) => void pullFiles.set(`${repo}#${number}`, files),
    setPull: (repo, number, pull) => void pulls.set(`${repo.toLowerCase()}#${number}`, pull),
    setPermission: (repo, user, permission) => void permissions.set(`${repo}#${user.toLowerCase()}`, permission),
    failNext: (count, status, retryAfterSeconds) => {
      failures = { count, status, retryAfterSeconds };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
