/**
 * "The message above the heading": the element right above (or below) the one named, on the page as laid out. The
 * anchor must be one visible element (a heading, a field, a named element); the element is the nearest block with
 * text on that side of it, neither inside it nor around it, and is kept as the plainest CSS locator that finds it
 * alone (its id, test id, or tag and classes), so that a replay finds the same place whatever text it shows now. No
 * anchor, nothing there, or no locator of its own: nothing is found, and the step cannot pass by looking elsewhere.
 */
import type { Locator, Page } from 'playwright';
import type { ResolvedLocator } from '../core/check.js';
import type { Position } from '../core/positions.js';

export type PositionGrounded = { found: true; locator: ResolvedLocator; element: Locator } | { found: false; message: string };

const ANCHOR_ROLES: ReadonlyArray<[RegExp, string]> = [
  [/^(?:main\s+)?(?:heading|title|header|headline)$/i, 'heading'],
  [/^(?:button)$/i, 'button'],
  [/^(?:link)$/i, 'link'],
  [/^(?:image|picture|logo)$/i, 'img'],
];

function anchorLocator(page: Page, phrase: string): Locator {
  const words = phrase.replace(/^(?:the|its)\s+/i, '').trim();
  for (const [pattern, role] of ANCHOR_ROLES) if (pattern.test(words)) return page.getByRole(role as 'heading');
  const named = /^(.+?)\s+(heading|title|button|link|field|box|input)$/i.exec(words);
  if (named !== null) {
    const kind = named[2]!.toLowerCase();
    if (kind === 'field' || kind === 'box' || kind === 'input') return page.getByLabel(named[1]!);
    return page.getByRole(kind === 'title' ? 'heading' : (kind as 'heading'), { name: named[1]! });
  }
  return page.getByText(words, { exact: false });
}

export async function groundByPosition(page: Page, position: Position): Promise<PositionGrounded> {
  const anchors = anchorLocator(page, position.anchor).filter({ visible: true });
  const count = await anchors.count().catch(() => 0);
  if (count !== 1) return { found: false, message: `${count === 0 ? 'Nothing' : `${count} elements`} on the page ${count === 0 ? 'is' : 'are'} ${JSON.stringify(position.anchor)}, to find ${JSON.stringify(position.noun)} ${position.relation} it` };
  const selector = await anchors.evaluate(nearestBlock, position.relation).catch(() => null);
  if (selector === null) return { found: false, message: `Nothing with text is ${position.relation} ${position.anchor} (looked for ${JSON.stringify(position.noun)})` };
  const element = page.locator(selector);
  if ((await element.count().catch(() => 0)) !== 1) return { found: false, message: `The element ${position.relation} ${position.anchor} has no locator of its own` };
  return { found: true, locator: { strategy: 'css', name: selector, exact: false }, element };
}

/**
 * In the page: the CSS selector of the nearest element with text on `relation`'s side of `anchor`, the innermost of
 * those that show the same text, or null. No named inner functions (esbuild's `__name` helper is not in the page).
 */
function nearestBlock(anchor: unknown, relation: 'above' | 'below'): string | null {
  interface Box {
    top: number;
    bottom: number;
    width: number;
    height: number;
  }
  interface Element {
    tagName: string;
    id: string;
    classList: ArrayLike<string>;
    innerText: string;
    getAttribute(name: string): string | null;
    getBoundingClientRect(): Box;
    contains(other: unknown): boolean;
  }
  const scope = globalThis as unknown as { document: { querySelectorAll(selector: string): ArrayLike<Element> }; CSS: { escape(text: string): string } };
  const of = anchor as Element;
  const box = of.getBoundingClientRect();
  const all = Array.from(scope.document.querySelectorAll('body *')).filter((element) => {
    if (element.contains(of) || of.contains(element) || /^(?:SCRIPT|STYLE|BR|HR)$/.test(element.tagName)) return false;
    const own = element.getBoundingClientRect();
    if (own.width === 0 || own.height === 0 || element.innerText.trim() === '') return false;
    return relation === 'above' ? own.bottom <= box.top + 1 : own.top >= box.bottom - 1;
  });
  if (all.length === 0) return null;
  const distances = all.map((element) => (relation === 'above' ? box.top - element.getBoundingClientRect().bottom : element.getBoundingClientRect().top - box.bottom));
  const nearest = Math.min(...distances);
  const near = all.filter((_element, index) => distances[index]! <= nearest + 1);
  // The block as a whole: the one showing the most text; then the innermost showing that same text.
  const most = Math.max(...near.map((element) => element.innerText.trim().length));
  const whole = near.filter((element) => element.innerText.trim().length === most);
  const inner = whole.find((element) => !whole.some((other) => other !== element && element.contains(other)))!;
  const test = inner.getAttribute('data-test') ?? inner.getAttribute('data-testid');
  if (test !== null && test !== '') return `[${inner.getAttribute('data-test') === null ? 'data-testid' : 'data-test'}="${test.replace(/["\\]/g, '\\$&')}"]`;
  if (inner.id !== '') return `#${scope.CSS.escape(inner.id)}`;
  const classes = Array.from(inner.classList).map((name) => `.${scope.CSS.escape(name)}`).join('');
  return classes === '' ? null : `${inner.tagName.toLowerCase()}${classes}`;
}
