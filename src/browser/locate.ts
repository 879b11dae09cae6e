import type { Locator, Page } from 'playwright';
import type { ResolvedLocator } from '../core/check.js';
import { ordinal } from '../core/ordinal.js';
import type { PlanStep, Target } from '../core/plan.js';
import { isLookPhrase } from '../core/looks.js';
import { positionOf, type Position } from '../core/positions.js';
import { groundFirstOf, groundOnPage, type Grounded } from './ground.js';
import { namesElementNoun } from '../core/element-hints.js';
import { groundByHints } from './hint-grounding.js';
import { groundByLook } from './look-grounding.js';
import { groundByPosition } from './position-grounding.js';
import { resolveSignInSubmit } from './sign-in-submit.js';

/** Roles a field can have, for "the Email field" said without saying which kind of field. */
const FIELD_ROLES = ['textbox', 'combobox', 'spinbutton', 'searchbox', 'checkbox', 'radio'];

/**
 * The locator strategies to try for a target, most specific first, the way a person's words map to a page:
 * "click Apply" is a button or a link named Apply before it is any text; "the Email field" is a label, then a
 * placeholder, then a field role.
 */
export function candidatesFor(action: PlanStep['action'], target: Target): ResolvedLocator[] {
  const plain = unscopedCandidates(action, target);
  const within = target.within;
  if (within === undefined || HOLDING_ROLES.has(target.role ?? '')) return plain;
  // "The checkbox of Pay rent": inside the row or list item that shows the text, as grounding finds it on the page.
  // Without this, a count or a "hidden" would look at every element of the kind on the page.
  return ROW_ROLES.flatMap((role) => plain.map((candidate): ResolvedLocator => ({ ...candidate, scope: { role, text: within.text } })));
}

/** Roles of a container found by what it holds ("the list that shows Pay rent"): not scoped to a row. */
const HOLDING_ROLES: ReadonlySet<string> = new Set(['list', 'table', 'grid', 'listbox', 'tree', 'treegrid', 'tablist', 'menu', 'region', 'dialog', 'form', 'navigation', 'group', 'article']);
/** The rows an element of a list or a table sits in. */
const ROW_ROLES = ['listitem', 'row'];

function unscopedCandidates(action: PlanStep['action'], target: Target): ResolvedLocator[] {
  const { name, exact } = target;
  if (target.by === 'role' && target.role) return [{ strategy: 'role', role: target.role, name, exact }];
  if (target.by === 'label') return [{ strategy: 'label', name, exact }, { strategy: 'placeholder', name, exact }];
  if (target.by === 'placeholder') return [{ strategy: 'placeholder', name, exact }];
  // A description is grounded on the page (src/browser/ground.ts) before this is asked; its words as a click's meanwhile.
  switch (target.by === 'description' ? 'click' : action) {
    case 'click':
    case 'rightClick':
    case 'press':
      return [
        { strategy: 'role', role: 'button', name, exact },
        { strategy: 'role', role: 'link', name, exact },
        { strategy: 'role', role: 'menuitem', name, exact },
        { strategy: 'role', role: 'tab', name, exact },
        { strategy: 'text', name, exact },
      ];
    case 'fill':
    case 'select':
    case 'check':
    case 'expectValue':
      return [
        { strategy: 'label', name, exact },
        { strategy: 'placeholder', name, exact },
        ...FIELD_ROLES.map((role): ResolvedLocator => ({ strategy: 'role', role, name, exact })),
      ];
    default:
      return [
        { strategy: 'role', role: 'heading', name, exact },
        { strategy: 'label', name, exact },
        { strategy: 'role', role: 'button', name, exact },
        { strategy: 'role', role: 'link', name, exact },
        { strategy: 'text', name, exact },
      ];
  }
}

/** The form a `within: 'passwordForm'` locator looks inside (the generated test source uses the same selector). */
export const PASSWORD_FORM_SELECTOR = 'form:has(input[type="password"])';

/**
 * The Playwright locator of a resolved strategy: the same calls the generated test source makes
 * (src/checks/generate-source.ts `locatorExpression`). Inside `scope`'s container when it has one; an empty name
 * filters nothing (any element of the role); `nth` picks among the visible matches (-1: the last), as a person
 * counts what they see.
 */
export function locatorOf(page: Page, locator: ResolvedLocator): Locator {
  const options = { exact: locator.exact };
  let scope: Page | Locator = locator.within === 'passwordForm' ? page.locator(PASSWORD_FORM_SELECTOR) : page;
  if (locator.scope) {
    scope = scope.getByRole(locator.scope.role as AriaRole).filter({ has: page.getByText(locator.scope.text, { exact: true }) });
  }
  let element: Locator;
  switch (locator.strategy) {
    case 'role':
      element = locator.name === '' ? scope.getByRole(locator.role as AriaRole) : scope.getByRole(locator.role as AriaRole, { name: locator.name, exact: locator.exact });
      break;
    case 'label':
      element = scope.getByLabel(locator.name, options);
      break;
    case 'placeholder':
      element = scope.getByPlaceholder(locator.name, options);
      break;
    case 'text':
      element = scope.getByText(locator.name, options);
      break;
    case 'css':
      element = scope.locator(locator.name);
      break;
  }
  if (locator.nth === undefined) return element;
  const shown = element.filter({ visible: true });
  return locator.nth === -1 ? shown.last() : shown.nth(locator.nth);
}

type AriaRole = Parameters<Page['getByRole']>[0];

export type Resolution =
  | { found: true; locator: ResolvedLocator; element: Locator }
  /** `message`: what grounding on the page's snapshot found instead, with the candidates the page offers. */
  | { found: false; reason: 'none' | 'several'; matches: number; tried: ResolvedLocator[]; message?: string; candidates?: string[] };

/** Targets only the page's snapshot can resolve: a person's description, a row, a position, or no name at all. */
export function needsGrounding(target: Target): boolean {
  return target.by === 'description' || target.within !== undefined || target.nth !== undefined || target.name === '';
}

/** How long several matches may persist before the target counts as ambiguous (a page may still be rendering). */
const AMBIGUITY_SETTLE_MS = 750;
const POLL_MS = 100;
/** How long the usual ways of naming a target are tried alone before an element of another kind may be meant. */
const OTHER_KIND_AFTER_MS = 1_000;

/**
 * Finds the one visible element a target means. The first strategy with exactly one visible match wins. Nothing
 * matching by the deadline is `none`; several visible matches (and no strategy with one) for a while is `several`:
 * the run asks or fails, it never picks one of them.
 */
export async function resolveTarget(page: Page, action: PlanStep['action'], target: Target, timeoutMs: number): Promise<Resolution> {
  // "The sign-in button" is found by what it does, not by the task's word for it.
  if (target.purpose === 'signIn' && action === 'click') return resolveSignInSubmit(page, timeoutMs);
  // "The message above the heading": the element on that side of the one named (./position-grounding.ts).
  const placed = target.by === 'description' ? positionOf(target.name) : undefined;
  if (placed !== undefined) return findByPosition(page, placed, timeoutMs);
  // "The dashed box": an element only its look names, when one element has that look (./look-grounding.ts).
  if (target.by === 'description' && isLookPhrase(target.name)) {
    const byLook = await findByLook(page, target, Math.min(timeoutMs, OTHER_KIND_AFTER_MS));
    if (byLook !== undefined) return byLook;
  }
  // "The cart badge": an element named by what it is, found by its class, id or data-test (./hint-grounding.ts).
  if (target.by === 'description' && namesElementNoun(target.name)) {
    const byHints = await findByHints(page, action, target, Math.min(timeoutMs, OTHER_KIND_AFTER_MS));
    if (byHints !== undefined) return byHints;
  }
  if (needsGrounding(target)) return fromGrounding(await groundOnPage(page, action, target, timeoutMs));
  const tried = candidatesFor(action, target);
  const started = Date.now();
  const deadline = started + timeoutMs;
  let severalSince: number | undefined;
  let most = 0;
  // None of the ways the words usually name an element, for a while: the page's snapshot may show what they mean, one
  // snapshot a poll for all of these, in this order:
  // - an element of another kind with that very name ("click 'Mark all as complete'", a checkbox; "click 'All'", a link);
  // - a field or box whose label is only a text beside it ("Number", "checkbox 1"): the control next to that text;
  // - a control whose own name says less, in a card that says the rest ("Add Sauce Labs Backpack to cart": the
  //   "Add to cart" of the Backpack's card).
  const captioned = captionedKind(action, target);
  const fallbacks: Target[] = [
    { ...target, by: 'text', role: undefined },
    ...(captioned === undefined ? [] : [{ by: 'role', role: captioned, name: '', exact: false, within: { text: target.name } } satisfies Target]),
    { ...target, by: 'description' },
  ];
  for (;;) {
    let several = false;
    for (const candidate of tried) {
      const element = locatorOf(page, candidate);
      const visible = await visibleCount(element);
      if (visible === 1) return { found: true, locator: candidate, element: element.filter({ visible: true }).first() };
      if (visible > 1) {
        several = true;
        most = Math.max(most, visible);
      }
    }
    const now = Date.now();
    if (several) severalSince ??= now;
    else severalSince = undefined;
    if (severalSince !== undefined && now - severalSince >= AMBIGUITY_SETTLE_MS) {
      // Several by name, but the page's snapshot may still show one: a product's picture link is named by its image
      // and its title link by its text, and only the title says the name itself.
      const grounded = await groundFirstOf(page, action, [target]);
      if (grounded.found) return { found: true, locator: grounded.locator, element: grounded.element };
      return { found: false, reason: 'several', matches: most, tried };
    }
    if (!several && (now - started >= OTHER_KIND_AFTER_MS || now >= deadline)) {
      // "The shopping cart icon": an image with no name of its own, which the page's hints may name (a class), before
      // any other kind of element whose text merely holds the word ("Hide bag" is no bag icon).
      if (target.role === 'img') {
        const byHints = await groundByHints(page, target, ACTING.has(action));
        if (byHints.found) return byHints;
      }
      const grounded = await groundFirstOf(page, action, fallbacks, { strict: true });
      if (grounded.found) return { found: true, locator: grounded.locator, element: grounded.element };
      if (now >= deadline) return { found: false, reason: 'none', matches: 0, tried, candidates: grounded.candidates };
    }
    if (now >= deadline) return { found: false, reason: 'several', matches: most, tried };
    await page.waitForTimeout(POLL_MS);
  }
}

/** The one element with the target's look, polled while the page may still render it; undefined when none or several. */
async function findByLook(page: Page, target: Target, timeoutMs: number): Promise<Resolution | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await groundByLook(page, target);
    if (found.found) return { found: true, locator: found.locator, element: found.element };
    if (Date.now() >= deadline) return undefined;
    await page.waitForTimeout(POLL_MS);
  }
}

/** Actions that act on the element: among elements with the same hints, the one a person can act on. */
const ACTING: ReadonlySet<PlanStep['action']> = new Set(['click', 'dblclick', 'rightClick', 'hover', 'press']);

/** The one element the page's hints name as the target says, polled while the page may still render it. */
async function findByHints(page: Page, action: PlanStep['action'], target: Target, timeoutMs: number): Promise<Resolution | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await groundByHints(page, target, ACTING.has(action));
    if (found.found) return found;
    if (Date.now() >= deadline) return undefined;
    await page.waitForTimeout(POLL_MS);
  }
}

/** The kind of control a label target of this action is, when its label may be a caption beside it. */
function captionedKind(action: PlanStep['action'], target: Target): string | undefined {
  if (target.by !== 'label' || target.name === '') return undefined;
  if (action === 'check') return 'checkbox';
  if (action === 'fill' || action === 'clear' || action === 'press' || action === 'expectValue') return 'textbox';
  if (action === 'select') return 'combobox';
  // "check that checkbox 1 is ticked": a state of a control the task named as a kind ("checkbox 1", "radio 2").
  if (action === 'expectState' && target.role !== undefined) return target.role;
  return undefined;
}

/** The element placed against another, polled while the page may still render it. */
async function findByPosition(page: Page, position: Position, timeoutMs: number): Promise<Resolution> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const grounded = await groundByPosition(page, position);
    if (grounded.found) return { found: true, locator: grounded.locator, element: grounded.element };
    if (Date.now() >= deadline) return { found: false, reason: 'none', matches: 0, tried: [], message: grounded.message };
    await page.waitForTimeout(POLL_MS);
  }
}

function fromGrounding(grounded: Grounded): Resolution {
  if (grounded.found) return { found: true, locator: grounded.locator, element: grounded.element };
  return { found: false, reason: grounded.reason, matches: grounded.candidates.length, tried: [], message: grounded.message };
}

async function visibleCount(element: Locator): Promise<number> {
  try {
    return await element.filter({ visible: true }).count();
  } catch {
    return 0; // the page navigated while counting; the next poll looks again
  }
}

/**
 * `role button named "Sign in"`, `role checkbox in the listitem with "Pay rent"`, `role row (the 2nd)` for messages
 * and the generated source's comments.
 */
export function describeLocator(locator: ResolvedLocator): string {
  const name = JSON.stringify(locator.name);
  let text = locator.strategy === 'role' ? `role ${locator.role}${locator.name === '' ? '' : ` named ${name}`}` : `${locator.strategy} ${name}`;
  if (locator.scope) text += ` in the ${locator.scope.role} with ${JSON.stringify(locator.scope.text)}`;
  if (locator.nth !== undefined) text += locator.nth === -1 ? ' (the last)' : ` (the ${ordinal(locator.nth + 1)})`;
  return text;
}
