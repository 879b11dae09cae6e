/**
 * Page elements as a task names them: "the 'Sign in' button", "the Pricing link", "Coupon", "the Remember me
 * checkbox", "the field with placeholder Search". A quoted name matches exactly; an unquoted one is a
 * case-insensitive substring (core/plan.ts). The noun after the name decides the role; without one, the verb does.
 */
import { isLookPhrase } from '../core/looks.js';
import { ordinal } from '../core/ordinal.js';
import type { Target } from '../core/plan.js';
import { matchOutsideQuotes, stripDeterminers, trimPunctuation, unquote } from './words.js';

const POSITIONS: Readonly<Record<string, number>> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5, last: -1 };

/** What a name without a noun is, by the verb that uses it: "click Apply" is a button, "fill Email" a field. */
export type TargetKind = 'button' | 'link' | 'field' | 'text' | 'heading';

type Make = (name: string, exact: boolean) => Target;
const role =
  (name: string): Make =>
  (label, exact) => ({ by: 'role', role: name, name: label, exact });
const byLabel: Make = (name, exact) => ({ by: 'label', name, exact });
const byText: Make = (name, exact) => ({ by: 'text', name, exact });
const byPlaceholder: Make = (name, exact) => ({ by: 'placeholder', name, exact });
/** Words that say what an element is for rather than what the page calls it: grounded on the page (src/core/grounding.ts). */
const byDescription: Make = (name, exact) => ({ by: 'description', name, exact });

/** Nouns that say what an element is, longest first so that "radio button" wins over "button". */
const NOUNS: ReadonlyArray<[string, Make]> = [
  ['menu items?', role('menuitem')],
  ['radio buttons?|radios?', role('radio')],
  ['check ?box(?:es)?|check-box(?:es)?|tick ?box(?:es)?', role('checkbox')],
  ['text ?fields?|text ?box(?:es)?|text ?areas?|input fields?|input box(?:es)?|form fields?|select box(?:es)?|combo ?box(?:es)?|drop-?downs?|drop-?down menus?|selects?|fields?|inputs?|box(?:es)?', byLabel],
  ['buttons?|btns?|ctas?', role('button')],
  ['links?', role('link')],
  ['headings?|titles?|headers?|headlines?', role('heading')],
  ['tabs?', role('tab')],
  ['filters?|filter links?|filter buttons?|views?', byDescription],
  ['switch(?:es)?|toggles?', role('switch')],
  ['images?|logos?|pictures?|photos?|avatars?|icons?', role('img')],
  ['lists?', role('list')],
  ['dialogs?|modals?|pop-?ups?', role('dialog')],
  ['menus?', role('button')],
  ['options?', role('option')],
  ['sections?|regions?|panels?', role('region')],
  ['placeholders?', byPlaceholder],
  ['texts?|notices?|banners?|captions?', byText],
];
const NOUN = NOUNS.map(([pattern]) => pattern).join('|');

const FALLBACK: Readonly<Record<TargetKind, Make>> = {
  button: role('button'),
  link: role('link'),
  field: byLabel,
  text: byText,
  heading: role('heading'),
};

const PRONOUN = /^(?:it|its|them|they|this|that|these|those|one|here|there|everything|something|anything|him|her)$/i;

/** The element `phrase` names, or undefined when it names none ("it", "the button", an empty phrase). */
export function readTarget(phrase: string, kind: TargetKind): Target | undefined {
  const text = stripDeterminers(trimPunctuation(phrase));
  if (text === '') return undefined;
  // "the dashed box", "the green area": only a look names it, found on the page by that look (src/core/looks.ts).
  if (unquote(text) === undefined && isLookPhrase(text)) return { by: 'description', name: `the ${text}`.slice(0, 300), exact: false };

  const labelled = matchOutsideQuotes(
    text,
    new RegExp(`^(${NOUN})\\s+(?:labell?ed|called|named|titled|saying|that says|which says|reading|with (?:the )?(?:text|label|name|caption))\\s+(.+)$`, 'i'),
  );
  if (labelled !== undefined) return make(nounMaker(labelled[1]!), labelled[2]!);

  const placeholder = matchOutsideQuotes(text, new RegExp(`^(?:${NOUN})\\s+with\\s+(?:the\\s+)?placeholder(?:\\s+text)?\\s+(.+)$`, 'i'));
  if (placeholder !== undefined) return make(byPlaceholder, placeholder[1]!);

  // "the first Delete button", "the last Edit link": a control of a kind and name, by its place among those alike.
  const position = /^(first|second|third|fourth|fifth|last|[1-9]\d?(?:st|nd|rd|th))\s+(.+)$/i.exec(text);
  if (position !== null) {
    const rest = readTarget(position[2]!, kind);
    const nth = POSITIONS[position[1]!.toLowerCase()] ?? Number.parseInt(position[1]!, 10);
    if (rest?.by === 'role' && rest.name !== '' && rest.nth === undefined && rest.within === undefined) return { ...rest, nth };
  }

  // "checkbox 1", "radio B": a box the page numbers, by its label or the text beside it, and of that kind.
  const numbered = /^(check ?box|check-box|tick ?box|radio(?: button)?)\s+(\d{1,3}|[A-Z])$/i.exec(text);
  if (numbered !== null) return { by: 'label', role: /^radio/i.test(numbered[1]!) ? 'radio' : 'checkbox', name: text, exact: false };

  const quoted = unquote(text);
  if (quoted !== undefined) return make(FALLBACK[kind], text);

  const apposed = apposedName(text);
  if (apposed !== undefined) return make(nounMaker(apposed.noun), apposed.name);

  const named = matchOutsideQuotes(text, new RegExp(`^(.+?)\\s+(${NOUN})$`, 'i'));
  if (named !== undefined) return make(nounMaker(named[2]!), stripDeterminers(named[1]!));

  if (new RegExp(`^(?:${NOUN})$`, 'i').test(text)) return undefined;
  return make(FALLBACK[kind], text);
}

/** The nouns a name can follow in apposition: one element of a role the page names. */
const APPOSED_NOUN = /^(heading|header|headline|button|link|tab|menu item|checkbox|check box|radio button|image|dialog)\s+(.+)$/i;
/** Words that make the rest a phrase about the element rather than its name ("the button below the form"). */
const NOT_A_NAME = /\b(?:in|on|at|of|for|with|under|below|above|beside|next|near|inside|within|from|to|by|is|are|was|says|said|reads|shows|should|must|will|can|and|or|then|that|which|who|when|if|it|its)\b/;

/**
 * "the heading Pricing", "the button 'Save'", "the link About us": the noun first and the element's name after it.
 * Unquoted, the name must look like one (a capital or a digit first, at most six words, none of them a preposition,
 * a verb or a conjunction that would make it a phrase about the element).
 */
export function apposedName(text: string): { noun: string; name: string } | undefined {
  const match = APPOSED_NOUN.exec(text);
  if (match === null) return undefined;
  const rest = match[2]!.trim();
  if (unquote(rest) !== undefined) return { noun: match[1]!, name: rest };
  const words = rest.split(/\s+/);
  if (!/^[A-Z0-9]/.test(rest) || words.length > 6 || /["']/.test(rest) || NOT_A_NAME.test(rest.toLowerCase())) return undefined;
  return { noun: match[1]!, name: rest };
}

/** The role a bare noun names ("the button", "the heading"), for "the button says 'Buy now'". */
export function bareNounTarget(phrase: string, name: string, exact: boolean): Target | undefined {
  const text = stripDeterminers(trimPunctuation(phrase));
  if (!new RegExp(`^(?:${NOUN})$`, 'i').test(text)) return undefined;
  return nounMaker(text)(name, exact);
}

function nounMaker(noun: string): Make {
  const found = NOUNS.find(([pattern]) => new RegExp(`^(?:${pattern})$`, 'i').test(noun));
  return found === undefined ? byText : found[1];
}

function make(maker: Make, rawName: string): Target | undefined {
  const quoted = unquote(rawName.trim());
  const name = (quoted ?? rawName).trim();
  if (name === '' || (quoted === undefined && PRONOUN.test(name))) return undefined;
  // "the new todo field", "the new item input": what the field is for, not its label.
  if (maker === byLabel && quoted === undefined && /^(?:new|edit|editing|add(?:\s+a)?(?:\s+new)?)(?:\s+\S|$)/i.test(name)) return { by: 'description', role: 'textbox', name: name.slice(0, 300), exact: false };
  return maker(name.slice(0, 300), quoted !== undefined);
}

/**
 * How a step's description names `target`: `the "Apply" button`, `the "Email" field`, `"Apple Pay"`, the field for
 * new items (a description, in the person's own words), `the checkbox in the row "Pay rent"`, `the 2nd checkbox`.
 */
export function describeTarget(target: Target): string {
  const name = JSON.stringify(target.name);
  const kind = ROLE_WORDS[target.role ?? ''] ?? target.role ?? 'element';
  let text: string;
  switch (target.by) {
    case 'label':
      text = `the ${name} field`;
      break;
    case 'placeholder':
      text = `the field with placeholder ${name}`;
      break;
    case 'text':
      text = `the text ${name}`;
      break;
    case 'role':
      text = target.name === '' ? `the ${kind}` : `the ${name} ${kind}`;
      break;
    case 'description':
      text = target.name === '' ? `the ${kind}` : /^(?:the|a|an|my|your|this|that)\s/i.test(target.name) ? target.name : `the ${target.name}`;
      // "the new todo" is a field when the plan knows it is one.
      if (target.role === 'textbox' && target.name !== '' && !/\b(?:field|input|box)\b/i.test(target.name)) text += ' field';
      break;
  }
  if (target.nth !== undefined) text = text.replace(/^the /, target.nth === -1 ? 'the last ' : `the ${ordinal(target.nth)} `);
  if (target.within !== undefined) text += ` in the row ${JSON.stringify(target.within.text)}`;
  return text;
}

const ROLE_WORDS: Readonly<Record<string, string>> = { img: 'image', menuitem: 'menu item', listitem: 'list item' };
