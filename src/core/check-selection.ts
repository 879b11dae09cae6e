import picomatch from 'picomatch';
import { SELECTION_TEXT_MAX, SELECTION_WHY_MAX, type CodehostChannelContext } from './channel-context.js';

/**
 * Which of a repository's active checks a pull request replays (issue 28, "Pull requests replay what a change
 * touches"): the checks of every flow whose source files the change touched, the checks the repository marks
 * always-run, and the checks no coverage link names (nothing says what they cover, so nothing says they are safe to
 * skip). Every check runs instead when the repository has no coverage yet, when the code host could not list every
 * changed file, or when a shared file changed (a lockfile, the build config, the app's root layout: files every
 * flow depends on without the index naming them).
 */

/** The pull request's changed files, as the code host listed them; `complete` is false when the list was cut short. */
export interface ChangedFiles {
  /** Repository-relative paths; a renamed file appears under both its old and its new name. */
  paths: readonly string[];
  complete: boolean;
  /** Why the list is incomplete (shown on the pull request), when it is. */
  incompleteBecause?: string;
}

export interface SelectionFlow {
  key: string;
  name: string;
  files: readonly string[];
}

/** What onboarding knows of the repository: its flows and which checks cover them (src/onboarding/model.ts). */
export interface SelectionCoverage {
  flows: readonly SelectionFlow[];
  links: readonly { flowKey: string; checkId: string }[];
}

export interface SelectableCheck {
  id: string;
  /** How the check is named on the pull request (its task). */
  name: string;
}

export interface SelectionInput {
  changedFiles: ChangedFiles;
  /** Null, or no flows: the repository has no coverage yet. */
  coverage: SelectionCoverage | null;
  /** The repository's active checks, in the order they are run. */
  activeChecks: readonly SelectableCheck[];
  /** Check ids that run on every pull request (ids that are not active checks are ignored). */
  alwaysRun: readonly string[];
  /** Shared-file patterns (`sharedFileMatcher`). */
  sharedFiles: readonly string[];
}

export type SelectionMode = 'all' | 'touched';

/** Why every check runs, or why only some do. */
export type SelectionReasonCode = 'no_coverage' | 'incomplete_file_list' | 'shared_files' | 'touched_flows';

export interface SelectedCheck {
  checkId: string;
  /** Plain sentences (paths and flow names come from the repository: show them escaped). */
  why: string[];
}

export interface CheckSelection {
  mode: SelectionMode;
  reasonCode: SelectionReasonCode;
  /** One plain sentence for the whole pull request. */
  reason: string;
  selected: SelectedCheck[];
  /** Active checks not selected. */
  skipped: number;
}

/**
 * Files every flow depends on without the index tying them to one route, by kind: dependency lockfiles and
 * manifests, build and framework configuration, environment files, and the app's root shell (Next.js's root layout,
 * `_app` and `_document`, a single-page app's entry and root component, a server's app file). Patterns follow
 * `.gitignore`: without a slash they match at any depth (a monorepo's packages too), a leading slash anchors at the
 * repository's root.
 */
export const DEFAULT_SHARED_FILES: readonly string[] = Object.freeze([
  // lockfiles and manifests
  'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', 'bun.lock', 'bun.lockb', 'deno.lock',
  'package.json', '.npmrc', '.yarnrc.yml', '.nvmrc', '.node-version', 'Gemfile.lock', 'poetry.lock', 'Pipfile.lock', 'composer.lock',
  // build and framework configuration
  'tsconfig*.json', 'jsconfig*.json', 'babel.config.*', '.babelrc*', 'vite.config.*', 'next.config.*', 'webpack.config.*',
  'rollup.config.*', 'astro.config.*', 'nuxt.config.*', 'svelte.config.*', 'remix.config.*', 'postcss.config.*', 'tailwind.config.*',
  // environment
  '.env', '.env.*',
  // the app's root shell
  '**/app/layout.*', '**/app/template.*', '**/pages/_app.*', '**/pages/_document.*', 'middleware.{js,jsx,ts,tsx,mjs}',
  '**/src/main.{js,jsx,ts,tsx}', '**/src/index.{js,jsx,ts,tsx}', '**/src/App.{js,jsx,ts,tsx}', '/index.html', '**/src/index.html',
  '/app.{js,mjs,cjs,ts}', '/server.{js,mjs,cjs,ts}', '**/src/app.{js,mjs,cjs,ts}', '**/src/server.{js,mjs,cjs,ts}',
]);

/** Bounds of the repository settings (src/core/pull-request-settings.ts validates against them). */
export const SHARED_FILES_MAX = 200;
export const SHARED_FILE_PATTERN_MAX = 200;

/** Files and flows named in one reason; the rest are counted. */
const NAMED_MAX = 3;

/**
 * picomatch without extglobs (`+(a|b)` compiles to backtracking regular expressions) or negation (an order-dependent
 * `!pattern` is easy to get wrong in a list whose job is to say what is shared); dotfiles match like any file.
 */
const MATCH_OPTIONS = { dot: true, noextglob: true, nonegate: true, strictBrackets: true } as const;

/** A pattern as picomatch reads it: `.gitignore`'s anchoring (see DEFAULT_SHARED_FILES). */
function anchored(pattern: string): string {
  if (pattern.startsWith('/')) return pattern.slice(1);
  return pattern.includes('/') ? pattern : `**/${pattern}`;
}

/** Why a shared-file pattern is refused, or undefined when it is sound. */
export function sharedFilePatternProblem(pattern: string): string | undefined {
  if (pattern.trim() === '' || pattern !== pattern.trim()) return 'must be a non-empty pattern without surrounding spaces';
  if (pattern.length > SHARED_FILE_PATTERN_MAX) return `must be at most ${SHARED_FILE_PATTERN_MAX} characters`;
  if ([...pattern].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) return 'may not hold control characters';
  if (pattern.startsWith('!')) return 'may not be negated with "!": list only what counts as shared';
  if (pattern.split('/').includes('..')) return 'may not hold ".." (paths are relative to the repository root)';
  try {
    picomatch.makeRe(anchored(pattern), MATCH_OPTIONS);
  } catch (error) {
    return `is not a valid glob pattern (${(error as Error).message})`;
  }
  return undefined;
}

/** One matcher for a list of shared-file patterns. */
export function sharedFileMatcher(patterns: readonly string[]): (path: string) => boolean {
  if (patterns.length === 0) return () => false;
  const matches = picomatch(patterns.map(anchored), MATCH_OPTIONS);
  return (path) => matches(normalizedPath(path));
}

/** A repository-relative path as both the code host and the index may spell it (`./src/a.ts`, `/src/a.ts`). */
function normalizedPath(path: string): string {
  return path.replace(/^(\.\/|\/)+/, '');
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** `a, b, c and 4 more`. */
function named(items: readonly string[]): string {
  const shown = items.slice(0, NAMED_MAX).join(', ');
  return items.length > NAMED_MAX ? `${shown} and ${items.length - NAMED_MAX} more` : shown;
}

function everyCheck(input: SelectionInput, reasonCode: SelectionReasonCode, reason: string): CheckSelection {
  return { mode: 'all', reasonCode, reason, selected: input.activeChecks.map((check) => ({ checkId: check.id, why: [reason] })), skipped: 0 };
}

/** The flows whose files the change touched, each with the changed files behind it (in the flow's order). */
function touchedFlows(flows: readonly SelectionFlow[], changed: ReadonlySet<string>): Map<string, { flow: SelectionFlow; files: string[] }> {
  const touched = new Map<string, { flow: SelectionFlow; files: string[] }>();
  for (const flow of flows) {
    const files = [...new Set(flow.files.map(normalizedPath))].filter((file) => changed.has(file));
    if (files.length > 0) touched.set(flow.key, { flow, files });
  }
  return touched;
}

export function selectChecks(input: SelectionInput): CheckSelection {
  const { changedFiles, coverage } = input;
  if (!coverage || coverage.flows.length === 0) {
    return everyCheck(input, 'no_coverage', 'every check ran: the repository has no coverage links yet');
  }
  if (!changedFiles.complete) {
    return everyCheck(input, 'incomplete_file_list', `every check ran: ${changedFiles.incompleteBecause ?? 'the code host could not list every changed file'}`);
  }
  const changed = [...new Set(changedFiles.paths.map(normalizedPath))];
  const isShared = sharedFileMatcher(input.sharedFiles);
  const shared = changed.filter(isShared);
  if (shared.length > 0) {
    return everyCheck(input, 'shared_files', `every check ran: shared ${shared.length === 1 ? 'file' : 'files'} changed (${named(shared)})`);
  }

  const touched = touchedFlows(coverage.flows, new Set(changed));
  const flowsByCheck = new Map<string, string[]>();
  for (const link of coverage.links) flowsByCheck.set(link.checkId, [...(flowsByCheck.get(link.checkId) ?? []), link.flowKey]);
  const alwaysRun = new Set(input.alwaysRun);
  const selected: SelectedCheck[] = [];
  for (const check of input.activeChecks) {
    const why: string[] = [];
    const flowKeys = [...new Set(flowsByCheck.get(check.id) ?? [])];
    for (const key of flowKeys) {
      const hit = touched.get(key);
      if (hit) why.push(`covers the flow "${hit.flow.name}", whose ${hit.files.length === 1 ? 'file' : 'files'} changed: ${named(hit.files)}`);
    }
    if (alwaysRun.has(check.id)) why.push('marked always-run in the repository settings');
    // A check no link names: nothing says what it covers, so nothing says this change cannot break it.
    if (flowKeys.length === 0) why.push('not linked to any flow yet, so it runs on every pull request');
    if (why.length > 0) selected.push({ checkId: check.id, why });
  }
  const skipped = input.activeChecks.length - selected.length;
  const flowNames = [...touched.values()].map(({ flow }) => `"${flow.name}"`);
  const reason =
    touched.size > 0
      ? `${plural(selected.length, 'check')} of ${input.activeChecks.length} ran: the change touches ${plural(touched.size, 'flow')} (${named(flowNames)}); ${skipped} skipped`
      : `${plural(selected.length, 'check')} of ${input.activeChecks.length} ran: the change touches no known flow; ${skipped} skipped`;
  return { mode: 'touched', reasonCode: 'touched_flows', reason, selected, skipped };
}

/** What one selected run's PR comment and check run say of the selection (its channelContext's `selection`). */
export type SelectionNote = NonNullable<CodehostChannelContext['selection']>;

/** A text cut to fit the note (a changed path can be as long as the code host allows). */
const fit = (text: string) => (text.length <= SELECTION_TEXT_MAX ? text : `${text.slice(0, SELECTION_TEXT_MAX - 1)}…`);

/** The note of `checkId`'s run, within the channelContext's bounds. */
export function selectionNote(selection: CheckSelection, checkId: string): SelectionNote {
  const why = selection.selected.find((check) => check.checkId === checkId)?.why ?? [];
  return { mode: selection.mode, reason: fit(selection.reason), why: why.slice(0, SELECTION_WHY_MAX).map(fit), ran: selection.selected.length, skipped: selection.skipped };
}
