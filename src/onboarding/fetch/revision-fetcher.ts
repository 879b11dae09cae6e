import { mkdir } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError, ErrorCode, operationalError, userError } from '../../core/errors.js';
import type { Logger } from '../../logger.js';
import type { FetchedRevision } from '../model.js';
import { writeCaBundle } from './ca-bundle.js';
import { fetchFailure, noRefsFailure } from './git-failure.js';
import { authorizationHeader, gitEnvironment } from './git-environment.js';
import { packBytes, watchPackSize } from './pack-size-watch.js';
import { checkRevisionRequest, type RevisionRequest } from './revision-request.js';
import { runGit, type GitResult } from './run-git.js';
import { parseTreeListing } from './tree-listing.js';
import { createWorkFolders } from './work-folders.js';

export type { RevisionRequest } from './revision-request.js';

export interface FetchLimits {
  /** Bytes received, and bytes of the checked-out files (checked before anything is written). */
  maxBytes: number;
  maxFiles: number;
  /** Wall time of the whole fetch: init, fetch, listing and checkout. */
  timeoutMs: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { maxBytes: 512 * 1024 * 1024, maxFiles: 100_000, timeoutMs: 5 * 60_000 };

export interface RevisionFetcherDeps {
  logger: Logger;
  /**
   * An installation token for the repository's installation (compose: the code-host client's `installationToken`).
   * Absent: every fetch is anonymous, and a private repository is `repository.access_refused`.
   */
  tokenFor?: (installationId: string) => Promise<string>;
  /** Node's NODE_EXTRA_CA_CERTS, given to git too (ca-bundle.ts). */
  extraCaFile?: string;
  limits?: Partial<FetchLimits>;
  /** Where the fetches' folders go; os.tmpdir() by default. */
  tmpDir?: string;
  /** The only variables of the worker git sees (PATH, HTTPS_PROXY, NO_PROXY); git's own settings are added. */
  environment?: Readonly<Record<string, string | undefined>>;
  gitBinary?: string;
  now?: () => number;
  /** A folder of a live process older than this is a leftover too (24 h by default). */
  staleAfterMs?: number;
  /** How often the received bytes are measured. */
  pollIntervalMs?: number;
}

export interface RevisionFetcher {
  /** Fetches one revision into a new temporary folder; on any error the folder is already gone. */
  fetch(request: RevisionRequest): Promise<FetchedRevision>;
  /** Removes the folders killed workers left behind; returns how many. Every fetch sweeps first. */
  sweep(): Promise<number>;
}

const MIB = 1024 * 1024;

/**
 * Step 1 of onboarding (issue 28): a shallow fetch of one revision with the git CLI, into a temporary folder, bounded
 * by size, file count and time. The folder holds `git/` (the repository, no work tree), `tree/` (the checked-out
 * files: the `dir` handed back) and, with extra CAs, `ca.pem`.
 */
export function createRevisionFetcher(deps: RevisionFetcherDeps): RevisionFetcher {
  const limits = { ...DEFAULT_FETCH_LIMITS, ...deps.limits };
  const now = deps.now ?? (() => Date.now());
  const git = deps.gitBinary ?? 'git';
  const pollIntervalMs = deps.pollIntervalMs ?? 100;
  const folders = createWorkFolders({
    tmpDir: deps.tmpDir ?? tmpdir(),
    host: hostname(),
    pid: process.pid,
    staleAfterMs: deps.staleAfterMs ?? 24 * 3_600_000,
    now,
  });

  async function sweep(): Promise<number> {
    const removed = await folders.sweep();
    if (removed.length > 0) deps.logger.info({ removed }, 'removed the folders of fetches a stopped worker left behind');
    return removed.length;
  }

  async function fetchInto(root: string, request: RevisionRequest, started: number): Promise<Omit<FetchedRevision, 'remove'>> {
    const checked = checkRevisionRequest(request);
    const url = checked.url.href;
    const token = checked.installationId !== null && deps.tokenFor ? await deps.tokenFor(checked.installationId) : null;
    const secrets = token === null ? [] : [token, authorizationHeader(token).replace(/^Authorization: Basic /, ''), `x-access-token:${token}`];
    const scrub = (text: string) => secrets.reduce((clean, secret) => clean.split(secret).join('[redacted]'), text);

    const gitDir = join(root, 'git');
    const tree = join(root, 'tree');
    await mkdir(tree);
    let caFile: string | null = null;
    if (deps.extraCaFile !== undefined && deps.extraCaFile !== '') {
      caFile = join(root, 'ca.pem');
      await writeCaBundle(deps.extraCaFile, caFile);
    }
    const env = gitEnvironment({
      home: root,
      passed: deps.environment ?? { PATH: '/usr/local/bin:/usr/bin:/bin' },
      token,
      caFile,
      lowSpeedSeconds: Math.max(1, Math.ceil(limits.timeoutMs / 1000)),
    });
    const timeout = () =>
      operationalError(ErrorCode.RepositoryFetchTimeout, `Fetching ${checked.wanted} from ${url} took more than ${limits.timeoutMs} ms; git was stopped`, {
        status: 504,
        details: { timeoutMs: limits.timeoutMs },
      });
    const tooLarge = (bytes: number, measured: 'received' | 'checked_out') =>
      userError(
        ErrorCode.RepositoryTooLarge,
        `The revision is over the size bound: ${(bytes / MIB).toFixed(1)} MiB ${measured === 'received' ? 'received so far' : 'of files'}, more than ${(limits.maxBytes / MIB).toFixed(1)} MiB`,
        { status: 413, details: { limitBytes: limits.maxBytes, bytes, measured } },
      );

    const run = async (args: string[], signal?: AbortSignal): Promise<GitResult> => {
      const left = started + limits.timeoutMs - now();
      if (left <= 0) throw timeout();
      let result: GitResult;
      try {
        result = await runGit(git, { args, env, cwd: root, timeoutMs: left, signal });
      } catch (error) {
        throw operationalError(ErrorCode.RepositoryFetchFailed, `git could not be started (${(error as NodeJS.ErrnoException).code ?? 'error'}): is git installed on the worker?`, { cause: error });
      }
      if (result.timedOut) throw timeout();
      return result;
    };
    const runOk = async (args: string[], what: string): Promise<GitResult> => {
      const result = await run(args);
      if (result.exitCode !== 0) {
        throw operationalError(ErrorCode.RepositoryFetchFailed, `git could not ${what}: ${scrub(result.stderr.trim().split('\n').slice(-1)[0] ?? '')}`);
      }
      return result;
    };

    await runOk(['init', '--bare', '--quiet', '--template=', gitDir], 'make the repository');

    const overSize = new AbortController();
    let receivedOver = 0;
    const stopWatch = watchPackSize(join(gitDir, 'objects', 'pack'), limits.maxBytes, pollIntervalMs, (bytes) => {
      receivedOver = bytes;
      overSize.abort();
    });
    let fetched: GitResult;
    try {
      fetched = await run(
        ['--git-dir', gitDir, 'fetch', '--quiet', '--depth=1', '--no-tags', '--no-recurse-submodules', '--', url, checked.wanted],
        overSize.signal,
      );
    } finally {
      stopWatch();
    }
    if (fetched.aborted) throw tooLarge(receivedOver, 'received');
    if (fetched.exitCode !== 0) {
      const failure = fetchFailure(fetched.stderr, { url, wanted: checked.wanted, usedToken: token !== null, scrub });
      if (failure.code === ErrorCode.RepositoryRevisionUnknown) {
        const listed = await run(['--git-dir', gitDir, 'ls-remote', '--', url]);
        if (listed.exitCode === 0 && listed.stdout.length === 0) throw noRefsFailure(url);
      }
      throw failure;
    }
    const received = await packBytes(join(gitDir, 'objects', 'pack'));
    if (received > limits.maxBytes) throw tooLarge(received, 'received');

    const resolved = await run(['--git-dir', gitDir, 'rev-parse', '--verify', '--quiet', 'FETCH_HEAD^{commit}']);
    if (resolved.exitCode !== 0) {
      throw userError(ErrorCode.RepositoryRevisionUnknown, `${checked.wanted} at ${url} names no commit (a tag of a tree or a blob?)`, { status: 404 });
    }
    const commitSha = resolved.stdout.toString('utf8').trim();

    const listing = parseTreeListing((await runOk(['--git-dir', gitDir, 'ls-tree', '-r', '-l', '-z', '--full-tree', commitSha], 'list the files')).stdout);
    if (listing.files.length > limits.maxFiles) {
      throw userError(ErrorCode.RepositoryTooManyFiles, `The revision has ${listing.files.length} files, more than the bound of ${limits.maxFiles}`, {
        status: 413,
        details: { limit: limits.maxFiles, files: listing.files.length },
      });
    }
    const checkedOutBytes = listing.files.reduce((sum, file) => sum + file.size, 0);
    if (checkedOutBytes > limits.maxBytes) throw tooLarge(checkedOutBytes, 'checked_out');

    await runOk(['--git-dir', gitDir, '--work-tree', tree, '-c', 'core.bare=false', 'checkout', '--quiet', '--force', '--detach', commitSha], 'check the files out');
    deps.logger.info(
      { url, wanted: checked.wanted, commitSha, files: listing.files.length, bytes: checkedOutBytes, receivedBytes: received, unreadablePaths: listing.unreadable, ms: now() - started },
      'fetched the revision',
    );
    return { dir: tree, commitSha, files: listing.files };
  }

  return {
    sweep,
    async fetch(request) {
      const started = now();
      await sweep().catch((error: unknown) => deps.logger.warn({ err: error }, 'could not sweep the folders of earlier fetches'));
      const root = await folders.create();
      try {
        const revision = await fetchInto(root, request, started);
        let removed: Promise<void> | undefined;
        return { ...revision, remove: () => (removed ??= folders.remove(root)) };
      } catch (error) {
        await folders.remove(root);
        if (error instanceof AppError) deps.logger.warn({ code: error.code }, error.message);
        throw error;
      }
    },
  };
}
