/**
 * A target named by what it is ("the cart badge", "the cart icon") when the page gives it no accessible name: found by
 * the element's own hints (class names, id, `data-test`/`data-testid`) carrying the phrase's words
 * (src/core/element-hints.ts scores them). The best-scoring visible element wins; a tie is broken for an action by the
 * one element a person can act on (a link, a button, a pointer cursor), else nothing is guessed. It is kept as the
 * plainest CSS locator that finds it alone: its data-test, its id, its class, proven by count.
 *
 * An element found so is remembered for the page (the run's page), so that "the badge is gone" later in the run
 * checks the very element the run saw, rather than passing because nothing is found.
 */
import type { Locator, Page } from 'playwright';
import type { ResolvedLocator } from '../core/check.js';
import { hintQuery, hintScore, hintWords } from '../core/element-hints.js';
import type { Target } from '../core/plan.js';

export type HintGrounded = { found: true; locator: ResolvedLocator; element: Locator } | { found: false; matches: number };

interface HintedElement {
  index: number;
  hints: string[];
  /** Each plain way of selecting it: `[data-test="…"]`, `#id`, `.class`. */
  selectors: string[];
  actionable: boolean;
}

const remembered = new WeakMap<Page, Array<{ words: string[]; locator: ResolvedLocator }>>();

/** The element the run found earlier on this page for a phrase with the same words (the last one), if any. */
export function rememberedFor(page: Page, phrase: string): ResolvedLocator | undefined {
  const query = hintQuery(phrase);
  const wanted = [...query.words, ...(query.noun === undefined ? [] : [query.noun])];
  if (wanted.length === 0) return undefined;
  const seen = remembered.get(page) ?? [];
  // "the badge" after "the cart badge": every word said now was said of it then.
  return seen.filter((entry) => wanted.every((word) => entry.words.includes(word))).at(-1)?.locator;
}

export async function groundByHints(page: Page, target: Target, acting: boolean): Promise<HintGrounded> {
  const query = hintQuery(target.name);
  if (query.noun === undefined && query.words.length === 0) return { found: false, matches: 0 };
  const read = await page.evaluate(readHinted).catch(() => [] as HintedElement[]);
  const scored = read.map((element) => ({ element, score: hintScore(query, element.hints) })).filter((entry) => entry.score > 0);
  const best = Math.max(0, ...scored.map((entry) => entry.score));
  let top = scored.filter((entry) => entry.score === best).map((entry) => entry.element);
  if (top.length > 1 && acting) top = top.filter((element) => element.actionable);
  if (top.length !== 1) return { found: false, matches: top.length };
  for (const selector of top[0]!.selectors) {
    const element = page.locator(selector);
    if ((await element.count().catch(() => 0)) !== 1) continue;
    const locator: ResolvedLocator = { strategy: 'css', name: selector, exact: false };
    const list = remembered.get(page) ?? [];
    list.push({ words: [...new Set(top[0]!.hints.flatMap(hintWords))], locator });
    remembered.set(page, list);
    return { found: true, locator, element };
  }
  return { found: false, matches: 1 };
}

/**
 * The page's visible elements with hints, in the page. No named inner functions: esbuild (tsx, the benches) wraps
 * those in a `__name` helper the page does not have.
 */
function readHinted(): HintedElement[] {
  interface Hinted {
    tagName: string;
    id: string;
    classList: ArrayLike<string>;
    getAttribute(name: string): string | null;
    getBoundingClientRect(): { width: number; height: number };
  }
  const scope = globalThis as unknown as {
    document: { querySelectorAll(selector: string): ArrayLike<Hinted> };
    getComputedStyle(element: Hinted): Record<string, string>;
    CSS: { escape(text: string): string };
  };
  const found: HintedElement[] = [];
  const all = Array.from(scope.document.querySelectorAll('body [class], body [id], body [data-test], body [data-testid]'));
  for (const [index, element] of all.entries()) {
    if (found.length >= 3_000) break;
    const box = element.getBoundingClientRect();
    const style = scope.getComputedStyle(element);
    if (box.width === 0 || box.height === 0 || style.visibility === 'hidden' || style.display === 'none') continue;
    const tests = ['data-test', 'data-testid'].map((name) => [name, element.getAttribute(name)] as const).filter((entry): entry is readonly [string, string] => entry[1] !== null && entry[1] !== '');
    const classes = Array.from(element.classList);
    const hints = [...tests.map((entry) => entry[1]), ...(element.id === '' ? [] : [element.id]), ...classes];
    const selectors = [
      ...tests.map(([name, value]) => `[${name}="${value.replace(/["\\]/g, '\\$&')}"]`),
      ...(element.id === '' ? [] : [`#${scope.CSS.escape(element.id)}`]),
      ...classes.map((name) => `.${scope.CSS.escape(name)}`),
      ...classes.map((name) => `${element.tagName.toLowerCase()}.${scope.CSS.escape(name)}`),
    ];
    const tag = element.tagName.toLowerCase();
    const actionable = tag === 'a' || tag === 'button' || ['button', 'link'].includes(element.getAttribute('role') ?? '') || style.cursor === 'pointer';
    found.push({ index, hints, selectors, actionable });
  }
  return found;
}
