/**
 * Where a task says to go: a URL ("https://shop.example/pricing"), a path ("/pricing"), or a page by name ("the
 * pricing page" → `/pricing`, "the cart" → `/cart`, "the account settings page" → `/account-settings`). A named page
 * becomes the kebab-case path of its words; a few places every shop and app has keep their usual paths.
 */
import { stripDeterminers, trimPunctuation, withoutQuotes } from './words.js';

const PAGE_NOUN = /\s+(?:page|screen|view|section|area)$/i;
const ADJECTIVES = /^(?:(?:new|current|main|whole|public|same|usual|default)\s+)+/i;

const PLACES: ReadonlyArray<[RegExp, string]> = [
  [/^(?:home|homepage|start|landing|front|index|main|root|base url|site root)$/i, '/'],
  [/^(?:cart|basket|bag|shopping (?:cart|basket|bag)|my cart)$/i, '/cart'],
  [/^(?:checkout|check-out|check out)$/i, '/checkout'],
  [/^(?:log ?in|log-in|sign ?in|sign-in|signin|login form|sign-in form)$/i, '/login'],
  [/^(?:sign ?up|sign-up|signup|registration|register)$/i, '/signup'],
];

/** The path or URL of `phrase`, or undefined when it names no page ("it", an empty phrase). */
export function pagePath(phrase: string): string | undefined {
  const text = withoutQuotes(trimPunctuation(phrase));
  const url = /^(https?:\/\/\S+|\/\S*)$/i.exec(text);
  if (url !== null) return url[1];

  const name = stripDeterminers(text).replace(PAGE_NOUN, '').replace(ADJECTIVES, '').trim();
  if (name === '' || /^(?:it|this|that|there|here|page)$/i.test(name)) return undefined;
  const place = PLACES.find(([pattern]) => pattern.test(name));
  if (place !== undefined) return place[1];
  const slug = name
    .toLowerCase()
    .replace(/'s\b/g, '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '')
    .join('-');
  return slug === '' ? undefined : `/${slug}`;
}

/** "the cart", "the home page", "checkout": places every shop or app has, by their usual names. */
export function isPlace(phrase: string): boolean {
  const name = stripDeterminers(withoutQuotes(trimPunctuation(phrase))).replace(PAGE_NOUN, '').replace(ADJECTIVES, '').trim();
  return PLACES.some(([pattern]) => pattern.test(name));
}

/** "the pricing page", "the checkout screen", a URL or a path: a phrase that can only mean a page. */
export function isPagePhrase(phrase: string): boolean {
  const text = trimPunctuation(phrase);
  return /^(?:https?:\/\/\S+|\/\S*)$/i.test(text) || PAGE_NOUN.test(text) || isPlace(text);
}

/** Whether a path the plan has visited is `path` (or a URL ending in it). */
export function hasVisited(visited: readonly string[], path: string): boolean {
  return visited.some((url) => url === path || url.endsWith(path) || url.endsWith(`${path}/`));
}

/** Whether the plan is on a sign-in page already (a path that says log in or sign in). */
export function onSignInPage(visited: readonly string[]): boolean {
  const last = visited.at(-1);
  return last !== undefined && /(?:log-?in|sign-?in|signin|\/auth)(?:[/?#]|$)/i.test(last);
}
