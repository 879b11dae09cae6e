/** A stretch of a task that says one thing: split at sentence ends, `;`, `:`, commas, and/then/but/or. */
export interface Clause {
  text: string;
  /** Offset of `text` in the task, so that hits can be put in task order. */
  start: number;
}

// A period splits only before white space or the end, so that `example.com` and `$9.99` stay whole; a colon does
// not split `https://`.
const SEPARATOR = /[.!?](?=\s|$)|[;\n]|:(?!\/\/)|,|\s(?:and|then|but|or|&)\s/gi;

export function splitClauses(text: string): Clause[] {
  const clauses: Clause[] = [];
  let start = 0;
  for (const match of text.matchAll(SEPARATOR)) {
    push(clauses, text.slice(start, match.index), start);
    start = match.index + match[0].length;
  }
  push(clauses, text.slice(start), start);
  return clauses;
}

function push(clauses: Clause[], raw: string, offset: number): void {
  const lead = raw.length - raw.trimStart().length;
  const text = raw.trim();
  if (text !== '') clauses.push({ text, start: offset + lead });
}

/** Curly quotes and apostrophes as straight ones, keeping every offset. */
export function straightenQuotes(text: string): string {
  return text.replace(/[\u2018\u2019\u02bc]/g, "'").replace(/[\u201c\u201d]/g, '"');
}

/** Spans inside "…" or '…' (an apostrophe inside a word does not open a quote). */
export function quotedSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const match of text.matchAll(/"[^"]*"|(?<![\w])'[^']*'(?![\w])/g)) {
    spans.push([match.index, match.index + match[0].length]);
  }
  return spans;
}
