/**
 * The expect steps of a plan, on the live page. An expectation about an element that is there but shows another
 * text, title, value, count or state fails as `assertion_failed` with what it expected and what the page shows
 * (the nearest candidates first: the page's headings when a heading says something else); a target that is truly
 * absent (no element of its kind at all, a field or button that is not there) stays `step_unresolvable`.
 */
import type { Locator, Page } from 'playwright';
import type { ResolvedLocator } from '../core/check.js';
import type { Comparison } from '../core/findings.js';
import { itemsMatch, itemsMismatch } from '../core/list-items.js';
import { ordinal } from '../core/ordinal.js';
import type { PlanStep, Target } from '../core/plan.js';
import { pageNamedByWords } from '../core/page-name-words.js';
import { storageMatch } from '../core/storage-check.js';
import { holdsWithCase } from '../core/text-case.js';
import { isSelectedBy } from '../core/selected-state.js';
import { namesElementNoun } from '../core/element-hints.js';
import { appeared } from './appearing-texts.js';
import { CARD_NOUNS, groundCards } from './card-grounding.js';
import { seenBeforeGone } from './gone-anchors.js';
import { reachedAddress } from './page-history.js';
import { groundByHints, rememberedFor } from './hint-grounding.js';
import { candidatesFor, locatorOf, resolveTarget } from './locate.js';
import { linesOf, nearestTexts, normalizedText, oneLine } from './nearest-texts.js';
import { StepFailure } from './step-failure.js';

export type ExpectStep = Extract<PlanStep, { action: 'expectText' | 'expectTitle' | 'expectValue' | 'expectUrl' | 'expectState' | 'expectCount' | 'expectItems' | 'expectStorage' }>;

const EXPECT_ACTIONS: ReadonlySet<PlanStep['action']> = new Set(['expectText', 'expectTitle', 'expectValue', 'expectUrl', 'expectState', 'expectCount', 'expectItems', 'expectStorage']);

export function isExpectation(step: PlanStep): step is ExpectStep {
  return EXPECT_ACTIONS.has(step.action);
}

export interface ExpectationTools {
  /** How long the expectation may take to hold. */
  timeoutMs: number;
  /** The one visible element a target means (the stored locator in a replay); throws a StepFailure otherwise. */
  find(target: Target): Promise<Locator>;
  /** The locator a replay stored for the step, if any. */
  stored?: ResolvedLocator;
  /** Told of the locator an expectation that does not use `find` checked (a hidden element the run saw before). */
  resolved?: (locator: ResolvedLocator | undefined, ran?: PlanStep) => void;
}

/** How many candidates a failure lists, and how alike a line of page text must be to count as near. */
const MAX_CANDIDATES = 5;
const NEAR_LINE = 0.3;

/** Holds the expectation or throws a StepFailure saying what the page shows instead. */
export async function checkExpectation(page: Page, step: ExpectStep, tools: ExpectationTools): Promise<void> {
  const timeout = tools.timeoutMs;
  switch (step.action) {
    case 'expectText': {
      // "either A or B": any one of the texts will do; a failure names them all.
      const text = step.orText === undefined ? step.text : [step.text, ...step.orText];
      if (step.target) return textOfElement(await tools.find(step.target), targetWords(step.target), text, timeout);
      return step.role ? textAmongRole(page, step.role, text, timeout) : textOnPage(page, text, timeout);
    }
    case 'expectTitle': {
      const seen = await poll(timeout, () => page.title(), (title) => contains(title, step.text));
      if (!seen.held) throw failed(`The title is "${oneLine(seen.last ?? '')}", which does not contain "${step.text}"`, step.text, [seen.last ?? '']);
      return;
    }
    case 'expectValue': {
      const field = await tools.find(step.target);
      const seen = await poll(timeout, () => valuesOf(field), (values) => values.includes(step.text));
      if (seen.held) return;
      // A password field's value is not repeated, only its length (secret values are scrubbed anyway).
      const secret = (await field.getAttribute('type').catch(() => null)) === 'password';
      const value = seen.last?.at(-1) ?? '';
      const shown = secret ? `(a password of ${value.length} characters)` : value;
      throw failed(`${targetWords(step.target)} holds ${secret ? shown : JSON.stringify(shown)}, expected ${JSON.stringify(step.text)}`, step.text, [shown]);
    }
    case 'expectUrl': {
      const named = step.page;
      // A named page is there when the URL says its guessed path or the page shows its name (title, text, or the label
      // of an input button, which innerText leaves out: a sign-in page's "Login").
      // Or each of its words is said by the address or a heading ("the order complete page": /checkout-complete and
      // "Thank you for your order!"; core/page-name-words.ts).
      const read = async () => ({
        url: page.url(),
        shows: named === undefined ? false : contains(`${await page.title()}\n${await page.locator('body').innerText()}\n${await inputButtonLabels(page)}`, named) || pageNamedByWords(named, page.url(), [await page.title(), ...(await page.getByRole('heading').filter({ visible: true }).allInnerTexts().catch(() => [] as string[]))]),
      });
      const reached = step.reached === undefined ? undefined : reachedAddress(page, step.reached);
      // A page said by how it was reached ("back on the product list", "its details page opens"): the address the
      // history says, checked at once beside the name (./page-history.ts), and compiled as the address found.
      const arrived = (at: string) => reached !== undefined && ('is' in reached ? at === reached.is : at !== reached.isNot && !at.startsWith('about:'));
      let byHistory: string | undefined;
      const seen = await poll(timeout, read, (at) => {
        if (at.url.includes(step.contains) || at.shows) return true;
        if (arrived(at.url)) byHistory = at.url;
        return byHistory !== undefined;
      });
      if (seen.held && step.reached !== undefined) {
        // Compiled without the history: the address found, or the name that held (a replay never loosens to history).
        const { reached: _reached, ...named } = step;
        const at = byHistory === undefined ? undefined : new URL(byHistory);
        const { page: _page, ...plain } = named;
        tools.resolved?.(undefined, at === undefined ? named : { ...plain, contains: `${at.pathname}${at.search}` });
        return;
      }
      if (!seen.held) {
        const where = named === undefined ? '' : ` and the page does not show "${named}"`;
        throw failed(`The URL is ${page.url()}, which does not contain "${step.contains}"${where}`, named ?? step.contains, [page.url()]);
      }
      return;
    }
    case 'expectState':
      return state(page, step, tools);
    case 'expectCount':
      return count(page, step, tools);
    case 'expectItems':
      return items(page, step, tools);
    case 'expectStorage': {
      const expectation = { texts: step.texts, ...(step.key === undefined ? {} : { key: step.key }), ...(step.count === undefined ? {} : { count: step.count }), ...(step.where === undefined ? {} : { where: step.where }) };
      const seen = await poll(timeout, () => readLocalStorage(page), (entries) => storageMatch(entries, expectation).held);
      if (seen.held) return;
      const verdict = storageMatch(seen.last ?? {}, expectation);
      throw failed(`The browser's local storage does not hold what was expected (${verdict.expected})`, verdict.expected, verdict.actual);
    }
  }
}

/**
 * What a field holds: its value, and for a select list also the text of the option chosen ("Option 2" of
 * `<option value="2">`), which is what a person sees and says. The generated source reads the same (selectedTexts).
 */
async function valuesOf(field: Locator): Promise<string[]> {
  const value = await field.inputValue();
  const chosen = await field.evaluate((node) => {
    // Runs in the page; the project compiles without the DOM library, so the select is typed by hand.
    const select = node as unknown as { tagName: string; selectedOptions?: ArrayLike<{ textContent: string | null }> };
    return select.tagName === 'SELECT' && select.selectedOptions !== undefined && select.selectedOptions.length > 0 ? (select.selectedOptions[0]!.textContent ?? '') : null;
  });
  return chosen === null ? [value] : [value, chosen.replace(/\s+/g, ' ').trim()];
}

/** The selector of buttons written as inputs, whose label is their value (the generated source uses the same). */
export const INPUT_BUTTONS = 'input[type="submit"], input[type="button"], input[type="reset"]';

/** The labels of the page's visible input buttons, one a line. */
async function inputButtonLabels(page: Page): Promise<string> {
  const values = await page.locator(INPUT_BUTTONS).filter({ visible: true }).evaluateAll((buttons) => buttons.map((button) => (button as unknown as { value: string }).value)).catch(() => []);
  return values.join('\n');
}

/** Every key of the page's local storage and its value (the generated source reads it the same way). */
async function readLocalStorage(page: Page): Promise<Record<string, string | null>> {
  return page.evaluate(() => {
    // Runs in the page; the project compiles without the DOM library, so the storage is typed by hand.
    const storage = (globalThis as unknown as { localStorage: { length: number; key(index: number): string | null; getItem(key: string): string | null } }).localStorage;
    const entries: Record<string, string | null> = {};
    for (let index = 0; index < storage.length; index += 1) {
      const key = storage.key(index);
      if (key !== null) entries[key] = storage.getItem(key);
    }
    return entries;
  });
}

/** A text expected, or several any one of which will do: `"A" or "B"` in messages. */
type Wanted = string | readonly string[];

function containsAny(shown: string, wanted: Wanted): boolean {
  return typeof wanted === 'string' ? contains(shown, wanted) : wanted.some((text) => contains(shown, text));
}

function wantedWords(wanted: Wanted): string {
  return typeof wanted === 'string' ? wanted : wanted.join('" or "');
}

/**
 * The element's rendered text, and its own text when that decides (src/core/text-case.ts: a mixed-case text must match
 * its case, and CSS can change the case shown): read only when the rendered text has the words in another case, so a
 * look is one call to the page, not two.
 */
async function textsOf(element: Locator, wanted: Wanted): Promise<{ shown: string; source: string }> {
  const shown = await element.innerText();
  const decides = typeof wanted === 'string' && contains(shown, wanted) && !holdsWithCase(shown, wanted);
  return { shown, source: decides ? ((await element.textContent()) ?? '') : '' };
}

function showsWanted(texts: { shown: string; source: string }, wanted: Wanted): boolean {
  if (typeof wanted !== 'string') return containsAny(texts.shown, wanted);
  return contains(texts.shown, wanted) && (holdsWithCase(texts.shown, wanted) || holdsWithCase(texts.source, wanted));
}

async function textOnPage(page: Page, wanted: Wanted, timeout: number): Promise<void> {
  const text = wantedWords(wanted);
  const seen = await poll(timeout, () => textsOf(page.locator('body'), wanted), (body) => showsWanted(body, wanted));
  if (seen.held) return;
  const near = nearestTexts(typeof wanted === 'string' ? wanted : wanted[0]!, linesOf(seen.last?.shown ?? ''), { max: MAX_CANDIDATES, threshold: NEAR_LINE });
  // Nothing on the page reads like it: its headings say where the run is.
  const actual = near.length > 0 ? near : nearestTexts(text, await visibleTexts(page.getByRole('heading')), { max: MAX_CANDIDATES });
  throw failed(`The page does not show "${text}"`, text, actual);
}

async function textOfElement(element: Locator, name: string, wanted: Wanted, timeout: number): Promise<void> {
  const text = wantedWords(wanted);
  const seen = await poll(timeout, () => textsOf(element, wanted), (shown) => showsWanted(shown, wanted));
  if (!seen.held) throw failed(`${name} shows "${oneLine(seen.last?.shown ?? '')}", which does not contain "${text}"`, text, [oneLine(seen.last?.shown ?? '')]);
}

/** "the heading says X": one of the page's elements of `role` shows X; with none of them at all, the target is absent. */
async function textAmongRole(page: Page, role: string, wanted: Wanted, timeout: number): Promise<void> {
  const text = wantedWords(wanted);
  const elements = page.getByRole(role as Parameters<Page['getByRole']>[0]);
  const read = async () => {
    const shown = elements.filter({ visible: true });
    const [inner, source] = await Promise.all([shown.allInnerTexts(), shown.allTextContents()]);
    return inner.map((text, index) => ({ shown: text, source: source[index] ?? '' }));
  };
  const seen = await poll(timeout, read, (texts) => texts.some((shown) => showsWanted(shown, wanted)));
  if (seen.held) return;
  const texts = (seen.last ?? []).map((shown) => oneLine(shown.shown)).filter((shown) => shown !== '');
  if (texts.length === 0) throw new StepFailure('step_unresolvable', `The page has no ${roleWord(role)} (looked for role ${role})`);
  const actual = nearestTexts(text, texts, { max: MAX_CANDIDATES });
  throw failed(`No ${roleWord(role)} shows "${text}"; the page's ${roleWord(role, 2)} show ${quotedList(actual)}`, text, actual);
}

type StateStep = Extract<PlanStep, { action: 'expectState' }>;

/**
 * The element the run found under that name earlier ("the counter" after "the bag counter shows 2"), else the one an
 * element noun names on the page now: once one counter is gone, another counter is not the one meant.
 */
async function elementOnceSeen(page: Page, target: Target): Promise<ResolvedLocator | undefined> {
  const before = rememberedFor(page, target.name);
  if (before !== undefined) return before;
  const now = await groundByHints(page, target, false);
  return now.found ? now.locator : undefined;
}

function neverSeen(target: Target): StepFailure {
  return new StepFailure('step_unresolvable', `${targetWords(target)} was never on the page in this run, so its being gone proves nothing; say what the page showed before (for example the element's name as the page shows it)`);
}

async function state(page: Page, step: StateStep, tools: ExpectationTools): Promise<void> {
  if (step.state === 'hidden') {
    // "The badge is gone": the element the page's hints name, or the one the run saw under that name before; a page
    // that never had it cannot pass by looking for it elsewhere (./hint-grounding.ts).
    const seen = tools.stored ?? (step.target.by === 'description' && namesElementNoun(step.target.name) ? await elementOnceSeen(page, step.target) : undefined);
    if (seen !== undefined) {
      tools.resolved?.(seen);
      const shown = await poll(tools.timeoutMs, () => locatorOf(page, seen).filter({ visible: true }).count(), (count) => count === 0);
      if (!shown.held) throw failed(`${targetWords(step.target)} is visible, expected hidden`, 'hidden', ['visible']);
      return;
    }
    // Never found under that name in this run: that it is not there now proves nothing (./gone-anchors.ts).
    if (step.target.by === 'description' && namesElementNoun(step.target.name)) throw neverSeen(step.target);
    // Hidden means no visible match at all, looked up afresh: several visible matches are as visible as one.
    const resolution = await resolveTarget(page, step.action, step.target, Math.min(tools.timeoutMs, 1_000));
    if (resolution.found || resolution.reason === 'several') throw failed(`${targetWords(step.target)} is visible, expected hidden`, 'hidden', ['visible']);
    if (!seenBeforeGone(page, step.target)) throw neverSeen(step.target);
    return;
  }
  const locators = tools.stored ? [tools.stored] : candidatesFor(step.action, step.target);
  let element: Locator;
  try {
    element = await tools.find(step.target);
  } catch (error) {
    // A text that showed only briefly after the step before acted, and was seen then (./appearing-texts.ts).
    if (await appearedBriefly(page, step, tools)) return;
    if (step.state === 'visible' && error instanceof StepFailure && error.kind === 'step_unresolvable') await notVisible(page, step.target, locators);
    throw error;
  }
  const observe = async (): Promise<string> => {
    switch (step.state) {
      case 'visible':
        return (await element.isVisible()) ? 'visible' : 'hidden';
      case 'enabled':
      case 'disabled':
        return (await element.isEnabled()) ? 'enabled' : 'disabled';
      case 'checked':
      case 'unchecked':
        return (await element.isChecked()) ? 'checked' : 'unchecked';
      case 'selected':
      case 'unselected':
        return (await isSelected(element)) ? 'selected' : 'unselected';
      case 'focused':
        return (await isFocused(element)) ? 'focused' : 'not focused';
      case 'valid':
      case 'invalid':
        return element.evaluate((node) => {
          // Runs in the page; the project compiles without the DOM library, so the field is typed by hand.
          const field = node as unknown as { checkValidity?: () => boolean; validationMessage?: string };
          const valid = (typeof field.checkValidity === 'function' ? field.checkValidity() : true) && node.getAttribute('aria-invalid') !== 'true';
          return valid ? 'valid' : field.validationMessage ? `invalid: ${field.validationMessage}` : 'invalid';
        });
      default:
        return 'unknown';
    }
  };
  const seen = await poll(tools.timeoutMs, observe, (observed) => observed === step.state || observed.startsWith(`${step.state}:`));
  // Found while it showed, then gone before it was looked at: seen by the watch all the same.
  if (!seen.held && (await appearedBriefly(page, step, tools))) return;
  if (!seen.held) throw failed(`${targetWords(step.target)} is not ${step.state}`, step.state, [seen.last ?? 'unknown']);
}

async function appearedBriefly(page: Page, step: StateStep, tools: ExpectationTools): Promise<boolean> {
  if (step.state !== 'visible' || step.target.by !== 'text' || step.target.within !== undefined || !(await appeared(page, step.target.name))) return false;
  tools.resolved?.(tools.stored ?? { strategy: 'text', name: step.target.name, exact: step.target.exact });
  return true;
}

/**
 * Selected among its siblings (src/core/selected-state.ts), read by Playwright's own selector engine and attribute
 * calls (its isolated world), not by a script in the page's: `:checked` is a checked radio or checkbox, or a
 * selected option.
 */
async function isSelected(element: Locator): Promise<boolean> {
  const [ariaSelected, ariaCurrent, ariaPressed, className, checked] = await Promise.all([
    element.getAttribute('aria-selected'),
    element.getAttribute('aria-current'),
    element.getAttribute('aria-pressed'),
    element.getAttribute('class'),
    element.and(element.page().locator(':checked')).count(),
  ]);
  return isSelectedBy({ ariaSelected, ariaCurrent, ariaPressed, className, checked: checked > 0 });
}

/** It has the keyboard focus: it is its document's active element (`:focus`, as Playwright's `toBeFocused`). */
async function isFocused(element: Locator): Promise<boolean> {
  return (await element.and(element.page().locator(':focus')).count()) > 0;
}

/** How a message names a target: its name, or its kind and where it is when it has no name of its own. */
function targetWords(target: Target): string {
  if (target.name !== '') return JSON.stringify(target.name);
  const kind = roleWord(target.role ?? 'element');
  const where = target.within ? ` in "${target.within.text}"` : '';
  return target.nth === undefined ? `the ${kind}${where}` : `the ${target.nth === -1 ? 'last' : ordinal(target.nth)} ${kind}${where}`;
}

/**
 * A target expected to be visible that nothing matches: when the page has elements of its kind (other headings,
 * other buttons, text like it), the expectation failed and they are what the page shows instead; with none, the
 * target is absent and the runner's `step_unresolvable` stands. Several matches (ambiguous, not absent) also leave it.
 */
async function notVisible(page: Page, target: Target, locators: readonly ResolvedLocator[]): Promise<void> {
  if (target.name === '') return; // nothing to say "nearest" to
  if ((await firstVisibleCount(page, locators).catch(() => 0)) > 0) return;
  const role = target.by === 'role' ? target.role : locators.length === 1 && locators[0]!.strategy === 'role' ? locators[0]!.role : undefined;
  if (role) {
    const actual = nearestTexts(target.name, await visibleTexts(page.getByRole(role as Parameters<Page['getByRole']>[0])), { max: MAX_CANDIDATES });
    if (actual.length === 0) return;
    throw failed(`No ${roleWord(role)} "${target.name}" is visible; the page's ${roleWord(role, 2)} show ${quotedList(actual)}`, target.name, actual);
  }
  if (target.by === 'text') {
    const actual = nearestTexts(target.name, linesOf(await page.locator('body').innerText().catch(() => '')), { max: MAX_CANDIDATES, threshold: NEAR_LINE });
    throw failed(`The page does not show "${target.name}"${actual.length > 0 ? `; nearest: ${quotedList(actual)}` : ''}`, target.name, actual);
  }
}

type CountStep = Extract<PlanStep, { action: 'expectCount' }>;

async function count(page: Page, step: CountStep, tools: ExpectationTools): Promise<void> {
  if (step.itemRole !== undefined) {
    // "6 products" on a page that shows them as cards, not list items: the repeated cards (./card-grounding.ts).
    const cards = await cardsInstead(page, step, tools);
    if (cards !== undefined) {
      tools.resolved?.(cards, { action: 'expectCount', description: step.description, target: step.target, count: step.count, ...(step.criterion === undefined ? {} : { criterion: step.criterion }) });
      return count(page, { ...step, itemRole: undefined }, { ...tools, stored: cards });
    }
    // A container ("the Plans list") and the items in it ("3 list items").
    const container = await tools.find(step.target);
    const items = container.getByRole(step.itemRole as Parameters<Page['getByRole']>[0]).filter({ visible: true });
    const seen = await poll(tools.timeoutMs, () => items.count(), (found) => found === step.count);
    if (seen.held) return;
    const found = seen.last ?? 0;
    const texts = await items.allInnerTexts().catch(() => []);
    const firstLines = texts.map((text) => oneLine(text.split('\n')[0] ?? '', 40));
    throw failed(`Expected ${step.count} ${step.itemRole} item(s) in ${targetWords(step.target)}, found ${found}`, counted(step.count, step.itemRole), [
      `${counted(found, step.itemRole)}${texts.length > 0 ? `: ${quotedList(firstLines)}` : ''}`,
    ]);
  }
  const locators = tools.stored ? [tools.stored] : candidatesFor(step.action, step.target);
  const seen = await poll(tools.timeoutMs, () => firstVisibleCount(page, locators), (found) => found === step.count);
  if (seen.held) return;
  const what = `match${step.count === 1 ? '' : 'es'} of ${targetWords(step.target)}`;
  const found = seen.last ?? 0;
  throw failed(`Expected ${step.count} of ${targetWords(step.target)}, found ${found}`, `${step.count} ${what}`, [`${found} match${found === 1 ? '' : 'es'}`]);
}

/**
 * The cards a count of products, items or results means, when the list the plan names is not there or holds no list
 * items; undefined otherwise (and in a replay, which stored what it counts).
 */
async function cardsInstead(page: Page, step: CountStep, tools: ExpectationTools): Promise<ResolvedLocator | undefined> {
  if (tools.stored !== undefined || step.itemRole !== 'listitem' || step.target.role !== 'list' || !CARD_NOUNS.test(step.target.name.trim())) return undefined;
  const listed = await page
    .getByRole('list', { name: step.target.name })
    .getByRole('listitem')
    .filter({ visible: true })
    .count()
    .catch(() => 0);
  if (listed > 0) return undefined;
  return groundCards(page, step.target.name);
}

type ItemsStep = Extract<PlanStep, { action: 'expectItems' }>;

/** The item lines a failure lists at most (a finding keeps fewer: boundedComparison). */
const MAX_ITEM_LINES = 50;

/**
 * The visible items of `itemRole` in the target (or on the page) show the texts, each in an item of its own
 * (src/core/list-items.ts), in order and with no other item when the step says so. Polled: a list may still load.
 */
async function items(page: Page, step: ItemsStep, tools: ExpectationTools): Promise<void> {
  const container = step.target ? await tools.find(step.target) : page;
  const elements = container.getByRole(step.itemRole as Parameters<Page['getByRole']>[0]).filter({ visible: true });
  const options = { only: step.only, ordered: step.ordered };
  const seen = await poll(tools.timeoutMs, () => elements.allInnerTexts(), (texts) => itemsMatch(step.texts, texts, options));
  if (seen.held) return;
  const shown = seen.last ?? [];
  const where = step.target ? ` in ${targetWords(step.target)}` : '';
  const why = shown.length === 0 ? `no ${roleWord(step.itemRole)} is shown` : itemsMismatch(step.texts, shown, options);
  const expected = `${quotedList(step.texts, step.texts.length)}${step.only ? ', only these' : ''}${step.ordered ? ', in this order' : ''}`;
  throw failed(
    `The ${roleWord(step.itemRole, 2)}${where} do not show ${expected}: ${why ?? 'they changed while read'}`,
    expected,
    shown.slice(0, MAX_ITEM_LINES).map((text) => oneLine(text.split('\n')[0] ?? '')),
  );
}

/** The visible count of the first of `locators` that matches any (the most specific way of naming it first). */
async function firstVisibleCount(page: Page, locators: readonly ResolvedLocator[]): Promise<number> {
  for (const locator of locators) {
    const found = await locatorOf(page, locator).filter({ visible: true }).count();
    if (found > 0) return found;
  }
  return 0;
}

async function visibleTexts(elements: Locator): Promise<string[]> {
  return (await elements.filter({ visible: true }).allInnerTexts()).map((text) => oneLine(text)).filter((text) => text !== '');
}

function contains(shown: string, wanted: string): boolean {
  return normalizedText(shown).includes(normalizedText(wanted));
}

function failed(message: string, expected: string, actual: string[]): StepFailure {
  const comparison: Comparison = { expected, actual };
  return new StepFailure('assertion_failed', message, comparison);
}

/** Polls `read` until `holds` accepts what it read or the time is up; a read that throws (the page navigated) is retried. */
async function poll<T>(timeoutMs: number, read: () => Promise<T>, holds: (value: T) => boolean): Promise<{ held: true } | { held: false; last: T | undefined }> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    try {
      last = await read();
      if (holds(last)) return { held: true };
    } catch {
      // The page navigated mid-read: look again.
    }
    if (Date.now() >= deadline) return { held: false, last };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const ROLE_WORDS: Readonly<Record<string, [string, string]>> = {
  heading: ['heading', 'headings'],
  button: ['button', 'buttons'],
  link: ['link', 'links'],
  listitem: ['item', 'items'],
  img: ['image', 'images'],
  menuitem: ['menu item', 'menu items'],
  textbox: ['text field', 'text fields'],
  checkbox: ['checkbox', 'checkboxes'],
};

function roleWord(role: string, howMany = 1): string {
  const [one, many] = ROLE_WORDS[role] ?? [role, `${role}s`];
  return howMany === 1 ? one : many;
}

/** `3 items`, `1 heading`. */
function counted(howMany: number, role: string): string {
  return `${howMany} ${roleWord(role, howMany)}`;
}

/** `"A", "B" and 3 more`: a failure message's short list. */
function quotedList(texts: readonly string[], max = MAX_CANDIDATES): string {
  const shown = texts.slice(0, max).map((text) => JSON.stringify(text));
  return texts.length > max ? `${shown.join(', ')} and ${texts.length - max} more` : shown.join(', ');
}
