import { describe, expect, it } from '@jest/globals';
import { AppError } from '../../../src/core/errors.js';
import { fetchFailure } from '../../../src/onboarding/fetch/git-failure.js';
import { authorizationHeader, gitEnvironment } from '../../../src/onboarding/fetch/git-environment.js';
import { checkRevisionRequest } from '../../../src/onboarding/fetch/revision-request.js';
import { parseTreeListing } from '../../../src/onboarding/fetch/tree-listing.js';

const SHA = 'a'.repeat(40);
const base = { cloneUrl: 'https://github.com/acme/shop.git', revision: null, defaultBranch: 'main', installationId: '7' };

function codeOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return 'none';
}

describe('what git may be asked to fetch', () => {
  it('asks for the default branch by its full name, and for a revision as given', () => {
    expect(checkRevisionRequest(base).wanted).toBe('refs/heads/main');
    expect(checkRevisionRequest({ ...base, revision: SHA.toUpperCase() }).wanted).toBe(SHA);
    expect(checkRevisionRequest({ ...base, revision: 'release/2026.1' }).wanted).toBe('release/2026.1');
    expect(checkRevisionRequest({ ...base, revision: 'v1.2.0' }).wanted).toBe('v1.2.0');
  });

  it.each([
    ['http://github.com/acme/shop.git'],
    ['git://github.com/acme/shop.git'],
    ['ssh://git@github.com/acme/shop.git'],
    ['file:///srv/shop.git'],
    ['ext::sh -c id'],
    ['https://token@github.com/acme/shop.git'],
    ['https://x:y@github.com/acme/shop.git'],
    ['https://github.com/acme/shop.git?x=1'],
    ['https://github.com/acme/shop.git#main'],
    ['https://github.com/acme/sh op.git'],
    ['https://github.com/acme/shop.git\n'],
    ['/srv/shop.git'],
    [''],
  ])('refuses the clone URL %j', (cloneUrl) => {
    expect(codeOf(() => checkRevisionRequest({ ...base, cloneUrl }))).toBe('repository.clone_url_invalid');
  });

  it.each([
    ['--upload-pack=touch /tmp/x'],
    ['-b'],
    ['abc1234'],
    ['main..dev'],
    ['main@{1}'],
    ['.hidden'],
    ['a/.b'],
    ['x.lock'],
    ['feature/'],
    ['has space'],
    ['tilde~1'],
    ['caret^'],
    ['col:on'],
    ['star*'],
    ['back\\slash'],
    [''],
    ['x'.repeat(256)],
  ])('refuses the revision %j', (revision) => {
    expect(codeOf(() => checkRevisionRequest({ ...base, revision }))).toBe('repository.revision_invalid');
  });

  it('refuses a default branch that is not a branch name', () => {
    expect(codeOf(() => checkRevisionRequest({ ...base, defaultBranch: '-x' }))).toBe('repository.revision_invalid');
    expect(codeOf(() => checkRevisionRequest({ ...base, defaultBranch: SHA }))).toBe('repository.revision_invalid');
  });
});

describe("git's environment", () => {
  it('carries the token only as a GIT_CONFIG_* header, and nothing of the worker but what is passed', () => {
    const env = gitEnvironment({
      home: '/tmp/f',
      passed: { PATH: '/usr/bin', GIT_SSH_COMMAND: 'evil', HTTPS_PROXY: undefined },
      token: 'ghs_secret',
      caFile: '/tmp/f/ca.pem',
      lowSpeedSeconds: 30,
    });
    const settings = Object.fromEntries(
      Array.from({ length: Number(env.GIT_CONFIG_COUNT) }, (_, index) => [env[`GIT_CONFIG_KEY_${index}`], env[`GIT_CONFIG_VALUE_${index}`]]),
    );
    expect(settings['http.extraHeader']).toBe(`Authorization: Basic ${Buffer.from('x-access-token:ghs_secret').toString('base64')}`);
    expect(settings['http.extraHeader']).toBe(authorizationHeader('ghs_secret'));
    expect(settings['http.sslCAInfo']).toBe('/tmp/f/ca.pem');
    expect(settings['core.hooksPath']).toBe('/dev/null');
    expect(settings['http.followRedirects']).toBe('false');
    expect(env).toMatchObject({ PATH: '/usr/bin', GIT_ALLOW_PROTOCOL: 'https', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' });
    expect(env).not.toHaveProperty('GIT_SSH_COMMAND');
    expect(env).not.toHaveProperty('HTTPS_PROXY');
    const withoutToken = gitEnvironment({ home: '/tmp/f', passed: {}, token: null, caFile: null, lowSpeedSeconds: 30 });
    expect(Object.values(withoutToken).join('\n')).not.toMatch(/Authorization|sslCAInfo/);
  });
});

describe("ls-tree's listing", () => {
  it('reads -z entries with any bytes in their names, and leaves out submodules and non-UTF-8 names', () => {
    const entry = (mode: string, type: string, id: string, size: string, path: Buffer | string) =>
      Buffer.concat([Buffer.from(`${mode} ${type} ${id} ${size.padStart(7)}\t`), Buffer.from(path), Buffer.from([0])]);
    const listing = parseTreeListing(
      Buffer.concat([
        entry('100644', 'blob', 'b'.repeat(40), '12', 'a b/new\nline\ttab.ts'),
        entry('100755', 'blob', 'c'.repeat(40), '0', '日本/ü.md'),
        entry('120000', 'blob', 'd'.repeat(40), '11', 'link'),
        entry('160000', 'commit', 'e'.repeat(40), '-', 'vendor/sub'),
        entry('100644', 'blob', 'f'.repeat(40), '3', Buffer.from([0x66, 0xff, 0x2e])),
      ]),
    );
    expect(listing).toEqual({
      files: [
        { path: 'a b/new\nline\ttab.ts', blobId: 'b'.repeat(40), size: 12 },
        { path: '日本/ü.md', blobId: 'c'.repeat(40), size: 0 },
        { path: 'link', blobId: 'd'.repeat(40), size: 11 },
      ],
      unreadable: 1,
    });
  });
});

describe("git's failures, by its words", () => {
  const context = { url: 'https://code.test/acme/shop.git', wanted: 'refs/heads/main', usedToken: true, scrub: (text: string) => text.split('ghs_x').join('[redacted]') };
  it.each([
    ["fatal: unable to access 'https://code.test/acme/shop.git/': SSL certificate problem: unable to get local issuer certificate", 'repository.tls_untrusted'],
    ["fatal: unable to access 'https://code.test/acme/shop.git/': The requested URL returned error: 403", 'repository.access_refused'],
    ["fatal: could not read Username for 'https://code.test': terminal prompts disabled", 'repository.access_refused'],
    ['fatal: couldn\'t find remote ref refs/heads/main', 'repository.revision_unknown'],
    ['fatal: remote error: upload-pack: not our ref ' + SHA, 'repository.revision_unknown'],
    ["fatal: repository 'https://code.test/acme/shop.git/' not found", 'repository.not_git'],
    ['fatal: https://code.test/acme/shop.git/info/refs not valid: is this a git repository?', 'repository.not_git'],
    ['fatal: dumb http transport does not support shallow capabilities', 'repository.not_git'],
    ["fatal: unable to access 'https://code.test/acme/shop.git/': Could not resolve host: code.test", 'repository.unreachable'],
    ["fatal: unable to access 'https://code.test/acme/shop.git/': The requested URL returned error: 502", 'repository.unreachable'],
    ["fatal: unable to access 'https://code.test/acme/shop.git/': Operation too slow. Less than 1024 bytes/sec transferred the last 30 seconds", 'repository.fetch_timeout'],
    ["fatal: unable to access 'https://code.test/acme/shop.git/': The requested URL returned error: 301", 'repository.not_git'],
    ['fatal: something new happened with ghs_x', 'repository.fetch_failed'],
  ])('%s', (stderr, code) => {
    const error = fetchFailure(stderr, context);
    expect(error.code).toBe(code);
    expect(error.message).not.toContain('ghs_x');
  });
});
