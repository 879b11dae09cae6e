import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { AppError } from '../../../src/core/errors.js';
import { createRevisionFetcher, type RevisionFetcherDeps, type RevisionRequest } from '../../../src/onboarding/fetch/revision-fetcher.js';
import { authorizationHeader } from '../../../src/onboarding/fetch/git-environment.js';
import { startFakeGitHost, type FakeGitHost } from '../../fakes/git-https-server.js';
import { createTestRepository, git, type TestRepository } from '../../fixtures/git-repositories.js';
import { createTestCertificates, type TestCertificates } from '../../fixtures/tls/test-certificates.js';

const TOKEN = `ghs_${randomBytes(18).toString('hex')}`;
const PASSED = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

let certificates: TestCertificates;
let scratch: string;
let caFile: string;
let host: FakeGitHost;
let shop: TestRepository;
let secret: TestRepository;
let logLines: string[];

/** A fetcher trusting the test CA, with its own tmp folder and a logger whose every line is kept. */
async function fetcher(overrides: Partial<RevisionFetcherDeps> = {}) {
  const tmpDir = await mkdtemp(join(scratch, 'tmp-'));
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  const issued: string[] = [];
  const deps: RevisionFetcherDeps = {
    logger: pino({ level: 'trace' }, sink),
    extraCaFile: caFile,
    tmpDir,
    environment: PASSED,
    tokenFor: async (installationId) => {
      issued.push(installationId);
      return TOKEN;
    },
    ...overrides,
  };
  return { revisions: createRevisionFetcher(deps), tmpDir, issued };
}

function request(path: string, overrides: Partial<RevisionRequest> = {}): RevisionRequest {
  return { cloneUrl: `${host.url}/${path}`, revision: null, defaultBranch: 'main', installationId: '42', ...overrides };
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

async function allFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

const HOSTILE = [
  'docs/with space.md',
  'new\nline.txt',
  'tab\there.txt',
  'ünïcødé/日本語.md',
  '-rf',
  '--upload-pack=touch pwned',
  '$(touch pwned).js',
  '"quoted" name.ts',
  'back\\slash.txt',
  'emoji 🚀.tsx',
];

beforeAll(async () => {
  certificates = await createTestCertificates();
  scratch = await mkdtemp(join(tmpdir(), 'qa-fetch-test-'));
  caFile = join(scratch, 'test-ca.pem');
  await writeFile(caFile, certificates.ca);
  const root = join(scratch, 'repositories');
  shop = await createTestRepository(root, 'acme/shop.git', [
    { 'package.json': '{"name":"shop"}\n', 'pages/index.tsx': 'export default function Home() { return null; }\n' },
    { 'pages/cart.tsx': 'export default function Cart() { return null; }\n' },
    { 'pages/index.tsx': 'export default function Home() { return <h1>Shop</h1>; }\n', 'pages/old.tsx': null },
  ]);
  secret = await createTestRepository(root, 'acme/secret.git', [{ 'README.md': '# secret\n' }, { 'src/app.ts': 'export {};\n' }], 'trunk');
  await createTestRepository(
    root,
    'acme/hostile.git',
    [{ ...Object.fromEntries(HOSTILE.map((name, index) => [name, `file ${index}\n`])), 'link-out': { symlinkTo: '/etc/passwd' } }],
  );
  await createTestRepository(root, 'acme/empty.git', []);
  await createTestRepository(root, 'acme/big.git', [{ 'blob.bin': randomBytes(3 * 1024 * 1024) }]);
  await createTestRepository(root, 'acme/zeros.git', [{ 'zeros.txt': Buffer.alloc(4 * 1024 * 1024) }]);
  await createTestRepository(root, 'acme/many.git', [Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`src/file-${index}.ts`, `export const n = ${index};\n`]))]);
  // Trees git itself would never write: an entry `..` holding a file, and one `.git` holding a config.
  const escape = await createTestRepository(root, 'acme/escape.git', [{ 'README.md': 'fine\n' }]);
  for (const [name, branch] of [['..', 'dotdot'], ['.git', 'dotgit']] as const) {
    const blob = (await git(['--git-dir', escape.gitDir, 'hash-object', '-w', '--stdin'], undefined, {}, '[core]\n\thooksPath = /tmp\n')).trim();
    const inner = (await git(['--git-dir', escape.gitDir, 'mktree'], undefined, {}, `100644 blob ${blob}\tconfig\n`)).trim();
    const top = (await git(['--git-dir', escape.gitDir, 'mktree'], undefined, {}, `040000 tree ${inner}\t${name}\n100644 blob ${blob}\tok.txt\n`)).trim();
    const commit = (await git(['--git-dir', escape.gitDir, 'commit-tree', top, '-m', 'hostile'])).trim();
    await git(['--git-dir', escape.gitDir, 'update-ref', `refs/heads/${branch}`, commit]);
  }
  host = await startFakeGitHost({ key: certificates.key, cert: certificates.cert, projectRoot: root, privateRepositories: ['acme/secret.git'] });
  host.issueToken(TOKEN);
});

afterAll(async () => {
  await host?.close();
  await certificates?.remove();
  await rm(scratch, { recursive: true, force: true });
});

beforeEach(() => {
  logLines = [];
});

describe('fetching a revision over HTTPS', () => {
  it("checks out the default branch's head with every file's blob id, and remove() deletes the folder", async () => {
    const { revisions, tmpDir } = await fetcher();
    const revision = await revisions.fetch(request('acme/shop.git'));
    expect(revision.commitSha).toBe(shop.shas[2]);
    expect(revision.files.map((file) => file.path).sort()).toEqual(['package.json', 'pages/cart.tsx', 'pages/index.tsx']);
    const index = revision.files.find((file) => file.path === 'pages/index.tsx');
    const content = await readFile(join(revision.dir, 'pages/index.tsx'), 'utf8');
    expect(content).toContain('<h1>Shop</h1>');
    expect(index).toEqual({ path: 'pages/index.tsx', size: Buffer.byteLength(content), blobId: (await git(['hash-object', join(revision.dir, 'pages/index.tsx')])).trim() });
    // Shallow: the one commit, no history.
    expect((await git(['--git-dir', join(dirname(revision.dir), 'git'), 'rev-list', '--all'])).trim().split('\n')).toEqual([shop.shas[2]]);
    await revision.remove();
    await revision.remove();
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it('checks out an older commit by its full SHA', async () => {
    const { revisions } = await fetcher();
    const revision = await revisions.fetch(request('acme/shop.git', { revision: shop.shas[0] }));
    expect(revision.commitSha).toBe(shop.shas[0]);
    expect(revision.files.map((file) => file.path).sort()).toEqual(['package.json', 'pages/index.tsx']);
    expect(await readFile(join(revision.dir, 'pages/index.tsx'), 'utf8')).not.toContain('<h1>');
    await revision.remove();
  });

  it('fetches a private repository with the installation token, keeping it out of .git/config, the folder and the logs', async () => {
    const { revisions, issued } = await fetcher();
    const revision = await revisions.fetch(request('acme/secret.git', { defaultBranch: 'trunk' }));
    expect(issued).toEqual(['42']);
    expect(revision.commitSha).toBe(secret.shas[1]);
    expect(revision.files.map((file) => file.path).sort()).toEqual(['README.md', 'src/app.ts']);
    const root = dirname(revision.dir);
    const config = await readFile(join(root, 'git', 'config'), 'utf8');
    expect(config).not.toMatch(/extraheader|x-access-token|Authorization/i);
    const header = authorizationHeader(TOKEN).replace('Authorization: Basic ', '');
    for (const file of await allFiles(root)) {
      const bytes = await readFile(file);
      expect([file, bytes.includes(TOKEN), bytes.includes(header)]).toEqual([file, false, false]);
    }
    expect(logLines.join('')).toContain('fetched the revision');
    expect(logLines.join('')).not.toContain(TOKEN);
    expect(logLines.join('')).not.toContain(header);
    expect(host.requests.some((seen) => seen.path.startsWith('/acme/secret.git') && seen.auth === 'valid')).toBe(true);
    await revision.remove();
  });

  it('refuses a private repository without a token, and with a token the host refuses, as repository.access_refused', async () => {
    const anonymous = await fetcher({ tokenFor: undefined });
    const withoutToken = await failure(anonymous.revisions.fetch(request('acme/secret.git', { defaultBranch: 'trunk' })));
    expect(withoutToken.code).toBe('repository.access_refused');
    expect(withoutToken.message).toMatch(/no installation token/);
    expect(await readdir(anonymous.tmpDir)).toEqual([]);

    const wrong = `ghs_${randomBytes(18).toString('hex')}`;
    const refused = await fetcher({ tokenFor: () => Promise.resolve(wrong) });
    const withWrongToken = await failure(refused.revisions.fetch(request('acme/secret.git', { defaultBranch: 'trunk' })));
    expect(withWrongToken.code).toBe('repository.access_refused');
    expect(withWrongToken.message).toMatch(/token was refused/);
    const said = `${withWrongToken.message} ${JSON.stringify(withWrongToken.details ?? {})} ${logLines.join('')}`;
    expect(said).not.toContain(wrong);
    expect(said).not.toContain(authorizationHeader(wrong).replace('Authorization: Basic ', ''));
    expect(await readdir(refused.tmpDir)).toEqual([]);
  });

  it("passes on the code host's refusal to issue a token, and leaves nothing behind", async () => {
    const refusal = new AppError({ kind: 'operational', code: 'codehost.unauthorized', message: 'The code host refused the app JWT' });
    const { revisions, tmpDir } = await fetcher({ tokenFor: () => Promise.reject(refusal) });
    expect(await failure(revisions.fetch(request('acme/secret.git', { defaultBranch: 'trunk' })))).toBe(refusal);
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it('says repository.revision_unknown for an unknown SHA and an unknown branch', async () => {
    const { revisions, tmpDir } = await fetcher();
    const sha = await failure(revisions.fetch(request('acme/shop.git', { revision: 'f'.repeat(40) })));
    expect(sha.code).toBe('repository.revision_unknown');
    expect(sha.message).toContain('f'.repeat(40));
    const branch = await failure(revisions.fetch(request('acme/shop.git', { defaultBranch: 'develop' })));
    expect(branch.code).toBe('repository.revision_unknown');
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it('says repository.not_git for a 404 and for an HTML page', async () => {
    const { revisions, tmpDir } = await fetcher();
    const missing = await failure(revisions.fetch(request('acme/nothing.git')));
    expect(missing.code).toBe('repository.not_git');
    expect(missing.message).toContain('404');
    const page = await failure(revisions.fetch(request('html/acme/shop')));
    expect(page.code).toBe('repository.not_git');
    const pageAtSha = await failure(revisions.fetch(request('html/acme/shop', { revision: shop.shas[0] })));
    expect(pageAtSha.code).toBe('repository.not_git');
    const empty = await failure(revisions.fetch(request('acme/empty.git')));
    expect(empty.code).toBe('repository.not_git');
    expect(empty.message).toMatch(/no git refs/);
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it('stops at the size bound, whether the bytes come over the wire or only once checked out', async () => {
    const { revisions, tmpDir } = await fetcher({ limits: { maxBytes: 1024 * 1024 } });
    const received = await failure(revisions.fetch(request('acme/big.git')));
    expect(received.code).toBe('repository.too_large');
    expect(received.details).toMatchObject({ measured: 'received', limitBytes: 1024 * 1024 });
    // 4 MiB of zeros is a few KiB on the wire: the listing's sizes catch it before anything is written.
    const inflated = await failure(revisions.fetch(request('acme/zeros.git')));
    expect(inflated.code).toBe('repository.too_large');
    expect(inflated.details).toMatchObject({ measured: 'checked_out', bytes: 4 * 1024 * 1024 });
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it('stops at the file-count bound', async () => {
    const { revisions, tmpDir } = await fetcher({ limits: { maxFiles: 50 } });
    const error = await failure(revisions.fetch(request('acme/many.git')));
    expect(error.code).toBe('repository.too_many_files');
    expect(error.details).toMatchObject({ limit: 50 });
    expect((error.details as { files: number }).files).toBeGreaterThan(50);
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it('stops a fetch that outlives its time bound, and drops its connection', async () => {
    const { revisions, tmpDir } = await fetcher({ limits: { timeoutMs: 1500 } });
    const error = await failure(revisions.fetch(request('stall/acme/shop.git')));
    expect(error.code).toBe('repository.fetch_timeout');
    expect(error.details).toEqual({ timeoutMs: 1500 });
    expect(host.requests.some((seen) => seen.path.startsWith('/stall/'))).toBe(true);
    // git and its remote helper were killed, so nothing holds the server's connection any more.
    for (let waited = 0; host.openStalls() > 0 && waited < 50; waited += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(host.openStalls()).toBe(0);
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it("stops at the caller's signal (a worker shutting down), with the signal's reason, and leaves nothing behind", async () => {
    const { revisions, tmpDir } = await fetcher();
    const shutdown = new AbortController();
    const stallsBefore = host.requests.filter((seen) => seen.path.startsWith('/stall/')).length;
    const pending = revisions.fetch(request('stall/acme/cancelled.git'), { signal: shutdown.signal });
    for (let waited = 0; host.requests.filter((seen) => seen.path.startsWith('/stall/')).length === stallsBefore && waited < 200; waited += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const reason = new AppError({ kind: 'operational', code: 'job.start_failed', message: 'the worker is stopping' });
    shutdown.abort(reason);
    await expect(pending).rejects.toBe(reason);
    for (let waited = 0; host.openStalls() > 0 && waited < 50; waited += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(host.openStalls()).toBe(0);
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it("trusts the code host's private CA only through NODE_EXTRA_CA_CERTS", async () => {
    const { revisions, tmpDir } = await fetcher({ extraCaFile: undefined });
    const error = await failure(revisions.fetch(request('acme/shop.git')));
    expect(error.code).toBe('repository.tls_untrusted');
    expect(error.message).toContain('NODE_EXTRA_CA_CERTS');
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it('keeps hostile file names as they are, and checks a symbolic link out as a plain file', async () => {
    const { revisions } = await fetcher();
    const revision = await revisions.fetch(request('acme/hostile.git'));
    expect(revision.files.map((file) => file.path).sort()).toEqual([...HOSTILE, 'link-out'].sort());
    for (const [index, name] of HOSTILE.entries()) expect(await readFile(join(revision.dir, name), 'utf8')).toBe(`file ${index}\n`);
    const link = join(revision.dir, 'link-out');
    expect((await stat(link)).isFile()).toBe(true);
    expect(await readFile(link, 'utf8')).toBe('/etc/passwd');
    expect(await readdir(dirname(revision.dir))).not.toContain('pwned');
    await revision.remove();
  });

  it('refuses a tree whose paths would leave the folder or write into .git, and leaves nothing behind', async () => {
    const { revisions, tmpDir } = await fetcher();
    for (const branch of ['dotdot', 'dotgit']) {
      const error = await failure(revisions.fetch(request('acme/escape.git', { revision: branch })));
      expect(error.code).toBe('repository.fetch_failed');
      expect(error.message).toMatch(/invalid path/);
    }
    expect(await readdir(tmpDir)).toEqual([]);
    expect(await readdir(scratch)).not.toContain('config');
  });

  it('refuses a clone URL that is not https, or carries credentials, before any request', async () => {
    const { revisions, tmpDir } = await fetcher();
    const before = host.requests.length;
    for (const cloneUrl of [host.url.replace('https:', 'http:') + '/acme/shop.git', `file://${shop.gitDir}`, 'ext::sh -c touch% /tmp/pwned', `https://x-access-token:${TOKEN}@127.0.0.1/acme/shop.git`]) {
      const error = await failure(revisions.fetch({ ...request('acme/shop.git'), cloneUrl }));
      expect(error.code).toBe('repository.clone_url_invalid');
      expect(error.message).not.toContain(TOKEN);
    }
    const option = await failure(revisions.fetch(request('acme/shop.git', { revision: '--upload-pack=touch /tmp/pwned' })));
    expect(option.code).toBe('repository.revision_invalid');
    expect(host.requests.length).toBe(before);
    expect(await readdir(tmpDir)).toEqual([]);
  });
});
