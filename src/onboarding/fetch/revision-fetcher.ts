import { mkdir } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError, ErrorCode, userError } from '../../core/errors.js';
import type { Logger } from '../../logger.js';
import type { FetchedRevision, RevisionFile } from '../model.js';
import { writeCaBundle } from './ca-bundle.js';
import { boundErrors, DEFAULT_FETCH_LIMITS, type FetchLimits } from './fetch-bounds.js';
import { fetchFailure, noRefsFailure } from './git-failure.js';
import { authorizationHeader, gitEnvironment } from './git-environment.js';
import { createGitSession, type GitSession } from './git-session.js';
import { packBytes, watchPackSize } from './pack-size-watch.js';
import { checkRevisionRequest, type CheckedRequest, type RevisionRequest } from './revision-request.js';
import { parseTreeListing } from './tree-listing.js';
import { createWorkFolders } from './work-folders.js';

export type { RevisionRequest } from './revision-request.js';
export { DEFAULT_FETCH_LIMITS, type FetchLimits } from './fetch-bounds.js';

export interface RevisionFetcherDeps {
  logger: Logger;
  /**
   * A token of the repository's installation (compose: the code-host client's `installationToken`). Used for every
   * fetch that names an installation; absent, every fetch is anonymous and a private repository is
   * `repository.access_refused`.
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
  /**
   * Fetches one revision into a new temporary folder; on any error the folder is already gone. Aborting `signal`
   * (a worker shutting down) stops git and rejects with the signal's reason, the folder removed.
   */
  fetch(request: RevisionRequest, options?: { signal?: AbortSignal }): Promise<FetchedRevision>;
  /** Removes the folders killed workers left behind; returns how many. Every fetch sweeps first. */
  sweep(): Promise<number>;
}

/** One fetch in progress: its request, its folder's parts, its git commands. */
interface Fetch {
  checked: CheckedRequest;
  url: string;
  gitDir: string;
  tree: string;
  git: GitSession;
  usedToken: boolean;
  scrub: (text: string) => string;
}

/** Removes the token in every form it travels in from text that came from git, should git ever echo it. */
function scrubberFor(token: string | null): (text: string) => string {
  const forms = token === null ? [] : [token, authorizationHeader(token).replace(/^Authorization: Basic /, ''), `x-access-token:${token}`];
  return (text) => forms.reduce((clean, secret) => clean.split(secret).join('[redacted]'), text);
}

/**
 * Step 1 of onboarding (issue 28): a shallow fetch of one revision with the git CLI, into a temporary folder, bounded
 * by size, file count and time. The folder holds `git/` (the repository, no work tree), `tree/` (the checked-out
 * files: the `dir` handed back) and, with extra CAs, `ca.pem`. The steps: make the repository, fetch the one commit
 * (watching the bytes received), resolve it, list its files (bounding their count and size before anything is
 * written), check them out.
 */
export function createRevisionFetcher(deps: RevisionFetcherDeps): RevisionFetcher {
  const limits = { ...DEFAULT_FETCH_LIMITS, ...deps.limits };
  const bounds = boundErrors(limits);
  const now = deps.now ?? (() => Date.now());
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

  async function prepare(root: string, request: RevisionRequest, started: number, cancel: AbortSignal | undefined): Promise<Fetch> {
    const checked = checkRevisionRequest(request);
    const url = checked.url.href;
    const token = checked.installationId !== null && deps.tokenFor ? await deps.tokenFor(checked.installationId) : null;
    const scrub = scrubberFor(token);
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
    const git = createGitSession({
      binary: deps.gitBinary ?? 'git',
      env,
      cwd: root,
      deadline: started + limits.timeoutMs,
      now,
      timeout: () => bounds.timeout(`${checked.wanted} from ${url}`),
      scrub,
      cancel,
    });
    await git.runOk(['init', '--bare', '--quiet', '--template=', gitDir], 'make the repository');
    return { checked, url, gitDir, tree, git, usedToken: token !== null, scrub };
  }

  /** The one commit, shallow; returns the bytes received. */
  async function fetchCommit(fetch: Fetch): Promise<number> {
    const packDir = join(fetch.gitDir, 'objects', 'pack');
    const overSize = new AbortController();
    let seen = 0;
    const stopWatch = watchPackSize(packDir, limits.maxBytes, pollIntervalMs, (bytes) => {
      seen = bytes;
      overSize.abort();
    });
    const args = ['--git-dir', fetch.gitDir, 'fetch', '--quiet', '--depth=1', '--no-tags', '--no-recurse-submodules', '--', fetch.url, fetch.checked.wanted];
    const fetched = await fetch.git.run(args, { signal: overSize.signal }).finally(stopWatch);
    if (fetched.aborted) throw bounds.tooLarge(seen, 'received');
    if (fetched.exitCode !== 0) {
      const failure = fetchFailure(fetched.stderr, { url: fetch.url, wanted: fetch.checked.wanted, usedToken: fetch.usedToken, scrub: fetch.scrub });
      if (failure.code === ErrorCode.RepositoryRevisionUnknown) {
        const refs = await fetch.git.run(['--git-dir', fetch.gitDir, 'ls-remote', '--', fetch.url]);
        if (refs.exitCode === 0 && refs.stdout.length === 0) throw noRefsFailure(fetch.url);
      }
      throw failure;
    }
    const received = await packBytes(packDir);
    if (received > limits.maxBytes) throw bounds.tooLarge(received, 'received');
    return received;
  }

  async function resolveCommit(fetch: Fetch): Promise<string> {
    const resolved = await fetch.git.run(['--git-dir', fetch.gitDir, 'rev-parse', '--verify', '--quiet', 'FETCH_HEAD^{commit}']);
    if (resolved.exitCode !== 0) {
      throw userError(ErrorCode.RepositoryRevisionUnknown, `${fetch.checked.wanted} at ${fetch.url} names no commit (a tag of a tree or a blob?)`, { status: 404 });
    }
    return resolved.stdout.toString('utf8').trim();
  }

  async function listFiles(fetch: Fetch, commitSha: string): Promise<{ files: RevisionFile[]; bytes: number; unreadable: number }> {
    // Entries are counted as they come, so a tree of millions of entries is stopped early, not held in memory.
    let entries = 0;
    const listed = await fetch.git.run(['--git-dir', fetch.gitDir, 'ls-tree', '-r', '-l', '-z', '--full-tree', commitSha], {
      stopOn: (chunk) => {
        for (let at = chunk.indexOf(0); at !== -1; at = chunk.indexOf(0, at + 1)) entries += 1;
        return entries > limits.maxFiles;
      },
    });
    if (listed.stopped) throw bounds.tooManyFiles(entries, true);
    if (listed.exitCode !== 0) throw fetchFailure(listed.stderr, { url: fetch.url, wanted: commitSha, usedToken: fetch.usedToken, scrub: fetch.scrub });
    const { files, unreadable } = parseTreeListing(listed.stdout);
    if (files.length > limits.maxFiles) throw bounds.tooManyFiles(files.length, false);
    const bytes = files.reduce((sum, file) => sum + file.size, 0);
    if (bytes > limits.maxBytes) throw bounds.tooLarge(bytes, 'checked_out');
    return { files, bytes, unreadable };
  }

  async function fetchInto(root: string, request: RevisionRequest, started: number, cancel: AbortSignal | undefined): Promise<Omit<FetchedRevision, 'remove'>> {
    const fetch = await prepare(root, request, started, cancel);
    const received = await fetchCommit(fetch);
    const commitSha = await resolveCommit(fetch);
    const listing = await listFiles(fetch, commitSha);
    // git refuses paths that would leave the folder or write into .git (`..`, `.git`, their NTFS and HFS+ spellings).
    await fetch.git.runOk(['--git-dir', fetch.gitDir, '--work-tree', fetch.tree, '-c', 'core.bare=false', 'checkout', '--quiet', '--force', '--detach', commitSha], 'check the files out');
    deps.logger.info(
      {
        url: fetch.url,
        wanted: fetch.checked.wanted,
        commitSha,
        files: listing.files.length,
        bytes: listing.bytes,
        receivedBytes: received,
        unreadablePaths: listing.unreadable,
        ms: now() - started,
      },
      'fetched the revision',
    );
    return { dir: fetch.tree, commitSha, files: listing.files };
  }

  return {
    sweep,
    async fetch(request, options = {}) {
      options.signal?.throwIfAborted();
      const started = now();
      await sweep().catch((error: unknown) => deps.logger.warn({ err: error }, 'could not sweep the folders of earlier fetches'));
      const root = await folders.create();
      try {
        const revision = await fetchInto(root, request, started, options.signal);
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
