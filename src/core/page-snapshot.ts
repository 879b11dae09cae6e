/**
 * The live page as text for a model: Playwright's AI-mode accessibility snapshot (given here as plain data, as
 * src/core/grounding.ts takes it) written the way Playwright writes it (`- button "Add" [ref=e5]`), which models know
 * from Playwright's own tools. What leaves the run this way is bounded and holds no typed value and no secret:
 * - every field's value is left out (`[value hidden]`): a field may hold a test value or anything the run typed, and
 *   a password field's value shows in the snapshot as typed;
 * - `mask` (the run's secret scrubber) runs over every line, so a secret the page shows as text ("Signed in as …")
 *   is masked before it is counted;
 * - at most `maxChars` characters, whole lines in page order, then one line that says the page goes on.
 */
import { collapse, type SnapshotNode } from './grounding.js';

export interface PageSnapshotText {
  /** The snapshot's lines, at most `maxChars` characters with the truncation note. */
  text: string;
  /** Lines were left out at the end (the text ends with TRUNCATION_NOTE's line). */
  truncated: boolean;
}

/** The start of the last line of a snapshot cut to its budget. */
export const TRUNCATION_NOTE = '- note: the page goes on;';
/** A field's value as the model is shown it. */
export const HIDDEN_VALUE = '[value hidden]';
/** Roles whose `text` is the value of a field, not text of the page. */
const VALUE_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider']);
/** A name or text longer than this is cut: it says what an element is in its first words. */
const MAX_WORDS_CHARS = 200;
/** Room kept for the truncation note. */
const NOTE_RESERVE = 120;

export interface PageSnapshotOptions {
  maxChars: number;
  /** Masks secret values in one line of text. */
  mask(text: string): string;
}

export function renderPageSnapshot(tree: readonly SnapshotNode[], options: PageSnapshotOptions): PageSnapshotText {
  const lines: string[] = [];
  const visit = (node: SnapshotNode, depth: number) => {
    const indent = '  '.repeat(depth);
    if (typeof node === 'string') {
      const text = short(node);
      if (text !== '') lines.push(options.mask(`${indent}- text: ${text}`));
      return;
    }
    lines.push(options.mask(`${indent}- ${elementLine(node)}`));
    for (const child of node.children ?? []) visit(child, depth + 1);
  };
  for (const node of tree) visit(node, 0);

  const budget = Math.max(0, options.maxChars - NOTE_RESERVE);
  let size = 0;
  let kept = 0;
  for (const line of lines) {
    if (size + line.length + 1 > budget) break;
    size += line.length + 1;
    kept += 1;
  }
  if (kept === lines.length) return { text: lines.join('\n'), truncated: false };
  const note = `${TRUNCATION_NOTE} ${lines.length - kept} more lines not shown (the snapshot is bounded to ${options.maxChars} characters)`;
  return { text: [...lines.slice(0, kept), note].join('\n').slice(0, options.maxChars), truncated: true };
}

/** `button "Add" [disabled] [ref=e5]: text`, as Playwright's AI-mode YAML writes an element. */
function elementLine(node: Exclude<SnapshotNode, string>): string {
  const name = short(node.name ?? '');
  const parts = [node.role, ...(name === '' ? [] : [JSON.stringify(name)])];
  if (node.checked === true) parts.push('[checked]');
  if (node.checked === 'mixed') parts.push('[checked=mixed]');
  for (const flag of ['disabled', 'selected', 'expanded', 'pressed', 'active'] as const) if (node[flag] === true) parts.push(`[${flag}]`);
  if (typeof node.level === 'number') parts.push(`[level=${node.level}]`);
  if (typeof node.placeholder === 'string' && node.placeholder !== '') parts.push(`[placeholder=${JSON.stringify(short(node.placeholder))}]`);
  if (node.ref !== undefined) parts.push(`[ref=${node.ref}]`);
  if (typeof node.url === 'string') parts.push(`[url=${short(node.url)}]`);
  const text = typeof node.text === 'string' ? short(node.text) : '';
  if (text === '') return parts.join(' ');
  return `${parts.join(' ')}: ${VALUE_ROLES.has(node.role) ? HIDDEN_VALUE : text}`;
}

function short(text: string): string {
  const collapsed = collapse(text);
  return collapsed.length <= MAX_WORDS_CHARS ? collapsed : `${collapsed.slice(0, MAX_WORDS_CHARS - 1)}…`;
}
