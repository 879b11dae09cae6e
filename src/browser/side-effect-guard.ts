/**
 * The last line of the side-effect policy, at run time: before a click or a key press acts, the element it would act
 * on is read as the page names it (its accessible name) and, when it submits a form that writes (any method but
 * GET), as the form's action says it ("/account/subscription/cancel"). A side effect named there that no answer
 * allowed stops the step as `side_effect_blocked`, whatever planner wrote the plan and whatever its target was
 * called in the plan (a model's "Confirm" can resolve to "Confirm and delete account"). The words are read by the
 * planner's own policy, passed in as `kindsNamedBy`: this module only reads the page.
 */
import type { Locator } from 'playwright';
import { roleAndNameOf } from './aria-name.js';

/**
 * Where on the live page a control is, as far as it changes what its words mean: in a shop's cart (or on a page of
 * a shop with one, where "Remove" takes an item out of it again) or at a checkout (where "Finish" places the order).
 */
export type ControlPlace = 'cart' | 'checkout';

export interface SideEffectGuard {
  /**
   * The side-effect kinds a click on a control labelled `label` would cause ("Cancel subscription" → account_change),
   * read where the control is when `place` is known.
   */
  kindsNamedBy(label: string, place?: ControlPlace): string[];
  /** The kinds an answer allowed, or 'all' (a plan written before the list existed whose answers allowed side effects). */
  allowed: readonly string[] | 'all';
}

interface TargetFacts {
  /** The first line of the element's aria snapshot, `- button "Cancel subscription"`. */
  snapshot: string;
  /** The action of the form the element submits, when it submits one with a method other than GET. */
  formAction?: string;
}

/**
 * Why acting on `element` is blocked, or undefined when it names no side effect that was not allowed. `knownName` is
 * the element's accessible name when the locator that found it already proves it (see `nameProvenBy`): then only
 * its form is read.
 */
export async function sideEffectBlocked(element: Locator, guard: SideEffectGuard, knownName?: string): Promise<string | undefined> {
  if (guard.allowed === 'all') return undefined;
  const facts = await readFacts(element, knownName === undefined);
  const name = knownName ?? accessibleName(facts.snapshot);
  const named: Array<{ kind: string; by: string }> = [];
  if (name !== undefined) {
    const place = await placeOf(element, name, guard.kindsNamedBy(name));
    const where = place === undefined ? '' : ` ${place === 'cart' ? 'in a shop with a cart' : 'at a checkout'}`;
    for (const kind of guard.kindsNamedBy(name, place)) named.push({ kind, by: `its name "${name}"${where}` });
  }
  if (facts.formAction !== undefined) {
    for (const kind of kindsOfAction(facts.formAction, guard)) named.push({ kind, by: `its form's action ${facts.formAction}` });
  }
  const allowed = guard.allowed;
  const blocked = named.find(({ kind }) => !allowed.includes(kind));
  if (blocked === undefined) return undefined;
  return (
    `Stopped before acting on ${name === undefined ? 'the target' : `"${name}"`}: ${blocked.by} names a real side effect (${blocked.kind.replace(/_/g, ' ')}) ` +
    `that no answer allowed${allowed.length > 0 ? ` (the answers allowed: ${allowed.join(', ').replace(/_/g, ' ')})` : ''}. ` +
    'Nothing was clicked. To let a run do it, answer the question about it when the task asks, or say so in the task.'
  );
}

/** A shop's cart, by its address or by what an element is called or linked to. */
const CART_WORD = /\b(?:cart|basket|shopping[ -]?bag)\b|(?:^|[/_-])(?:cart|basket)(?:$|[/_.?#-])/i;
const lowerAttr = (name: string) => `contains(translate(@${name},'ABCDEFGHIJKLMNOPQRSTUVWXYZ','abcdefghijklmnopqrstuvwxyz'),'cart')`;
/** An element of the page that is, or leads to, a cart: its id, class, test id, label or link says so. */
const CART_ELEMENT = `xpath=//*[${['id', 'class', 'data-test', 'data-testid', 'aria-label', 'href'].map(lowerAttr).join(' or ')}]`;
/** Words that finish a checkout when it is the page the control is on. */
const FINISHING = /^\s*(?:finish|complete|confirm|submit|continue to payment|place|pay)\b/i;

/**
 * Where the control is, read only when it can change the verdict: a removal the words alone call a delete is taken
 * back in a shop with a cart (the page's address or an element of it names one), and a finishing word on a checkout
 * page places the order. Undefined elsewhere, which keeps the common click to one read.
 */
async function placeOf(element: Locator, name: string, kinds: readonly string[]): Promise<ControlPlace | undefined> {
  const page = element.page();
  const path = new URL(page.url()).pathname;
  if (kinds.length === 0 && FINISHING.test(name) && /check-?out|payment|review/i.test(path)) return 'checkout';
  if (!kinds.includes('delete') || !/^\s*remove\b/i.test(name)) return undefined;
  if (CART_WORD.test(path)) return 'cart';
  return (await page.locator(CART_ELEMENT).count().catch(() => 0)) > 0 ? 'cart' : undefined;
}

/**
 * The control a target belongs to: a text target resolves to the innermost element with the text, which can be a
 * span inside the button ("<button><span>Delete account</span></button>"), and the button is what acts.
 */
const CONTROL =
  'xpath=ancestor-or-self::*[self::button or self::a[@href] or self::input or self::summary or @role="button" or @role="link" or @role="menuitem" or @role="tab" or @role="option" or @role="switch"][1]';

/**
 * The accessible name a locator proves its element has: a role locator with an exact name for a button or a link
 * matches only elements of that role whose accessible name is that name, and such an element is its own control (the
 * nearest in CONTROL's list at or above it). Undefined for any other locator: the guard reads the page then. A
 * replay's stored click targets are mostly such locators, and reading the name costs an aria snapshot of the page's
 * element each time (bench:runs: about 20 ms of a six-step replay).
 */
export function nameProvenBy(locator: { strategy: string; role?: string; name: string; exact: boolean } | undefined): string | undefined {
  // A nameless locator (an element picked by its row or position) proves no name.
  if (locator === undefined || locator.strategy !== 'role' || !locator.exact || locator.name === '') return undefined;
  return locator.role === 'button' || locator.role === 'link' ? locator.name : undefined;
}

async function readFacts(element: Locator, readName: boolean): Promise<TargetFacts> {
  // The nearest control at or above the target, else the target itself (the first in document order is the ancestor).
  const control = element.locator(CONTROL).or(element).first();
  const [snapshot, formAction] = await Promise.all([readName ? control.ariaSnapshot({ timeout: 5_000 }).catch(() => '') : '', writingFormAction(control).catch(() => undefined)]);
  return { snapshot, formAction };
}

/** XPath 1.0 has no lower-case(): an attribute's ASCII letters folded with translate(). */
const lowered = (attribute: string) => `translate(${attribute},'ABCDEFGHIJKLMNOPQRSTUVWXYZ','abcdefghijklmnopqrstuvwxyz')`;

/**
 * A control that sends its form: a button that submits (type submit, the default, or one the browser does not know,
 * which means submit), or a field, which submits on Enter (an input of any type, a textarea, a select).
 */
const SENDS_FORM = `xpath=self::button[not(${lowered('@type')}='button' or ${lowered('@type')}='reset')] | self::input | self::textarea | self::select`;

/** `text` as an XPath 1.0 string literal (which has no escapes: a text with both quotes is concat()ed). */
function xpathLiteral(text: string): string {
  if (!text.includes("'")) return `'${text}'`;
  if (!text.includes('"')) return `"${text}"`;
  return `concat(${text.split("'").map((part) => `'${part}'`).join(`, "'", `)})`;
}

/**
 * The action of the form `control` sends, absolute, when it sends one with a method other than GET (or dialog);
 * undefined otherwise. Read as the DOM's `form`, `formMethod`/`method` and `formAction`/`action` would give them,
 * but through attribute reads and XPath, which Playwright runs in its own isolated world. An `evaluate` of the
 * element runs in the page's world, and the first one on a page makes Playwright inject its ~340 kB script there
 * too: about 25 ms of every replay that clicks on a page (bench: 36 ms against 10 ms for these reads, in parallel).
 */
export async function writingFormAction(control: Locator): Promise<string | undefined> {
  const [sends, owner, formMethod, formAction] = await Promise.all([
    control.locator(SENDS_FORM).count(),
    control.getAttribute('form'),
    control.getAttribute('formmethod'),
    control.getAttribute('formaction'),
  ]);
  if (sends === 0) return undefined;
  // The form owner: the form the `form` attribute names by id (none when no form has it), else the nearest form around.
  const form = owner !== null ? control.page().locator(`xpath=//form[@id=${xpathLiteral(owner)}]`).first() : control.locator('xpath=ancestor::form[1]');
  if ((await form.count()) === 0) return undefined;
  const [method, action] = await Promise.all([form.getAttribute('method'), form.getAttribute('action')]);
  // A button's formmethod counts as given; a form's method that is not one HTML knows means GET.
  const sent = (formMethod ?? method ?? 'get').trim().toLowerCase();
  if (sent === 'get' || sent === 'dialog' || (formMethod === null && sent !== 'post')) return undefined;
  // Missing or empty, an action is the document's own address (resolved against the page's address: a <base> element aside).
  return new URL((formAction ?? action ?? '').trim(), control.page().url()).href;
}

/** `- button "Cancel subscription"` → `Cancel subscription`; a snapshot without a name gives undefined. */
export function accessibleName(snapshot: string): string | undefined {
  const name = roleAndNameOf(snapshot)?.name;
  return name === '' ? undefined : name;
}

/**
 * The side effects a form action names: for each phrase of its path, the kinds its first word (the verb) adds. The
 * policy reads two words before a verb as part of a label ("click the cart items remove"), so a phrase whose verb
 * is not first could otherwise name what a later word does.
 */
export function kindsOfAction(action: string, guard: Pick<SideEffectGuard, 'kindsNamedBy'>): string[] {
  const kinds = new Set<string>();
  for (const phrase of phrasesOfPath(action)) {
    const without = new Set(guard.kindsNamedBy(phrase.split(' ').slice(1).join(' ')));
    for (const kind of guard.kindsNamedBy(phrase)) if (!without.has(kind)) kinds.add(kind);
  }
  return [...kinds];
}

/** Words that hold things rather than name them: removing from them is not deleting data. */
const CONTAINERS = new Set(['cart', 'basket', 'bag', 'wishlist', 'favorites', 'favourites', 'compare']);

/**
 * A form action's path said as commands, verb first, so that the same policy reads it: `/account/subscription/cancel`
 * → "cancel account subscription", `/cart/items/remove` → "remove items from the cart". One phrase per word of the
 * path that could be the verb; ids and numbers are left out.
 */
export function phrasesOfPath(action: string): string[] {
  let path: string;
  try {
    path = new URL(action, 'http://host.invalid').pathname;
  } catch {
    return [];
  }
  const words = decodeURIComponent(path)
    .split(/[/_.\-\s]+/)
    .map((word) => word.toLowerCase())
    .filter((word) => word !== '' && !/\d/.test(word))
    // A form that posts to /checkout sends the order (a Checkout button that only opens the form is a link or a GET).
    .map((word) => (word === 'checkout' ? 'purchase' : word));
  return words.map((verb, index) => {
    const rest = words.filter((_word, other) => other !== index);
    const container = rest.find((word) => CONTAINERS.has(word));
    if (container === undefined) return `${verb} ${rest.join(' ')}`.trim();
    const things = rest.filter((word) => word !== container);
    return `${verb} ${things.length > 0 ? things.join(' ') : 'it'} from the ${container}`;
  });
}
