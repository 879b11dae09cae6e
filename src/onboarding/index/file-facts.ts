/**
 * The facts of one file from its text: scripts through Babel, HTML through htmlparser2, package manifests as JSON.
 * Whatever the text, this returns facts: a file that cannot be parsed is recorded as skipped, with why.
 */
import { parse, type ParserPlugin } from '@babel/parser';
import { FACTS_VERSION, type FileFacts, type SkippedFacts } from './facts.js';
import type { ReadKind } from './file-kinds.js';
import { htmlMarkup } from './html-markup.js';
import { uiFactsOf } from './markup.js';
import { scriptFacts } from './script-facts.js';

const PLUGINS: Record<'ts' | 'tsx' | 'js', ParserPlugin[]> = {
  ts: ['typescript', 'decorators-legacy'],
  tsx: ['typescript', 'jsx', 'decorators-legacy'],
  js: ['jsx', 'decorators-legacy'],
};

/** Lines this long are a bundler's, not a person's: minified code names no route a person wrote. */
const MINIFIED_LINE = 1000;

function skipped(reason: SkippedFacts['reason'], detail?: string): SkippedFacts {
  return detail === undefined ? { v: FACTS_VERSION, kind: 'skipped', reason } : { v: FACTS_VERSION, kind: 'skipped', reason, detail };
}

function looksMinified(text: string): boolean {
  if (text.length < 4 * MINIFIED_LINE) return false;
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  return text.length / lines > MINIFIED_LINE;
}

/** Tools mark what they write (`@generated`, "Code generated … DO NOT EDIT") in the file's first lines. */
function looksGenerated(text: string): boolean {
  const head = text.slice(0, 500);
  return head.includes('@generated') || (head.includes('Code generated') && head.includes('DO NOT EDIT'));
}

function dependenciesOf(text: string): string[] {
  const manifest = JSON.parse(text) as Record<string, unknown>;
  const names = new Set<string>();
  for (const key of ['dependencies', 'devDependencies', 'peerDependencies']) {
    const group = manifest[key];
    if (group && typeof group === 'object' && !Array.isArray(group)) for (const name of Object.keys(group)) names.add(name);
  }
  return [...names];
}

export function factsOfText(kind: Exclude<ReadKind, 'none'>, text: string): FileFacts {
  try {
    if (kind === 'manifest') return { v: FACTS_VERSION, kind: 'manifest', dependencies: dependenciesOf(text) };
    if (looksGenerated(text)) return skipped('generated');
    if (looksMinified(text)) return skipped('minified');
    if (kind === 'html') return { v: FACTS_VERSION, kind: 'html', ...uiFactsOf(htmlMarkup(text)) };
    const file = parse(text, {
      sourceType: 'unambiguous',
      plugins: PLUGINS[kind],
      errorRecovery: true,
      // Comments name no route: not attaching them to nodes saves a pass.
      attachComment: false,
      allowReturnOutsideFunction: true,
      allowImportExportEverywhere: true,
      allowUndeclaredExports: true,
    });
    return scriptFacts(file.program);
  } catch (error) {
    // Syntax errors, and a RangeError from Babel's recursion on absurdly nested code: the file is skipped, not the index.
    return skipped('unparsable', String((error as Error).message ?? error).slice(0, 200));
  }
}
