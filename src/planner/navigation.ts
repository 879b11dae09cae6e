/**
 * Clauses that move between pages or wait: "go to /pricing", "open the pricing page", "visit https://…", "send a
 * GET request to /health", "check out the new pricing page", "check out" (the Checkout button), "wait for the Order
 * confirmed heading".
 */
import type { PlanStep, Target } from '../core/plan.js';
import { isPagePhrase, isPlace, pagePath } from './pages.js';
import { steps, UNKNOWN, type Reading, type ReadingContext } from './reading.js';
import { describeTarget, readTarget } from './targets.js';
import { matchOutsideQuotes, stripDeterminers, trimPunctuation, withoutQuotes } from './words.js';

const GO_TO = /^(?:go|navigate|head|browse|proceed|return|get|jump|switch|move|come|continue)\s+(?:back\s+|over\s+|straight\s+|on\s+)?to\s+(.+)$/i;
const OPEN = /^(open|visit|load|view|browse|look at|bring up|pull up|navigate|go)\s+(?:up\s+)?(.+)$/i;
const GET_REQUEST = /^(?:send|make|do|issue|fire|perform)\s+(?:an?\s+)?(?:http\s+)?get\s+(?:request\s+)?(?:to|for|on|against)\s+(\S+)$/i;
const CHECK_OUT = /^check[ -]?out(?:\s+(.+))?$/i;
const CHECKOUT_OBJECT = /^(?:now|(?:the|my|your)\s+(?:shopping\s+)?(?:cart|basket|bag|order|items?)|with\s+.+|using\s+.+|as\s+.+|via\s+.+|securely)$/i;
const WAIT = /^wait\s+(?:for|until)\s+(.+?)(?:\s+(?:to\s+(?:appear|load|show(?:\s+up)?|be\s+(?:visible|shown|displayed)|become\s+visible)|is\s+(?:visible|shown|displayed)|appears|shows\s+up|loads))?$/i;
const CONTROL_NOUN = /\s(?:link|button|tab|menu|dialog|modal|drop-?down|accordion|panel)$/i;

/** "the details page of X", "X's product page", "its details page": the page a product's own link opens. */
const DETAILS_OF = /^(?:the\s+)?(?:details?|product|item|info(?:rmation)?)\s+page\s+(?:of|for)\s+(.+)$/i;
const DETAILS_OWNED = /^(.+?)(?:'s|’s)\s+(?:details?|product|item|info(?:rmation)?)\s+page$/i;
const DETAILS_ITS = /^(?:its|their)\s+(?:details?|product|item|info(?:rmation)?)\s+page$/i;

export function readNavigation(clause: string, context?: Pick<ReadingContext, 'lastItem'>): Reading {
  const request = matchOutsideQuotes(clause, GET_REQUEST);
  if (request !== undefined) return navigateTo(request[1]!);

  const checkout = matchOutsideQuotes(clause, CHECK_OUT);
  if (checkout !== undefined) {
    const object = checkout[1]?.trim();
    if (object === undefined || CHECKOUT_OBJECT.test(trimPunctuation(object))) {
      return steps([{ action: 'click', description: 'Click the "Checkout" button', target: { by: 'role', role: 'button', name: 'Checkout', exact: false } }]);
    }
    return navigateTo(object);
  }

  const goTo = matchOutsideQuotes(clause, GO_TO);
  if (goTo !== undefined) return CONTROL_NOUN.test(goTo[1]!) ? clickOn(goTo[1]!) : navigateTo(goTo[1]!);

  const open = matchOutsideQuotes(clause, OPEN);
  if (open !== undefined) {
    const [, verb = '', object = ''] = open;
    if (/^go$/i.test(verb)) return UNKNOWN;
    const details = detailsOf(trimPunctuation(object), context?.lastItem);
    if (details !== undefined) return details;
    if (isPagePhrase(object) || isPlace(object)) return navigateTo(object);
    // "open the Settings menu", "open Order history": a control to click, a link unless its noun says otherwise. A
    // name in title case and nothing else ("open JavaScript Alerts") is a page's: found on the page or opened.
    if (/^open$/i.test(verb)) return isTitle(object) && !CONTROL_NOUN.test(object) ? navigateTo(object) : clickOn(object);
    return navigateTo(object);
  }

  const wait = matchOutsideQuotes(clause, WAIT);
  if (wait !== undefined) {
    const subject = trimPunctuation(wait[1]!);
    if (/^(?:the\s+)?(?:page|site|app|screen)(?:\s+to\s+(?:load|finish loading))?$/i.test(subject)) {
      return steps([], ['Every step waits for the page by itself, so "wait for the page" adds no step.']);
    }
    const target = readTarget(subject, 'text');
    if (target === undefined) return UNKNOWN;
    return steps([{ action: 'waitFor', description: `Wait for ${describeTarget(target)}`, target }]);
  }
  return UNKNOWN;
}

/** "JavaScript Alerts", "the Key Presses": every word but the small ones capitalised, two words at least. */
export function isTitle(phrase: string): boolean {
  const words = stripDeterminers(trimPunctuation(phrase)).split(/\s+/);
  return words.length >= 2 && words.every((word) => /^[A-Z0-9]/.test(word) || /^(?:of|and|or|the|a|an|to|in|on|for|with|at|by|&|\/)$/.test(word)) && /^[A-Z]/.test(words[0] ?? '');
}

/** The link that names the thing whose own page is meant, or undefined when the phrase names no such page. */
function detailsOf(phrase: string, lastItem: string | undefined): Reading | undefined {
  const named = DETAILS_OF.exec(phrase)?.[1] ?? DETAILS_OWNED.exec(phrase)?.[1] ?? (DETAILS_ITS.test(phrase) ? lastItem : undefined);
  if (named === undefined) return undefined;
  const name = unquoteOrStrip(named);
  if (name === '' || /^(?:it|them|this|that)$/i.test(name)) return undefined;
  const target: Target = { by: 'role', role: 'link', name: name.slice(0, 300), exact: false };
  return steps([{ action: 'click', description: `Open the page of ${JSON.stringify(target.name)} by its link`, target }]);
}

function unquoteOrStrip(phrase: string): string {
  return withoutQuotes(stripDeterminers(withoutQuotes(trimPunctuation(phrase)))).trim();
}

function navigateTo(phrase: string): Reading {
  const url = pagePath(phrase);
  if (url === undefined) return UNKNOWN;
  // A page by name, not a place every app has at its usual path: the run looks for it on the live page first.
  // A place every app has ("the cart") is named too: its usual path is a guess as well. The home page is the root.
  const page = /^(?:https?:\/\/|\/)/i.test(withoutQuotes(trimPunctuation(phrase))) || url === '/' ? undefined : pageName(phrase);
  const description = page === undefined || isPlace(phrase) ? `Go to ${url}` : `Go to the ${page} page`;
  const step: PlanStep = { action: 'navigate', description, url: url.slice(0, 2_048), ...(page === undefined ? {} : { page }) };
  return steps([step]);
}

/** "the Dropdown List page" → "Dropdown List". */
function pageName(phrase: string): string | undefined {
  const name = withoutQuotes(stripDeterminers(withoutQuotes(trimPunctuation(phrase))).replace(/\s+(?:page|screen|view|section|area|example)$/i, '').trim());
  return name === '' ? undefined : name.slice(0, 200);
}

/** Where on the screen a control is ("at the top left", "in the header"): its words find it without. */
const SCREEN_PLACE =
  /\s+(?:at|in|on|from|near)\s+the\s+(?:very\s+)?(?:(?:top|bottom|upper|lower|left|right)(?:[\s-]+(?:left|right|hand))?(?:\s+(?:side|corner|edge|part))?|side|corner|header|footer|sidebar|toolbar|nav(?:igation)? ?bar|menu bar)(?:\s+of\s+the\s+(?:page|screen|window))?$/i;
/**
 * "the menu", "the main menu", "the hamburger menu": the button that opens it, whatever its exact name ("Open Menu",
 * "Toggle navigation"). A capitalised word names one ("the Settings menu": the Settings button).
 */
const MENU = /^(?:the\s+|a\s+)?((?:[a-z][\w-]*\s+)?(?:[Mm]enu|[Nn]avigation|[Nn]av|[Ss]idebar|[Dd]rawer))$/;

function clickOn(phrase: string): Reading {
  const place = trimPunctuation(phrase).replace(SCREEN_PLACE, '');
  const menu = MENU.exec(place)?.[1];
  const target: Target | undefined = menu === undefined ? readTarget(place, 'link') : { by: 'description', role: 'button', name: menu, exact: false };
  if (target === undefined) return UNKNOWN;
  return steps([{ action: 'click', description: `Click ${describeTarget(target)}`, target }]);
}
