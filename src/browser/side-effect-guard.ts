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

export interface SideEffectGuard {
  /** The side-effect kinds a click on a control labelled `label` would cause ("Cancel subscription" → account_change). */
  kindsNamedBy(label: string): string[];
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
  if (name !== undefined) for (const kind of guard.kindsNamedBy(name)) named.push({ kind, by: `its name "${name}"` });
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
  if (locator === undefined || locator.strategy !== 'role' || !locator.exact) return undefined;
  return locator.role === 'button' || locator.role === 'link' ? locator.name : undefined;
}

async function readFacts(element: Locator, readName: boolean): Promise<TargetFacts> {
  // The nearest control at or above the target, else the target itself (the first in document order is the ancestor).
  const control = element.locator(CONTROL).or(element).first();
  const [snapshot, formAction] = await Promise.all([
    readName ? control.ariaSnapshot({ timeout: 5_000 }).catch(() => '') : '',
    control.evaluate((node) => {
      // Runs in the page; the project compiles without the DOM library, so the element is typed by hand.
      type Form = { action: string; method: string };
      type Control = { form?: Form | null; type?: string; tagName: string; getAttribute(name: string): string | null };
      const control = node as unknown as Control;
      const tag = control.tagName.toLowerCase();
      const submits = (tag === 'button' && (control.type ?? 'submit') === 'submit') || (tag === 'input' && (control.type === 'submit' || control.type === 'image'));
      // A text field submits its form on Enter too.
      const field = tag === 'input' || tag === 'textarea' || tag === 'select';
      const form = control.form ?? null;
      if (form === null || !(submits || field)) return undefined;
      const method = (control.getAttribute('formmethod') ?? form.method ?? 'get').toLowerCase();
      if (method === 'get' || method === 'dialog') return undefined;
      return control.getAttribute('formaction') ?? form.action;
    }).catch(() => undefined),
  ]);
  return { snapshot, formAction: formAction ?? undefined };
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
    .filter((word) => word !== '' && !/\d/.test(word));
  return words.map((verb, index) => {
    const rest = words.filter((_word, other) => other !== index);
    const container = rest.find((word) => CONTAINERS.has(word));
    if (container === undefined) return `${verb} ${rest.join(' ')}`.trim();
    const things = rest.filter((word) => word !== container);
    return `${verb} ${things.length > 0 ? things.join(' ') : 'it'} from the ${container}`;
  });
}
