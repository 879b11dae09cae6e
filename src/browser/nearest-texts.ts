/**
 * The texts on a page nearest to what an expectation wanted, for a failure that says what the page shows instead
 * ("expected 'Gadgets Galore', the headings say 'Welcome to Demo Shop'"). Pure: the runner reads the texts.
 */

/** White space collapsed, trimmed, lower case: how expectations compare text. */
export function normalizedText(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** One line of a candidate as a person reads it: white space collapsed, at most `max` characters. */
export function oneLine(text: string, max = 120): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

function bigrams(text: string): Map<string, number> {
  const padded = ` ${normalizedText(text)} `;
  const grams = new Map<string, number>();
  for (let i = 0; i < padded.length - 1; i++) {
    const gram = padded.slice(i, i + 2);
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  return grams;
}

/** How alike two texts are, 0 to 1: the Dice coefficient of their character pairs (case and spacing ignored). */
export function similarity(a: string, b: string): number {
  if (normalizedText(a) === '' || normalizedText(b) === '') return 0;
  const left = bigrams(a);
  const right = bigrams(b);
  let shared = 0;
  let total = 0;
  for (const [gram, count] of left) {
    shared += Math.min(count, right.get(gram) ?? 0);
    total += count;
  }
  for (const count of right.values()) total += count;
  return total === 0 ? 0 : (2 * shared) / total;
}

export interface NearestOptions {
  /** At most this many (default 5). */
  max?: number;
  /** Leave out candidates less alike than this (default 0: keep all). */
  threshold?: number;
}

/**
 * The candidates nearest to `expected`, nearest first (page order among equals), each on one line, without
 * empty ones or repeats.
 */
export function nearestTexts(expected: string, candidates: readonly string[], options: NearestOptions = {}): string[] {
  const { max = 5, threshold = 0 } = options;
  const seen = new Set<string>();
  const scored: { text: string; score: number; order: number }[] = [];
  for (const [order, candidate] of candidates.entries()) {
    const text = oneLine(candidate);
    const key = normalizedText(text);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    const score = similarity(expected, candidate);
    if (score >= threshold) scored.push({ text, score, order });
  }
  return scored
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, max)
    .map(({ text }) => text);
}

/** The lines of a page's text, for an expected text the page does not show anywhere. */
export function linesOf(pageText: string): string[] {
  return pageText.split('\n').map((line) => line.trim()).filter((line) => line !== '');
}
