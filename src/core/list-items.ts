/**
 * Whether a list shows the items an `expectItems` step names (pure: the runner reads the items' texts, and the
 * generated source repeats this matching in its `itemsMatch` helper). Each expected text is contained, white space
 * collapsed and case ignored, by an item of its own; `ordered`: those items appear in the expected order; `only`:
 * no item is left unmatched.
 */

/** White space collapsed, trimmed, lower case: as expectations compare text (src/browser/nearest-texts.ts). */
function normalized(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

export interface ItemsOptions {
  only: boolean;
  ordered: boolean;
}

/**
 * For each expected text, the index of the item it is matched to, or -1 when no distinct item is left for it.
 * Ordered: each text takes the first item after the previous one's that contains it (the earliest choice never
 * rules out a later text). Unordered: a maximum matching of texts to items (augmenting paths), so "Milk" and
 * "Milk chocolate" are both found whichever item each reads first.
 */
export function matchItems(expected: readonly string[], items: readonly string[], ordered: boolean): number[] {
  const wanted = expected.map(normalized);
  const shown = items.map(normalized);
  const holds = (text: number, item: number) => shown[item]!.includes(wanted[text]!);
  if (ordered) {
    let next = 0;
    return wanted.map((_, text) => {
      while (next < shown.length && !holds(text, next)) next += 1;
      if (next >= shown.length) return -1;
      next += 1;
      return next - 1;
    });
  }
  const owner: number[] = shown.map(() => -1);
  const place = (text: number, seen: boolean[]): boolean => {
    for (let item = 0; item < shown.length; item++) {
      if (seen[item] || !holds(text, item)) continue;
      seen[item] = true;
      if (owner[item] === -1 || place(owner[item]!, seen)) {
        owner[item] = text;
        return true;
      }
    }
    return false;
  };
  wanted.forEach((_, text) => place(text, shown.map(() => false)));
  return wanted.map((_, text) => owner.indexOf(text));
}

/** Whether `items` show `expected` under `options`. */
export function itemsMatch(expected: readonly string[], items: readonly string[], options: ItemsOptions): boolean {
  const matched = matchItems(expected, items, options.ordered);
  if (matched.includes(-1)) return false;
  return !options.only || items.length === expected.length;
}

/** Why `items` do not show `expected`, for a failure message; undefined when they do. */
export function itemsMismatch(expected: readonly string[], items: readonly string[], options: ItemsOptions): string | undefined {
  const matched = matchItems(expected, items, options.ordered);
  const missing = expected.filter((_, text) => matched[text] === -1);
  if (missing.length > 0) {
    // In order, every text may be there, one before the other it should follow.
    if (options.ordered && !matchItems(expected, items, false).includes(-1)) return 'the items are not in the expected order';
    return `no ${missing.length === 1 ? 'item shows' : 'items show'} ${missing.map((text) => JSON.stringify(text)).join(', ')}`;
  }
  if (options.only && items.length !== expected.length) {
    const extra = items.filter((_, item) => !matched.includes(item));
    return `${extra.length} other item${extra.length === 1 ? ' is' : 's are'} shown: ${extra.map((text) => JSON.stringify(normalizedLine(text))).join(', ')}`;
  }
  return undefined;
}

function normalizedLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= 60 ? line : `${line.slice(0, 59)}…`;
}
