import type { Locator, Page } from 'playwright';
import type { ResolvedLocator } from '../core/check.js';
import { chooseSignInSubmit, type SubmitCandidate, type SubmitPage } from '../core/sign-in-submit.js';
import { roleAndNameOf } from './aria-name.js';
import { locatorOf, type Resolution } from './locate.js';

/** How long several equally good controls may persist before the choice counts as ambiguous (as in locate.ts). */
const AMBIGUITY_SETTLE_MS = 750;
const POLL_MS = 100;

/** What a failed resolution says it looked for: the usual names of the control (the choice is by purpose). */
const LOOKED_FOR: ResolvedLocator[] = ['Sign in', 'Log in', 'Login', 'Sign on', 'Continue', 'Submit', 'Next'].map((name) => ({ strategy: 'role', role: 'button', name, exact: false }));

/**
 * Finds the control that submits the page's sign-in (src/core/sign-in-submit.ts says which), and the locator a
 * replay and the generated test use for it: the button by its exact name, or by its exact name inside the form that
 * holds the password field when the name alone also matches another visible button. The recorded locator is
 * checked to match the chosen element and nothing else; when no such locator exists the step is unresolvable.
 */
export async function resolveSignInSubmit(page: Page, timeoutMs: number): Promise<Resolution> {
  const buttons = page.getByRole('button').filter({ visible: true });
  const deadline = Date.now() + timeoutMs;
  let severalSince: number | undefined;
  let most = 0;
  for (;;) {
    const described = await describeButtons(buttons);
    const choice = described === undefined ? undefined : chooseSignInSubmit(described);
    // The chosen control's name also names other buttons, even inside the password's form: no locator replays it.
    let unnameable = 0;
    if (choice?.found === true) {
      const chosen = buttons.nth(choice.index);
      const candidate = described!.candidates[choice.index]!;
      const inForm = candidate.form === 'password';
      let named = await uniqueLocator(page, chosen, candidate.name, inForm);
      if ('matches' in named) {
        // The page's text is not always the accessible name ("Sign in <span aria-hidden>→</span>"): ask Playwright's.
        const name = await accessibleName(chosen);
        if (name !== candidate.name) named = await uniqueLocator(page, chosen, name, inForm);
      }
      if (!('matches' in named)) return { found: true, locator: named, element: chosen };
      unnameable = named.matches;
    }
    const several = unnameable > 1 || (choice !== undefined && !choice.found && choice.reason === 'several');
    if (several) most = Math.max(most, unnameable, choice !== undefined && !choice.found ? choice.matches : 0);
    const now = Date.now();
    if (several) severalSince ??= now;
    else severalSince = undefined;
    if (severalSince !== undefined && now - severalSince >= AMBIGUITY_SETTLE_MS) return { found: false, reason: 'several', matches: most, tried: LOOKED_FOR };
    if (now >= deadline) return several ? { found: false, reason: 'several', matches: most, tried: LOOKED_FOR } : { found: false, reason: 'none', matches: 0, tried: LOOKED_FOR };
    await page.waitForTimeout(POLL_MS);
  }
}

/**
 * A locator that matches the chosen button and no other visible element, if its name gives one; else how many
 * visible buttons the narrowest locator tried matches (0 when the page changed meanwhile or the button has no name).
 */
async function uniqueLocator(page: Page, chosen: Locator, name: string, inPasswordForm: boolean): Promise<ResolvedLocator | { matches: number }> {
  if (name === '' || name.length > 300) return { matches: 0 };
  const plain: ResolvedLocator = { strategy: 'role', role: 'button', name, exact: true };
  const options: ResolvedLocator[] = inPasswordForm ? [plain, { ...plain, within: 'passwordForm' }] : [plain];
  let matches = 0;
  for (const option of options) {
    try {
      const found = locatorOf(page, option).filter({ visible: true });
      matches = await found.count();
      if (matches === 1 && (await found.and(chosen).count()) === 1) return option;
    } catch {
      return { matches: 0 }; // the page navigated meanwhile: the next poll looks again
    }
  }
  return { matches };
}

/** A button's accessible name as Playwright computes it for getByRole (its aria snapshot's first line). */
async function accessibleName(button: Locator): Promise<string> {
  const read = roleAndNameOf(await button.ariaSnapshot({ timeout: 1_000 }).catch(() => ''));
  return read?.role === 'button' ? read.name : '';
}

/** The page's visible buttons as the choice needs them; undefined when the page navigated while they were read. */
async function describeButtons(buttons: Locator): Promise<SubmitPage | undefined> {
  try {
    return await buttons.evaluateAll(describeInPage);
  } catch {
    return undefined;
  }
}

/** The few DOM members the page function reads (the project compiles without the DOM library). */
interface PageElement {
  tagName: string;
  type?: string;
  value?: string;
  form?: PageElement | null;
  textContent: string | null;
  getAttribute(name: string): string | null;
  closest(selector: string): PageElement | null;
  getClientRects(): { length: number };
  ownerDocument: { getElementById(id: string): PageElement | null; querySelectorAll(selector: string): Iterable<PageElement> };
}

/**
 * Runs in the page: each button's name, whether it submits, and whether its form is the one with the password. No
 * named inner functions: esbuild (tsx, which runs `qa` from source) wraps those in a `__name` helper the page does
 * not have, and the evaluation would fail in the real process while passing under Jest (chat-faults found it).
 */
function describeInPage(elements: PageElement[]): SubmitPage {
  const document = elements[0]?.ownerDocument;
  const passwords = document === undefined ? [] : Array.from(document.querySelectorAll('input[type="password"]')).filter((field) => field.getClientRects().length > 0);
  // Several forms with a password field (sign-in and sign-up on one page): the one the run filled is the sign-in.
  const filledForms: PageElement[] = [];
  const allForms: PageElement[] = [];
  for (const field of passwords) {
    const form = field.form !== undefined ? field.form : field.closest('form');
    if (form === null) continue;
    allForms.push(form);
    if ((field.value ?? '') !== '') filledForms.push(form);
  }
  const passwordForms = new Set(filledForms.length > 0 ? filledForms : allForms);
  const candidates: SubmitCandidate[] = [];
  for (const element of elements) {
    const form = element.form !== undefined ? element.form : element.closest('form');
    const type = (element.type ?? '').toLowerCase();
    const submits = form !== null && ((element.tagName === 'BUTTON' && type === 'submit') || (element.tagName === 'INPUT' && (type === 'submit' || type === 'image')));
    // The accessible name as far as these attributes give it: aria-labelledby, aria-label, an input's value, the text.
    let name = '';
    const labelledBy = (element.getAttribute('aria-labelledby') ?? '').replace(/\s+/g, ' ').trim();
    if (labelledBy !== '') {
      name = labelledBy.split(' ').map((id) => element.ownerDocument.getElementById(id)?.textContent ?? '').join(' ').replace(/\s+/g, ' ').trim();
    }
    if (name === '') name = (element.getAttribute('aria-label') ?? '').replace(/\s+/g, ' ').trim();
    if (name === '' && element.tagName === 'INPUT') {
      const value = (element.value ?? '').replace(/\s+/g, ' ').trim();
      name = value !== '' ? value : type === 'submit' ? 'Submit' : type === 'image' ? (element.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim() : '';
    } else if (name === '') {
      name = (element.textContent ?? '').replace(/\s+/g, ' ').trim() || (element.getAttribute('title') ?? '').replace(/\s+/g, ' ').trim();
    }
    candidates.push({ name, submits, form: form === null ? 'none' : passwordForms.has(form) ? 'password' : 'other' });
  }
  return { passwordInForm: passwordForms.size > 0, candidates };
}
