import { describe, expect, it } from '@jest/globals';
import { codehostChannelContext } from '../../../src/core/channel-context.js';
import {
  DEFAULT_SHARED_FILES,
  selectChecks,
  selectionNote,
  sharedFileMatcher,
  type SelectionCoverage,
  type SelectionInput,
} from '../../../src/core/check-selection.js';

const checks = [
  { id: 'check-sign-in', name: 'Sign in as the demo user' },
  { id: 'check-cart', name: 'Add the Desk Lamp to the cart' },
  { id: 'check-checkout', name: 'Check out' },
  { id: 'check-search', name: 'Search for lamps' },
];

const coverage: SelectionCoverage = {
  flows: [
    { key: 'sign-in', name: 'Sign in', files: ['src/pages/login.tsx', 'src/lib/auth.ts'] },
    { key: 'cart', name: 'Add a product to the cart', files: ['src/pages/product/[id].tsx', 'src/components/CartButton.tsx'] },
    { key: 'checkout', name: 'Checkout', files: ['src/pages/checkout.tsx', 'src/components/CartButton.tsx', 'src/lib/auth.ts'] },
    { key: 'search', name: 'Search', files: ['src/pages/search.tsx'] },
  ],
  links: [
    { flowKey: 'sign-in', checkId: 'check-sign-in' },
    { flowKey: 'cart', checkId: 'check-cart' },
    { flowKey: 'checkout', checkId: 'check-checkout' },
    { flowKey: 'search', checkId: 'check-search' },
  ],
};

function input(changed: string[], overrides: Partial<SelectionInput> = {}): SelectionInput {
  return { changedFiles: { paths: changed, complete: true }, coverage, activeChecks: checks, alwaysRun: [], sharedFiles: DEFAULT_SHARED_FILES, ...overrides };
}

const ids = (selection: ReturnType<typeof selectChecks>) => selection.selected.map((check) => check.checkId);

describe('selectChecks: only what the change touches', () => {
  it("replays the checks of the one flow whose file changed, says why, and counts the others as skipped", () => {
    const selection = selectChecks(input(['src/pages/search.tsx']));
    expect(selection).toMatchObject({ mode: 'touched', reasonCode: 'touched_flows', skipped: 3 });
    expect(selection.selected).toEqual([{ checkId: 'check-search', why: ['covers the flow "Search", whose file changed: src/pages/search.tsx'] }]);
    expect(selection.reason).toBe('1 check of 4 ran: the change touches 1 flow ("Search"); 3 skipped');
  });

  it('replays every flow a shared source file feeds, in the order of the active checks', () => {
    const selection = selectChecks(input(['src/lib/auth.ts']));
    expect(ids(selection)).toEqual(['check-sign-in', 'check-checkout']);
    expect(selection.skipped).toBe(2);
  });

  it('lists each flow a check covers that the change touched, and names at most three files of each', () => {
    const wide: SelectionCoverage = {
      flows: [...coverage.flows, { key: 'account', name: 'Account', files: ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts'] }],
      links: [...coverage.links, { flowKey: 'account', checkId: 'check-sign-in' }, { flowKey: 'account', checkId: 'check-sign-in' }],
    };
    const selection = selectChecks(input(['src/pages/login.tsx', 'a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts'], { coverage: wide }));
    expect(selection.selected).toEqual([
      {
        checkId: 'check-sign-in',
        why: ['covers the flow "Sign in", whose file changed: src/pages/login.tsx', 'covers the flow "Account", whose files changed: a.ts, b.ts, c.ts and 2 more'],
      },
    ]);
  });

  it('counts a renamed file under both names: moving a flow away from a file touches it', () => {
    // The code-host client lists a rename under its old and its new name.
    expect(ids(selectChecks(input(['src/pages/search-old.tsx', 'src/pages/search.tsx'])))).toEqual(['check-search']);
  });

  it('matches paths however the index or the code host spells them (./, a leading slash)', () => {
    const spelled: SelectionCoverage = { ...coverage, flows: coverage.flows.map((flow) => ({ ...flow, files: flow.files.map((file) => `./${file}`) })) };
    expect(ids(selectChecks(input(['/src/pages/checkout.tsx'], { coverage: spelled })))).toEqual(['check-checkout']);
  });

  it('runs always-run checks on every change, saying so next to any flow reason', () => {
    const selection = selectChecks(input(['src/pages/search.tsx'], { alwaysRun: ['check-checkout', 'check-search', 'a-check-of-another-repository'] }));
    expect(selection.selected).toEqual([
      { checkId: 'check-checkout', why: ['marked always-run in the repository settings'] },
      { checkId: 'check-search', why: ['covers the flow "Search", whose file changed: src/pages/search.tsx', 'marked always-run in the repository settings'] },
    ]);
    expect(selection.skipped).toBe(2);
  });

  it('runs a check no coverage link names: nothing says the change cannot break it', () => {
    const selection = selectChecks(input(['src/pages/search.tsx'], { activeChecks: [...checks, { id: 'typed-by-hand', name: 'Read the FAQ' }] }));
    expect(ids(selection)).toEqual(['check-search', 'typed-by-hand']);
    expect(selection.selected[1]!.why).toEqual(['not linked to any flow yet, so it runs on every pull request']);
  });

  it('runs nothing but always-run checks when the change touches no flow (docs, tests), and says so', () => {
    const selection = selectChecks(input(['README.md', 'docs/setup.md', 'test/login.test.ts']));
    expect(selection).toMatchObject({ mode: 'touched', selected: [], skipped: 4, reason: '0 checks of 4 ran: the change touches no known flow; 4 skipped' });
  });

  it('ignores links to checks that are not active (a draft, a deleted check) and flows without files', () => {
    const stale: SelectionCoverage = { flows: [...coverage.flows, { key: 'empty', name: 'Empty', files: [] }], links: [...coverage.links, { flowKey: 'search', checkId: 'deleted-check' }] };
    const selection = selectChecks(input(['src/pages/search.tsx'], { coverage: stale }));
    expect(ids(selection)).toEqual(['check-search']);
    expect(selection.skipped).toBe(3);
  });

  it('handles a pull request of thousands of files in one pass', () => {
    const many = Array.from({ length: 3_000 }, (_, i) => `src/generated/file-${i}.ts`);
    const selection = selectChecks(input([...many, 'src/pages/login.tsx']));
    expect(ids(selection)).toEqual(['check-sign-in']);
  });
});

describe('selectChecks: when every check runs', () => {
  it.each([
    ['no coverage at all', null],
    ['coverage without flows', { flows: [], links: [] }],
  ])('replays every check when the repository has %s, whatever changed', (_, none) => {
    const selection = selectChecks(input(['README.md'], { coverage: none }));
    expect(selection).toMatchObject({ mode: 'all', reasonCode: 'no_coverage', skipped: 0, reason: 'every check ran: the repository has no coverage links yet' });
    expect(ids(selection)).toEqual(checks.map((check) => check.id));
    expect(selection.selected[0]!.why).toEqual([selection.reason]);
  });

  it('replays every check when the code host could not list every changed file, saying why', () => {
    const selection = selectChecks(input(['src/pages/search.tsx'], { changedFiles: { paths: ['src/pages/search.tsx'], complete: false, incompleteBecause: 'the code host lists at most 3,000 changed files' } }));
    expect(selection).toMatchObject({ mode: 'all', reasonCode: 'incomplete_file_list', skipped: 0, reason: 'every check ran: the code host lists at most 3,000 changed files' });
    expect(selection.selected).toHaveLength(4);
  });

  it('replays every check when a shared file changed, naming which (three at most)', () => {
    const one = selectChecks(input(['src/pages/search.tsx', 'package-lock.json']));
    expect(one).toMatchObject({ mode: 'all', reasonCode: 'shared_files', skipped: 0, reason: 'every check ran: shared file changed (package-lock.json)' });
    const many = selectChecks(input(['package.json', 'yarn.lock', 'tsconfig.json', '.env.production']));
    expect(many.reason).toBe('every check ran: shared files changed (package.json, yarn.lock, tsconfig.json and 1 more)');
  });

  it("uses the repository's own shared-file list instead of the default, and none when it is empty", () => {
    expect(selectChecks(input(['config/app.yml'], { sharedFiles: ['config/**'] })).mode).toBe('all');
    expect(selectChecks(input(['package.json'], { sharedFiles: ['config/**'] })).mode).toBe('touched');
    expect(selectChecks(input(['package-lock.json'], { sharedFiles: [] })).mode).toBe('touched');
  });
});

describe('the default shared files', () => {
  const shared = sharedFileMatcher(DEFAULT_SHARED_FILES);

  it.each([
    // lockfiles and manifests, at the root or in a monorepo package
    'package-lock.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lockb', 'apps/web/package.json', 'packages/ui/pnpm-lock.yaml',
    // configuration
    'tsconfig.json', 'tsconfig.build.json', 'next.config.mjs', 'vite.config.ts', 'apps/web/webpack.config.js', '.env', '.env.local', 'tailwind.config.cjs',
    // the app's shell
    'app/layout.tsx', 'src/app/layout.tsx', 'pages/_app.tsx', 'src/pages/_document.jsx', 'src/main.tsx', 'src/App.jsx', 'index.html', 'middleware.ts', 'server.js', 'src/app.ts',
  ])('counts %s as shared', (path) => {
    expect(shared(path)).toBe(true);
  });

  it.each([
    'src/pages/login.tsx', 'app/(shop)/cart/layout.tsx', 'app/dashboard/page.tsx', 'src/components/Main.tsx', 'public/docs/index.html', 'lib/server.js', 'README.md',
    'src/package.json.md', 'docs/tsconfig.md',
  ])('does not count %s as shared', (path) => {
    expect(shared(path)).toBe(false);
  });
});

describe('selectionNote', () => {
  it("is what one run's channelContext carries, and always fits its schema, however long the paths", () => {
    const long = `src/${'deep/'.repeat(400)}login.tsx`;
    const wide: SelectionCoverage = { flows: [{ key: 'sign-in', name: 'Sign in'.repeat(100), files: [long] }, ...coverage.flows.slice(1)], links: coverage.links };
    const selection = selectChecks(input([long], { coverage: wide }));
    const note = selectionNote(selection, 'check-sign-in');
    expect(note).toMatchObject({ mode: 'touched', ran: 1, skipped: 3 });
    const context = { channel: 'codehost', provider: 'codehost', installationId: 1, owner: 'acme', repo: 'shop', pullNumber: 7, headSha: 'a'.repeat(40), selection: note };
    expect(codehostChannelContext.parse(context).selection).toEqual(note);
    expect(note.why[0]!.endsWith('…')).toBe(true);
  });
});
