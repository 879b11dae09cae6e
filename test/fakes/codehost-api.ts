/**
 * A local stand-in for the code host's REST API (GitHub's wire format, as @octokit/rest and @octokit/app send it): a
 * real HTTP server on 127.0.0.1. It checks the app JWT as GitHub does (RS256 under the app's public key, `iss` = the
 * app id, `exp` at most 10 minutes after `iat`, not expired), exchanges it for installation tokens
 * (`POST /app/installations/:id/access_tokens`), accepts only live installation tokens elsewhere
 * (`Authorization: token …` or `Bearer …`), serves pull requests, their files and collaborator permissions, records
 * issue comments (lists honour `since`) and check runs and lists them back (paginated with a `link` header, as GitHub pages), refuses what GitHub
 * refuses (a comment body over 65,536 characters, a check-run summary over 65,535, more than 50 annotations), and
 * can answer 429 (with `retry-after`) or 5xx for the next calls.
 * Shapes: https://docs.github.com/en/rest (apps, pulls, collaborators, issues/comments, checks/runs),
 * pagination: https://docs.github.com/en/rest/using-the-rest-api/using-pagination-in-the-rest-api.
 */
import { createHash, createPublicKey, randomBytes, verify, type KeyObject } from 'node:crypto';
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
  /** Who wrote it: the app's bot for comments the API posted, anyone for `addComment`. */
  user: { login: string; type: 'Bot' | 'User' };
  /** When it was posted or last edited (what GitHub's `since` compares). */
  updatedAt: Date;
}

/** A pull request as a test registers it; the fake answers it in GitHub's shape. */
export interface FakePull {
  headSha: string;
  /** The author's login (default `octocat`). */
  author?: string;
  state?: 'open' | 'closed';
  /** Whether a closed pull request was merged (default false). */
  merged?: boolean;
  draft?: boolean;
  /** The head's repository when the pull request comes from a fork (`owner/name`); default the base repository. */
  headRepo?: string;
}

/** A changed file of a pull request as a test registers it. */
export interface FakePullFile {
  filename: string;
  status?: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged';
  previous_filename?: string;
}

export interface FakeCheckRun {
  id: number;
  repo: string;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  external_id: string | null;
  details_url: string | null;
  /** The app that created it (`app.id`): this fake's app, or another app for `addCheckRun`. */
  app_id: number;
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
  /**
   * The files of pull request `number` of `repo` for `GET /repos/{o}/{r}/pulls/{n}/files` (paginated, at most the
   * first 3,000, as GitHub lists them); a renamed file names its `previous_filename`.
   */
  setPullFiles(repo: string, number: number, files: FakePullFile[]): void;
  /** Registers (or replaces) pull request `number` of `repo` (`owner/name`) for `GET /repos/{o}/{r}/pulls/{n}`. */
  setPull(repo: string, number: number, pull: FakePull): void;
  setPermission(repo: string, user: string, permission: 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none'): void;
  /** A comment someone else wrote on issue or PR `issueNumber` (a person by default). */
  addComment(repo: string, issueNumber: number, body: string, user?: FakeComment['user']): FakeComment;
  /** A check run another app (or this one) created on `headSha`. */
  addCheckRun(repo: string, run: { name: string; head_sha: string; external_id?: string; app_id?: number }): FakeCheckRun;
  /** Deletes a comment, as a person can on the PR: later edits of it answer 404. */
  deleteComment(id: number): void;
  /**
   * The next `count` requests (any route, or only those `only` matches: a method and a path pattern) answer `status`;
   * a 429 carries `retry-after: retryAfterSeconds`.
   */
  failNext(count: number, status: number, retryAfterSeconds?: number, only?: { method: string; path: RegExp }): void;
  /**
   * The next `count` requests `only` matches are answered `ms` late, and handled then (a slow code host: a client
   * that gave up meanwhile finds the comment or check run made all the same).
   */
  delayNext(count: number, ms: number, only: { method: string; path: RegExp }): void;
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

/** GitHub's page parameters: `per_page` (default 30, at most 100) and `page` (from 1). */
function pageOf(url: URL): { perPage: number; page: number } {
  const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get('per_page') ?? 30) || 30));
  const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
  return { perPage, page };
}

/** One page of `items` and GitHub's `link` header (`<…?page=2>; rel="next", <…?page=5>; rel="last"`) when more follow. */
function paged<T>(items: T[], url: URL, base: string): { items: T[]; headers: Record<string, string> } {
  const { perPage, page } = pageOf(url);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const at = (number: number) => {
    const next = new URL(url.pathname + url.search, base);
    next.searchParams.set('page', String(number));
    next.searchParams.set('per_page', String(perPage));
    return next.toString();
  };
  const links = [...(page < last ? [`<${at(page + 1)}>; rel="next"`, `<${at(last)}>; rel="last"`] : []), ...(page > 1 ? [`<${at(1)}>; rel="first"`, `<${at(page - 1)}>; rel="prev"`] : [])];
  return { items: items.slice((page - 1) * perPage, page * perPage), headers: links.length > 0 ? { link: links.join(', ') } : {} };
}

/** https://docs.github.com/en/rest/pulls/pulls#list-pull-requests-files: "Responses include a maximum of 3000 files." */
const PULL_FILES_MAX = 3_000;

/** A changed file as `GET /repos/{o}/{r}/pulls/{n}/files` answers it. */
function pullFileJson(repo: string, file: FakePullFile) {
  const sha = createHash('sha1').update(file.filename).digest('hex');
  const blob = `https://codehost.example/${repo}/blob/${sha}/${encodeURI(file.filename)}`;
  return {
    sha,
    filename: file.filename,
    status: file.status ?? 'modified',
    additions: 1,
    deletions: file.status === 'renamed' ? 0 : 1,
    changes: file.status === 'renamed' ? 1 : 2,
    blob_url: blob,
    raw_url: blob.replace('/blob/', '/raw/'),
    contents_url: `https://api.codehost.example/repos/${repo}/contents/${encodeURI(file.filename)}?ref=${sha}`,
    patch: '@@ -1 +1 @@\n-old\n+new',
    ...(file.previous_filename !== undefined ? { previous_filename: file.previous_filename } : {}),
  };
}

const COMMENT_BODY_MAX = 65_536;
const CHECK_SUMMARY_MAX = 65_535;
const ANNOTATIONS_MAX = 50;
const CHECK_STATUSES = new Set(['queued', 'in_progress', 'completed', 'waiting', 'requested', 'pending']);
const CONCLUSIONS = new Set(['action_required', 'cancelled', 'failure', 'neutral', 'success', 'skipped', 'stale', 'timed_out']);

/** GitHub's 422 for a body it will not store. */
function validationFailed(message: string): HttpError {
  return new HttpError(422, `Validation Failed: ${message}`);
}

function checkCommentBody(body: unknown): string {
  if (typeof body !== 'string') throw validationFailed('body is missing');
  if (body.length > COMMENT_BODY_MAX) throw validationFailed(`body is too long (maximum is ${COMMENT_BODY_MAX} characters)`);
  return body;
}

/** What GitHub checks of a check run's status, conclusion and output. */
function checkRunFields(body: Record<string, unknown>): void {
  if (body.status !== undefined && !(typeof body.status === 'string' && CHECK_STATUSES.has(body.status))) throw validationFailed('status is not included in the list');
  if (body.conclusion !== undefined && !(typeof body.conclusion === 'string' && CONCLUSIONS.has(body.conclusion))) throw validationFailed('conclusion is not included in the list');
  if (body.status === 'completed' && body.conclusion === undefined) throw validationFailed('conclusion is required when status is completed');
  const output = body.output as { title?: unknown; summary?: unknown; annotations?: unknown[] } | undefined;
  if (output !== undefined) {
    if (typeof output.title !== 'string' || typeof output.summary !== 'string') throw validationFailed('output needs a title and a summary');
    if (output.summary.length > CHECK_SUMMARY_MAX) throw validationFailed(`output.summary is too long (maximum is ${CHECK_SUMMARY_MAX} characters)`);
    if ((output.annotations?.length ?? 0) > ANNOTATIONS_MAX) throw validationFailed(`at most ${ANNOTATIONS_MAX} annotations per request`);
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new HttpError(400, 'Problems parsing JSON');
  }
}

export async function startFakeCodehost(options: FakeCodehostOptions): Promise<FakeCodehost> {
  const key = createPublicKey(options.publicKey);
  const lifetimeMs = options.tokenLifetimeMs ?? 3_600_000;
  const bot = `${options.botName ?? 'qa-bot'}[bot]`;
  const installations = new Set<number>();
  const pullFiles = new Map<string, FakePullFile[]>();
  const pulls = new Map<string, FakePull>();
  const permissions = new Map<string, string>();
  const requests: RecordedRequest[] = [];
  const tokens: IssuedToken[] = [];
  const comments: FakeComment[] = [];
  const checkRuns: FakeCheckRun[] = [];
  let failures: { count: number; status: number; retryAfterSeconds?: number; only?: { method: string; path: RegExp } } = { count: 0, status: 500 };
  let delays: { count: number; ms: number; only?: { method: string; path: RegExp } } = { count: 0, ms: 0 };
  const matches = (req: IncomingMessage, only: { method: string; path: RegExp } | undefined) =>
    !only || (only.method === req.method && only.path.test(new URL(req.url ?? '/', 'http://fake').pathname));
  const delayNow = (req: IncomingMessage) => {
    if (delays.count === 0 || !matches(req, delays.only)) return 0;
    delays.count -= 1;
    return delays.ms;
  };
  const failsNow = (req: IncomingMessage) =>
    failures.count > 0 && (!failures.only || (failures.only.method === req.method && failures.only.path.test(new URL(req.url ?? '/', 'http://fake').pathname)));
  let nextId = 1000;
  let base = 'http://127.0.0.1';
  const botUser: FakeComment['user'] = { login: bot, type: 'Bot' };

  /** A comment as GitHub's issue-comment endpoints answer it. */
  const commentJson = (comment: FakeComment) => ({
    id: comment.id,
    body: comment.body,
    user: { login: comment.user.login, type: comment.user.type },
    created_at: comment.updatedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    updated_at: comment.updatedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    html_url: `https://codehost.example/${comment.repo}/pull/${comment.issueNumber}#issuecomment-${comment.id}`,
    issue_url: `${base}/repos/${comment.repo}/issues/${comment.issueNumber}`,
  });
  /** A check run as GitHub's check-run endpoints answer it. */
  const checkRunJson = (run: FakeCheckRun) => ({
    id: run.id,
    name: run.name,
    head_sha: run.head_sha,
    external_id: run.external_id,
    details_url: run.details_url,
    status: run.status,
    conclusion: run.conclusion,
    output: run.output,
    app: { id: run.app_id, slug: run.app_id === options.appId ? (options.botName ?? 'qa-bot') : `app-${run.app_id}` },
  });

  function pullBody(repo: string, number: number, pull: FakePull) {
    const [owner = '', name = ''] = repo.split('/');
    const repository = (fullName: string) => ({ name: fullName.split('/')[1], full_name: fullName, owner: { login: fullName.split('/')[0] }, fork: fullName.toLowerCase() !== repo.toLowerCase() });
    return {
      number,
      state: pull.state ?? 'open',
      merged: pull.merged ?? false,
      draft: pull.draft ?? false,
      title: `Pull request ${number}`,
      user: { login: pull.author ?? 'octocat', type: 'User' },
      head: { sha: pull.headSha, ref: `feature-${number}`, repo: repository(pull.headRepo ?? repo) },
      base: { sha: '0'.repeat(40), ref: 'main', repo: repository(`${owner}/${name}`) },
      html_url: `https://codehost.example/${repo}/pull/${number}`,
      updated_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    };
  }

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

  async function route(req: IncomingMessage, auth: { kind: RecordedRequest['auth']; credential: string }, raw: Buffer): Promise<[number, unknown, Record<string, string>?]> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
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
      // GitHub lists at most the first 3,000 files of a pull request, however many pages are asked for.
      const page = paged(files.slice(0, PULL_FILES_MAX), url, base);
      return [200, page.items.map((file) => pullFileJson(match![1]!, file)), page.headers];
    }
    if (method === 'GET' && (match = /^\/repos\/([^/]+\/[^/]+)\/collaborators\/([^/]+)\/permission$/.exec(path))) {
      const permission = permissions.get(`${match[1]}#${match[2]!.toLowerCase()}`) ?? 'none';
      return [200, { permission, role_name: permission, user: { login: match[2], type: 'User' } }];
    }
    if (method === 'GET' && (match = /^\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)$/.exec(path))) {
      const pull = pulls.get(`${match[1]!.toLowerCase()}#${match[2]}`);
      if (!pull) throw new HttpError(404, 'Not Found');
      return [200, pullBody(match[1]!, Number(match[2]), pull)];
    }
    if (method === 'GET' && (match = /^\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)\/comments$/.exec(path))) {
      const since = url.searchParams.has('since') ? new Date(url.searchParams.get('since')!) : null;
      const listed = comments.filter(
        (comment) => comment.repo.toLowerCase() === match![1]!.toLowerCase() && comment.issueNumber === Number(match![2]) && (!since || comment.updatedAt >= since),
      );
      const page = paged(listed, url, base);
      return [200, page.items.map(commentJson), page.headers];
    }
    if (method === 'POST' && (match = /^\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)\/comments$/.exec(path))) {
      const body = parseJson(raw) as { body?: unknown } | undefined;
      const comment: FakeComment = { id: (nextId += 1), repo: match[1]!, issueNumber: Number(match[2]), body: checkCommentBody(body?.body), edits: 0, user: botUser, updatedAt: new Date() };
      comments.push(comment);
      return [201, commentJson(comment)];
    }
    if (method === 'PATCH' && (match = /^\/repos\/([^/]+\/[^/]+)\/issues\/comments\/(\d+)$/.exec(path))) {
      const comment = comments.find((candidate) => candidate.id === Number(match![2]) && candidate.repo === match![1]);
      if (!comment) throw new HttpError(404, 'Not Found');
      const body = parseJson(raw) as { body?: unknown } | undefined;
      if (comment.user.login !== bot) throw new HttpError(403, 'Resource not accessible by integration');
      comment.body = checkCommentBody(body?.body);
      comment.edits += 1;
      comment.updatedAt = new Date();
      return [200, commentJson(comment)];
    }
    if (method === 'POST' && (match = /^\/repos\/([^/]+\/[^/]+)\/check-runs$/.exec(path))) {
      const body = parseJson(raw) as Record<string, unknown> | undefined;
      if (typeof body?.name !== 'string' || typeof body.head_sha !== 'string') throw validationFailed('name and head_sha are required');
      checkRunFields(body);
      const run: FakeCheckRun = {
        id: (nextId += 1),
        repo: match[1]!,
        name: body.name,
        head_sha: body.head_sha,
        // GitHub: a conclusion completes the run whatever status says.
        status: body.conclusion !== undefined ? 'completed' : typeof body.status === 'string' ? body.status : 'queued',
        conclusion: typeof body.conclusion === 'string' ? body.conclusion : null,
        external_id: typeof body.external_id === 'string' ? body.external_id : null,
        details_url: typeof body.details_url === 'string' ? body.details_url : null,
        app_id: options.appId,
        output: body.output,
        updates: 0,
      };
      checkRuns.push(run);
      return [201, checkRunJson(run)];
    }
    if (method === 'GET' && (match = /^\/repos\/([^/]+\/[^/]+)\/commits\/([^/]+)\/check-runs$/.exec(path))) {
      const [, repo, ref] = match;
      const appId = url.searchParams.get('app_id');
      const name = url.searchParams.get('check_name');
      const status = url.searchParams.get('status');
      let runs = checkRuns.filter((run) => run.repo === repo && run.head_sha === ref && (appId === null || String(run.app_id) === appId) && (name === null || run.name === name) && (status === null || run.status === status));
      // `filter=latest` (the default): only the most recent run of each name.
      if ((url.searchParams.get('filter') ?? 'latest') === 'latest') runs = runs.filter((run) => !runs.some((other) => other.name === run.name && other.id > run.id));
      const page = paged(runs, url, base);
      return [200, { total_count: runs.length, check_runs: page.items.map(checkRunJson) }, page.headers];
    }
    if (method === 'PATCH' && (match = /^\/repos\/([^/]+\/[^/]+)\/check-runs\/(\d+)$/.exec(path))) {
      const run = checkRuns.find((candidate) => candidate.id === Number(match![2]) && candidate.repo === match![1]);
      if (!run) throw new HttpError(404, 'Not Found');
      if (run.app_id !== options.appId) throw new HttpError(403, 'Resource not accessible by integration');
      const body = (parseJson(raw) ?? {}) as Record<string, unknown>;
      checkRunFields(body);
      Object.assign(run, {
        status: body.conclusion !== undefined ? 'completed' : typeof body.status === 'string' ? body.status : run.status,
        conclusion: typeof body.conclusion === 'string' ? body.conclusion : run.conclusion,
        output: body.output ?? run.output,
        name: typeof body.name === 'string' ? body.name : run.name,
        external_id: typeof body.external_id === 'string' ? body.external_id : run.external_id,
        details_url: typeof body.details_url === 'string' ? body.details_url : run.details_url,
      });
      run.updates += 1;
      return [200, checkRunJson(run)];
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
    if (failsNow(req)) {
      failures.count -= 1;
      const { status, retryAfterSeconds } = failures;
      req.resume();
      answer(status, { message: status === 429 ? 'API rate limit exceeded' : 'Server Error' }, status === 429 ? { 'retry-after': String(retryAfterSeconds ?? 1), 'x-ratelimit-remaining': '0' } : {});
      return;
    }
    const delay = delayNow(req);
    // The body is read before any delay: a client that gave up meanwhile has closed the request.
    const handled = readBody(req).then(async (raw) => {
      if (delay > 0) await new Promise<void>((resolve) => setTimeout(resolve, delay));
      return route(req, auth, raw);
    });
    handled.then(
      ([status, body, headers]) => answer(status, body, headers),
      (error: unknown) => {
        if (error instanceof HttpError) {
          answer(error.status, { message: error.message, documentation_url: 'https://docs.github.com/rest' });
        } else answer(500, { message: String(error) });
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    requests,
    tokens,
    comments,
    checkRuns,
    addInstallation: (id) => void installations.add(id),
    setPullFiles: (repo, number, files) => void pullFiles.set(`${repo}#${number}`, files),
    setPermission: (repo, user, permission) => void permissions.set(`${repo}#${user.toLowerCase()}`, permission),
    setPull: (repo, number, pull) => void pulls.set(`${repo.toLowerCase()}#${number}`, pull),
    addComment: (repo, issueNumber, body, user = { login: 'someone', type: 'User' }) => {
      const comment: FakeComment = { id: (nextId += 1), repo, issueNumber, body, edits: 0, user, updatedAt: new Date() };
      comments.push(comment);
      return comment;
    },
    addCheckRun: (repo, { name, head_sha, external_id, app_id }) => {
      const run: FakeCheckRun = { id: (nextId += 1), repo, name, head_sha, status: 'queued', conclusion: null, external_id: external_id ?? null, details_url: null, app_id: app_id ?? options.appId, updates: 0 };
      checkRuns.push(run);
      return run;
    },
    deleteComment: (id) => {
      const index = comments.findIndex((comment) => comment.id === id);
      if (index >= 0) comments.splice(index, 1);
    },
    delayNext: (count, ms, only) => {
      delays = { count, ms, only };
    },
    failNext: (count, status, retryAfterSeconds, only) => {
      failures = { count, status, retryAfterSeconds, only };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
