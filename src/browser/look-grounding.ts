/**
 * A target named by its look ("right-click inside the dashed box"), found by the computed style of the page's
 * visible elements (src/core/looks.ts decides). The one element with the look, the outermost of nested ones, is kept
 * as a CSS locator (its id, else its path of tag and place from the nearest ancestor with an id), proven to find it
 * alone; several elements with the look, or none, are not guessed between.
 */
import type { Locator, Page } from 'playwright';
import type { ResolvedLocator } from '../core/check.js';
import { hasLooks, looksIn, type LookFacts } from '../core/looks.js';
import type { Target } from '../core/plan.js';

export type LookGrounded = { found: true; locator: ResolvedLocator; element: Locator } | { found: false; matches: number };

/** What the page function reads of each visible element: its place in `body *`, and its computed colors as CSS text. */
interface ReadElement {
  index: number;
  borders: Array<{ style: string; color: string }>;
  background: string;
  color: string;
  ownText: boolean;
  /** Indexes of its ancestors among the elements read. */
  ancestors: number[];
  tag: string;
  role: string | null;
}

/** Tags and roles a role word allows ("the red button"); no role: any element. */
const ROLE_TAGS: Readonly<Record<string, { tags: string[]; role: string }>> = {
  button: { tags: ['button'], role: 'button' },
  link: { tags: ['a'], role: 'link' },
  heading: { tags: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'], role: 'heading' },
  img: { tags: ['img', 'svg'], role: 'img' },
  textbox: { tags: ['input', 'textarea'], role: 'textbox' },
};

export async function groundByLook(page: Page, target: Target): Promise<LookGrounded> {
  const looks = looksIn(target.name);
  if (looks.length === 0) return { found: false, matches: 0 };
  const read = await page.evaluate(readElements).catch(() => [] as ReadElement[]);
  const kind = target.role === undefined ? undefined : ROLE_TAGS[target.role];
  const matching = read.filter((element) => hasLooks(factsOf(element), looks) && (kind === undefined || kind.tags.includes(element.tag) || element.role === kind.role));
  const indexes = new Set(matching.map((element) => element.index));
  // A dashed box holds no other dashed box a person means: the outermost of nested matches.
  const outermost = matching.filter((element) => !element.ancestors.some((ancestor) => indexes.has(ancestor)));
  if (outermost.length !== 1) return { found: false, matches: outermost.length };
  const selector = await page.evaluate(uniqueSelector, outermost[0]!.index).catch(() => undefined);
  if (selector === undefined) return { found: false, matches: 1 };
  const element = page.locator(selector);
  if ((await element.count().catch(() => 0)) !== 1) return { found: false, matches: 1 };
  return { found: true, locator: { strategy: 'css', name: selector, exact: false }, element };
}

function factsOf(element: ReadElement): LookFacts {
  return { borders: element.borders.map((side) => ({ style: side.style, color: rgba(side.color) })), background: rgba(element.background), color: rgba(element.color), ownText: element.ownText };
}

/** `rgb(1, 2, 3)` or `rgba(1, 2, 3, 0.5)` as numbers; anything else as transparent. */
function rgba(text: string): number[] {
  const parts = /rgba?\(([^)]+)\)/.exec(text)?.[1]?.split(/[\s,/]+/).filter((part) => part !== '').map(Number) ?? [];
  return parts.length >= 3 ? [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1] : [0, 0, 0, 0];
}

/**
 * The page's visible elements with their computed looks, in the page. No named inner functions: esbuild (tsx, the
 * benches) wraps those in a `__name` helper the page does not have; colors are parsed outside.
 */
function readElements(): ReadElement[] {
  interface Styled {
    tagName: string;
    parentElement: Styled | null;
    childNodes: ArrayLike<{ nodeType: number; textContent: string | null }>;
    getAttribute(name: string): string | null;
    getBoundingClientRect(): { width: number; height: number };
  }
  const scope = globalThis as unknown as {
    document: { querySelectorAll(selector: string): ArrayLike<Styled> };
    getComputedStyle(element: Styled): Record<string, string> & { getPropertyValue(name: string): string };
  };
  const all = Array.from(scope.document.querySelectorAll('body *'));
  const position = new Map(all.map((element, index) => [element, index]));
  const found: ReadElement[] = [];
  for (const [index, element] of all.entries()) {
    if (found.length >= 3_000) break;
    const tag = element.tagName.toLowerCase();
    if (tag === 'script' || tag === 'style' || tag === 'template') continue;
    const box = element.getBoundingClientRect();
    const style = scope.getComputedStyle(element);
    if (box.width === 0 || box.height === 0 || style.visibility === 'hidden' || style.display === 'none') continue;
    const borders = ['top', 'right', 'bottom', 'left']
      .filter((side) => parseFloat(style.getPropertyValue(`border-${side}-width`)) > 0)
      .map((side) => ({ style: style.getPropertyValue(`border-${side}-style`), color: style.getPropertyValue(`border-${side}-color`) }));
    const ancestors: number[] = [];
    for (let parent = element.parentElement; parent !== null; parent = parent.parentElement) {
      const at = position.get(parent);
      if (at !== undefined) ancestors.push(at);
    }
    const ownText = Array.from(element.childNodes).some((node) => node.nodeType === 3 && (node.textContent ?? '').trim() !== '');
    found.push({ index, ancestors, tag, role: element.getAttribute('role'), borders, background: style.getPropertyValue('background-color'), color: style.getPropertyValue('color'), ownText });
  }
  return found;
}

/** A CSS selector that finds element `index` of `body *` alone, or undefined. Runs in the page. */
function uniqueSelector(index: number): string | undefined {
  interface Node {
    id: string;
    tagName: string;
    parentElement: Node | null;
    children: ArrayLike<Node>;
  }
  const scope = globalThis as unknown as { document: { querySelectorAll(selector: string): ArrayLike<Node> }; CSS: { escape(text: string): string } };
  const element = scope.document.querySelectorAll('body *')[index];
  if (element === undefined) return undefined;
  const parts: string[] = [];
  for (let current: Node | null = element; current !== null; current = current.parentElement) {
    const tag = current.tagName.toLowerCase();
    if (current.id !== '' && scope.document.querySelectorAll(`#${scope.CSS.escape(current.id)}`).length === 1) {
      parts.unshift(`#${scope.CSS.escape(current.id)}`);
      break;
    }
    if (tag === 'body') {
      parts.unshift('body');
      break;
    }
    const parent: Node | null = current.parentElement;
    const same = parent === null ? [] : Array.from(parent.children).filter((child) => child.tagName === current!.tagName);
    parts.unshift(same.length > 1 ? `${tag}:nth-of-type(${same.indexOf(current) + 1})` : tag);
  }
  const selector = parts.join(' > ');
  return scope.document.querySelectorAll(selector).length === 1 ? selector : undefined;
}
