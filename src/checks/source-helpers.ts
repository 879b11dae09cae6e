/**
 * The small functions a generated test file defines for itself, so that it needs nothing but `@playwright/test`.
 * Each one repeats what `src/browser/step-runner.ts` does at replay, so the file and the replay mean the same.
 * A generated file holds only the helpers its steps use, always in this order (the output is deterministic).
 *
 * The texts are raw strings: they contain no template literals or `${`, so they need no escaping here. Their
 * failures are plain `Error`s: the file runs under `npx playwright test` with none of the service's modules, so the
 * error catalogue (src/core/error-codes.ts) is not there to throw from.
 */
import { SELECTED_CLASSES } from '../core/selected-state.js';

export type HelperName =
  | 'visible'
  | 'settle'
  | 'goInHistory'
  | 'selectOption'
  | 'urlContaining'
  | 'textPattern'
  | 'pageNamedByWords'
  | 'anyTextPattern'
  | 'isValid'
  | 'isSelected'
  | 'selectedTexts'
  | 'visibleCount'
  | 'itemsMatch'
  | 'expectItems'
  | 'storageMatch'
  | 'expectStorage'
  | 'answerDialogs'
  | 'requireEnv'
  | 'fromEnv'
  | 'expectProbe';

interface Helper {
  /** Helpers its text calls. */
  uses: readonly HelperName[];
  text: string;
}

export const HELPERS: Readonly<Record<HelperName, Helper>> = {
  visible: {
    uses: [],
    text: String.raw`
/**
 * The visible elements a locator matches. The recorded run acted on the one visible match of each target, so a
 * hidden duplicate (a collapsed menu, say) does not count, and two visible matches fail (Playwright's strict mode).
 */
function visible(locator: Locator): Locator {
  return locator.filter({ visible: true });
}`,
  },
  settle: {
    uses: [],
    text: String.raw`
/** After a click or key press that may navigate: waits (at most 5 s) for the page to load, as the recorded run did. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('load', { timeout: 5_000 }).catch(() => undefined);
}`,
  },
  goInHistory: {
    uses: [],
    text: String.raw`
/**
 * Back or forward one page, waiting for it to load as the recorded run did. With no page there, nothing changes
 * (no response, the same URL): that fails, as it failed the run.
 */
async function goInHistory(page: Page, direction: 'back' | 'forward'): Promise<void> {
  const before = page.url();
  const options = { waitUntil: 'load' as const, timeout: STEP_TIMEOUT_MS };
  const response = direction === 'back' ? await page.goBack(options) : await page.goForward(options);
  if (response === null && page.url() === before) {
    throw new Error('Could not go ' + direction + ': there is no page ' + (direction === 'back' ? 'before ' : 'after ') + before + " in this tab's history");
  }
}`,
  },
  selectOption: {
    uses: [],
    text: String.raw`
/** Selects the option with this label, or else the one with this value, as the recorded run did. */
async function selectOption(field: Locator, wanted: string): Promise<void> {
  await field
    .selectOption({ label: wanted }, { timeout: STEP_TIMEOUT_MS })
    .catch(() => field.selectOption(wanted, { timeout: STEP_TIMEOUT_MS }));
}`,
  },
  urlContaining: {
    uses: [],
    text: String.raw`
/** Matches a URL that contains text (the recorded run checked that the URL includes it). */
function urlContaining(text: string): RegExp {
  return new RegExp(text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&'));
}`,
  },
  textPattern: {
    uses: [],
    text: String.raw`
/** Matches a text that contains this one, ignoring case and how white space runs (as the recorded run compared). */
function textPattern(text: string): RegExp {
  const words = text.trim().split(/\s+/).map((word) => word.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&'));
  return new RegExp(words.join('\\s+'), 'i');
}`,
  },
  pageNamedByWords: {
    uses: [],
    text: String.raw`
/** Each word of a page's name (two at least) is a word of the URL's path, the title or a heading (core/page-name-words.ts). */
function pageNamedByWords(name: string, url: string, headings: string[]): boolean {
  const notNaming = new Set(['the', 'a', 'an', 'page', 'screen', 'view', 'step', 'tab', 'form', 'of', 'for', 'and', 'my', 'your', 'our']);
  const wordsOf = (text: string) => text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '').map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word));
  const wanted = [...new Set(wordsOf(name).filter((word) => !notNaming.has(word)))];
  if (wanted.length < 2) return false;
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // A relative or odd address: its words as written.
  }
  const have = new Set([...wordsOf(path), ...headings.flatMap(wordsOf)]);
  return wanted.every((word) => have.has(word));
}`,
  },
  anyTextPattern: {
    uses: ['textPattern'],
    text: String.raw`
/** Matches a text that contains any one of these (see textPattern): "either A or B". */
function anyTextPattern(texts: string[]): RegExp {
  return new RegExp(texts.map((text) => textPattern(text).source).join('|'), 'i');
}`,
  },
  isValid: {
    uses: [],
    text: String.raw`
/** Whether a field passes its own validation: constraint validation, and no aria-invalid="true". */
async function isValid(field: Locator): Promise<boolean> {
  return field.evaluate((element) => {
    const control = element as unknown as { checkValidity?: () => boolean; getAttribute(name: string): string | null };
    return control.checkValidity?.() !== false && control.getAttribute('aria-invalid') !== 'true';
  });
}`,
  },
  selectedTexts: {
    uses: [],
    text: String.raw`
/** What a field holds, as the recorded run read it: its value, and for a select list the text of the option chosen. */
async function selectedTexts(field: Locator): Promise<string[]> {
  const value = await field.inputValue();
  const chosen = await field.evaluate((node) => (node instanceof HTMLSelectElement && node.selectedOptions.length > 0 ? node.selectedOptions[0]!.textContent ?? '' : null));
  return chosen === null ? [value] : [value, chosen.replace(/\s+/g, ' ').trim()];
}`,
  },
  isSelected: {
    uses: [],
    text: String.raw`
/**
 * Whether an element is the selected one among its siblings, read as the recorded run read it: aria-selected or
 * aria-pressed "true", aria-current other than "false", a checked radio or checkbox or a selected option
 * (:checked), or a class that says so.
 */
async function isSelected(element: Locator): Promise<boolean> {
  const [ariaSelected, ariaCurrent, ariaPressed, className, checked] = await Promise.all([
    element.getAttribute('aria-selected'),
    element.getAttribute('aria-current'),
    element.getAttribute('aria-pressed'),
    element.getAttribute('class'),
    element.and(element.page().locator(':checked')).count(),
  ]);
  if (ariaSelected === 'true' || ariaPressed === 'true' || checked > 0) return true;
  if (ariaCurrent !== null && ariaCurrent !== 'false') return true;
  return (className ?? '').split(/\s+/).some((name) => SELECTED_CLASSES.includes(name));
}`
      // The class names as the runner has them (src/core/selected-state.ts), single-quoted like the rest of the text.
      .replace('\n/**', `\nconst SELECTED_CLASSES = [${SELECTED_CLASSES.map((name) => `'${name}'`).join(', ')}];\n\n/**`),
  },
  visibleCount: {
    uses: ['visible'],
    text: String.raw`
/**
 * How many visible elements the first of these locators that matches any finds: the recorded run counted a target
 * it had not resolved to one element this way (the most specific way of naming it first).
 */
async function visibleCount(locators: Locator[]): Promise<number> {
  for (const locator of locators) {
    const count = await visible(locator).count();
    if (count > 0) return count;
  }
  return 0;
}`,
  },
  itemsMatch: {
    uses: [],
    text: String.raw`
/**
 * Whether the items show the expected texts as the recorded run matched them: each text contained (case and white
 * space aside) by an item of its own; in order, each text in the first item after the previous one's that has it;
 * with only, no item left over.
 */
function itemsMatch(expected: string[], items: string[], options: { only: boolean; ordered: boolean }): boolean {
  const normalized = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
  const wanted = expected.map(normalized);
  const shown = items.map(normalized);
  if (options.only && shown.length !== wanted.length) return false;
  if (options.ordered) {
    let next = 0;
    for (const text of wanted) {
      while (next < shown.length && !(shown[next] ?? '').includes(text)) next += 1;
      if (next >= shown.length) return false;
      next += 1;
    }
    return true;
  }
  // Each text its own item: a maximum matching, so a text that fits several items leaves the others free.
  const owner = shown.map(() => -1);
  const place = (text: number, seen: boolean[]): boolean => {
    for (let item = 0; item < shown.length; item++) {
      if (seen[item] || !(shown[item] ?? '').includes(wanted[text] ?? '')) continue;
      seen[item] = true;
      const previous = owner[item] ?? -1;
      if (previous === -1 || place(previous, seen)) {
        owner[item] = text;
        return true;
      }
    }
    return false;
  };
  return wanted.every((_, text) => place(text, shown.map(() => false)));
}`,
  },
  expectItems: {
    uses: ['itemsMatch'],
    text: String.raw`
/**
 * Expects the items to show the texts (see itemsMatch), polling as the recorded run did. A failure shows the
 * expected texts against the first line of each item shown.
 */
async function expectItems(items: Locator, texts: string[], options: { only: boolean; ordered: boolean }): Promise<void> {
  const how = (options.only ? ', only these' : '') + (options.ordered ? ', in this order' : '');
  await expect
    .poll(
      async () => {
        const shown = await items.allInnerTexts();
        return itemsMatch(texts, shown, options) ? texts : shown.map((text) => (text.split('\n')[0] ?? '').replace(/\s+/g, ' ').trim());
      },
      { message: 'The items show ' + JSON.stringify(texts) + how, timeout: STEP_TIMEOUT_MS },
    )
    .toEqual(texts);
}`,
  },
  storageMatch: {
    uses: [],
    text: String.raw`
/**
 * Whether local storage holds what the recorded run checked (src/core/storage-check.ts): each text a stored string
 * (inside a JSON value, or contained in a value that is not JSON), and the one stored list with that many entries.
 */
function storageMatch(entries: Record<string, string | null>, expected: { key?: string; texts: string[]; count?: number; where?: string }): boolean {
  const parse = (raw: string | null): unknown => {
    if (raw === null) return undefined;
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return undefined;
    }
  };
  const leaves = (value: unknown): string[] =>
    typeof value === 'string' ? [value] : Array.isArray(value) ? value.flatMap(leaves) : typeof value === 'object' && value !== null ? Object.values(value).flatMap(leaves) : [];
  const keys = expected.key === undefined ? Object.keys(entries).sort() : [expected.key];
  const parsed = keys.map((key) => ({ raw: entries[key] ?? null, value: parse(entries[key] ?? null) }));
  const strings = parsed.flatMap((entry) => (entry.value === undefined ? [] : leaves(entry.value)));
  const stored = (text: string) => strings.includes(text) || parsed.some((entry) => entry.value === undefined && entry.raw !== null && entry.raw.includes(text));
  if (!expected.texts.every(stored)) return false;
  if (expected.count === undefined) return true;
  const lists = parsed.filter((entry) => Array.isArray(entry.value)).map((entry) => entry.value as unknown[]);
  if (lists.length !== 1) return false;
  const where = expected.where;
  const counted = where === undefined ? lists[0]!.length : lists[0]!.filter((item) => typeof item === 'object' && item !== null && Boolean((item as Record<string, unknown>)[where])).length;
  return counted === expected.count;
}`,
  },
  expectStorage: {
    uses: ['storageMatch'],
    text: String.raw`
/** Expects the page's local storage to hold what the recorded run checked, polling as it did. */
async function expectStorage(page: Page, expected: { key?: string; texts: string[]; count?: number; where?: string }): Promise<void> {
  await expect
    .poll(
      async () => {
        const entries = await page.evaluate(() => {
          // Typed by hand: a project may compile without the DOM library.
          const storage = (globalThis as unknown as { localStorage: { length: number; key(index: number): string | null; getItem(key: string): string | null } }).localStorage;
          const all: Record<string, string | null> = {};
          for (let index = 0; index < storage.length; index += 1) {
            const key = storage.key(index);
            if (key !== null) all[key] = storage.getItem(key);
          }
          return all;
        });
        return storageMatch(entries, expected) ? 'held' : entries;
      },
      { message: 'Local storage holds ' + JSON.stringify(expected), timeout: STEP_TIMEOUT_MS },
    )
    .toEqual('held');
}`,
  },
  answerDialogs: {
    uses: [],
    text: String.raw`
/** How the recorded run answered a dialog: OK (with the text typed into a prompt) or Cancel. */
interface DialogAnswer {
  accept: boolean;
  promptText?: string;
}

/**
 * Answers the page's JavaScript dialogs as the recorded run did (src/browser/dialogs.ts): those the next step opens
 * as the check says, as they open, so the action that opens one does not stall; any other is dismissed and kept in
 * unexpected (a leave-page dialog nobody expects is accepted, as Playwright does).
 */
function answerDialogs(page: Page) {
  let armed: DialogAnswer[] = [];
  const opened: string[] = [];
  const unexpected: string[] = [];
  page.on('dialog', (dialog) => {
    const leaving = dialog.type() === 'beforeunload';
    const answer = leaving && armed.length === 0 ? undefined : armed.shift();
    if (answer === undefined && leaving) {
      dialog.accept().catch(() => undefined);
    } else if (answer === undefined) {
      unexpected.push(dialog.type() + ' saying ' + JSON.stringify(dialog.message()));
      dialog.dismiss().catch(() => undefined);
    } else {
      opened.push(dialog.message());
      (answer.accept ? dialog.accept(answer.promptText ?? dialog.defaultValue()) : dialog.dismiss()).catch(() => undefined);
    }
  });
  const normalized = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
  return {
    unexpected,
    /** The dialogs the next step opens, in order. */
    expectFromNextStep(answers: DialogAnswer[]): void {
      armed = [...answers];
      opened.length = 0;
    },
    /** The next of those opened (waiting as long as a step may) and its message contains the text, if one is given. */
    async opened(text?: string): Promise<void> {
      await expect.poll(() => opened.length, { message: 'A dialog opens', timeout: STEP_TIMEOUT_MS }).toBeGreaterThan(0);
      const message = opened.shift() ?? '';
      if (text !== undefined) expect(normalized(message), 'The dialog says ' + JSON.stringify(message)).toContain(normalized(text));
    },
  };
}`,
  },
  requireEnv: {
    uses: [],
    text: String.raw`
/** Fails before the first step, naming every variable that is missing, so a run never stops halfway for one. */
function requireEnv(names: string[]): void {
  const missing = names.filter((name) => !process.env[name]);
  if (missing.length > 0) {
    throw new Error('Set the environment variable(s) ' + missing.join(', ') + ': this check reads its test values from them.');
  }
}`,
  },
  fromEnv: {
    uses: [],
    text: String.raw`
/** A test value from the environment variable that holds it (the file names variables, never values). */
function fromEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error('Set the environment variable ' + name + ': this check reads a test value from it.');
  return value;
}`,
  },
  expectProbe: {
    uses: ['fromEnv'],
    text: String.raw`
/**
 * Calls the evidence probe of a success criterion and expects it to pass: an HTTPS GET of the URL in urlEnv with
 * the bearer token in tokenEnv, no redirects, a 10 s deadline, and an answer {"passed": boolean, "evidence": string}.
 * Messages name the variables, never the URL or the token. A private CA: NODE_EXTRA_CA_CERTS=<its PEM file>.
 */
async function expectProbe(criterion: string, urlEnv: string, tokenEnv: string): Promise<void> {
  const what = 'The evidence probe of ' + criterion + ' (' + urlEnv + ')';
  const url = new URL(fromEnv(urlEnv));
  if (url.protocol !== 'https:') throw new Error(what + ' must be an https URL');
  let status: number;
  let body: string;
  try {
    const response = await fetch(url, {
      headers: { authorization: 'Bearer ' + fromEnv(tokenEnv), accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    status = response.status;
    body = await response.text();
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    throw new Error(what + ' could not be called: ' + cause);
  }
  if (status !== 200) throw new Error(what + ' answered HTTP ' + status + (status >= 300 && status < 400 ? ' (probes must not redirect)' : ''));
  if (body.length > MAX_PROBE_RESPONSE_CHARS) throw new Error(what + ' answered more than ' + MAX_PROBE_RESPONSE_CHARS + ' characters');
  let answer: { passed?: unknown; evidence?: unknown } | undefined;
  try {
    answer = JSON.parse(body) as { passed?: unknown; evidence?: unknown } | undefined;
  } catch {
    answer = undefined; // not JSON: answered below as not the probe's shape
  }
  if (typeof answer?.passed !== 'boolean' || typeof answer.evidence !== 'string') {
    throw new Error(what + ' must answer {"passed": boolean, "evidence": string}');
  }
  expect(answer.passed, 'Evidence probe of ' + criterion + ': ' + answer.evidence).toBe(true);
}`,
  },
};

/** The helpers `wanted` need, with what they call, in HELPERS' order. */
export function helpersFor(wanted: Iterable<HelperName>): HelperName[] {
  const needed = new Set<HelperName>();
  const add = (name: HelperName) => {
    if (needed.has(name)) return;
    needed.add(name);
    HELPERS[name].uses.forEach(add);
  };
  for (const name of wanted) add(name);
  return (Object.keys(HELPERS) as HelperName[]).filter((name) => needed.has(name));
}
