/**
 * "6 products are shown" on a page whose products are no list items: cards, repeated siblings of the same tag and
 * class each holding a text and a control of its own (a button or a link). The group is kept as a CSS selector that
 * finds exactly its members (a shared data-test, else a shared class), proven in the page. Several such groups: the one
 * whose hints carry the noun ("product" in `product-card`), else none is guessed.
 */
import type { Page } from 'playwright';
import type { ResolvedLocator } from '../core/check.js';
import { hintQuery, hintScore } from '../core/element-hints.js';

/** Nouns a person counts cards by. */
export const CARD_NOUNS = /^(?:products?|items?|cards?|results?|entries|entry|articles?|posts?|books?|listings?|offers?|tiles?)$/i;

interface CardGroup {
  selector: string;
  hints: string[];
  size: number;
}

export async function groundCards(page: Page, noun: string): Promise<ResolvedLocator | undefined> {
  const groups = await page.evaluate(readCardGroups).catch(() => [] as CardGroup[]);
  if (groups.length === 0) return undefined;
  const query = hintQuery(noun);
  const named = groups.filter((group) => hintScore(query, group.hints) > 0);
  const chosen = named.length === 1 ? named[0] : groups.length === 1 ? groups[0] : undefined;
  return chosen === undefined ? undefined : { strategy: 'css', name: chosen.selector, exact: false };
}

/** Sibling groups that look like cards, each with a selector that finds exactly its members. Runs in the page. */
function readCardGroups(): CardGroup[] {
  interface Card {
    tagName: string;
    className: string;
    innerText: string;
    parentElement: Card | null;
    children: ArrayLike<Card>;
    getAttribute(name: string): string | null;
    querySelector(selector: string): Card | null;
    getBoundingClientRect(): { width: number; height: number };
  }
  const scope = globalThis as unknown as { document: { querySelectorAll(selector: string): ArrayLike<Card> }; CSS: { escape(text: string): string } };
  const groups: CardGroup[] = [];
  const parents = new Set(Array.from(scope.document.querySelectorAll('body *')).map((element) => element.parentElement));
  for (const parent of parents) {
    if (parent === null) continue;
    const byKind = new Map<string, Card[]>();
    for (const child of Array.from(parent.children)) {
      if (typeof child.className !== 'string' || child.className.trim() === '') continue;
      const box = child.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || child.innerText.trim() === '') continue;
      if (child.querySelector('button, a[href], [role="button"], input[type="button"], input[type="submit"]') === null) continue;
      const kind = `${child.tagName} ${child.className.trim()}`;
      byKind.set(kind, [...(byKind.get(kind) ?? []), child]);
    }
    for (const members of byKind.values()) {
      if (members.length < 2) continue;
      const first = members[0]!;
      const test = first.getAttribute('data-test') ?? first.getAttribute('data-testid');
      const testName = first.getAttribute('data-test') !== null ? 'data-test' : 'data-testid';
      const classes = first.className.trim().split(/\s+/);
      const candidates = [
        ...(test !== null && test !== '' ? [`[${testName}="${test.replace(/["\\]/g, '\\$&')}"]`] : []),
        ...classes.map((name) => `.${scope.CSS.escape(name)}`),
        ...classes.map((name) => `${first.tagName.toLowerCase()}.${scope.CSS.escape(name)}`),
      ];
      for (const selector of candidates) {
        const found = Array.from(scope.document.querySelectorAll(selector));
        if (found.length === members.length && members.every((member) => found.includes(member))) {
          groups.push({ selector, hints: [...classes, ...(test === null ? [] : [test])], size: members.length });
          break;
        }
      }
    }
  }
  return groups;
}
