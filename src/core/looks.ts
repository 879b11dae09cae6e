/**
 * Elements people name by how they look rather than by a name the page gives them: "the dashed box", "the red
 * button", "the green message", "the dotted area". A box with no text and no role has no other handle: the
 * accessibility snapshot does not show it. Pure: the browser reads each element's computed style
 * (src/browser/look-grounding.ts) and this decides which look the words mean and whether an element has it.
 */

export type BorderStyle = 'dashed' | 'dotted' | 'double' | 'solid';
export const COLOR_NAMES = ['red', 'orange', 'yellow', 'green', 'blue', 'purple', 'pink', 'brown', 'grey', 'black', 'white'] as const;
export type ColorName = (typeof COLOR_NAMES)[number];

export type Look = { kind: 'border'; style: BorderStyle | 'any' } | { kind: 'color'; color: ColorName };

const BORDER_WORDS: Readonly<Record<string, BorderStyle | 'any'>> = {
  dashed: 'dashed',
  'dash-bordered': 'dashed',
  dotted: 'dotted',
  'dot-bordered': 'dotted',
  'double-bordered': 'double',
  bordered: 'any',
  outlined: 'any',
  framed: 'any',
};
const COLOR_WORDS: Readonly<Record<string, ColorName>> = Object.fromEntries([
  ...COLOR_NAMES.map((name) => [name, name]),
  ['gray', 'grey'],
  ['violet', 'purple'],
]);
/** Nouns that say only that it is some element: any element with the look will do. */
const GENERIC_NOUNS = /^(?:box|boxes|area|areas|square|rectangle|region|panel|frame|block|zone|space|container|section|element|div|message|banner|notice|bar)$/i;

/** The looks the words of a phrase name ("the dashed box": a dashed border); empty when it names none. */
export function looksIn(phrase: string): Look[] {
  const looks: Look[] = [];
  for (const word of phrase.toLowerCase().split(/[\s,]+/)) {
    const border = BORDER_WORDS[word];
    if (border !== undefined) looks.push({ kind: 'border', style: border });
    const color = COLOR_WORDS[word.replace(/-(?:colou?red|ish)$/, '')];
    if (color !== undefined) looks.push({ kind: 'color', color });
  }
  return looks;
}

/**
 * "the dashed box", "a red square", "the dotted area": every word but the determiner and a generic noun says how it
 * looks. Such a phrase has no name to look for, only a look ("the red Delete button" has a name: not this).
 */
export function isLookPhrase(phrase: string): boolean {
  const words = phrase.toLowerCase().replace(/^(?:the|a|an|that|this)\s+/, '').split(/\s+/).filter((word) => word !== '');
  if (words.length < 2 || !GENERIC_NOUNS.test(words.at(-1)!)) return false;
  return words.slice(0, -1).every((word) => looksIn(word).length > 0 || /^(?:and|with|a|big|small|large|little)$/.test(word)) && looksIn(phrase).length > 0;
}

/** What the browser reads of an element's computed style; colors as `[r, g, b, alpha]`. */
export interface LookFacts {
  /** The style of each border side that is drawn (width above zero). */
  borders: Array<{ style: string; color: readonly number[] }>;
  background: readonly number[];
  color: readonly number[];
  /** It shows text of its own (a text node child), so its text color is seen. */
  ownText: boolean;
}

/** Whether an element has every look. */
export function hasLooks(facts: LookFacts, looks: readonly Look[]): boolean {
  return looks.every((look) => {
    if (look.kind === 'border') return facts.borders.some((side) => side.style !== 'none' && side.style !== 'hidden' && (look.style === 'any' || side.style === look.style));
    const seen = [facts.background, ...facts.borders.map((side) => side.color), ...(facts.ownText ? [facts.color] : [])];
    return seen.some((color) => colorName(color) === look.color);
  });
}

/** The color name a person would give `[r, g, b, alpha]` (0–255, alpha 0–1); undefined when it is transparent. */
export function colorName(rgba: readonly number[]): ColorName | undefined {
  const [r = 0, g = 0, b = 0, alpha = 1] = rgba;
  if (alpha < 0.3) return undefined;
  const max = Math.max(r, g, b) / 255;
  const min = Math.min(r, g, b) / 255;
  const lightness = (max + min) / 2;
  const chroma = max - min;
  if (chroma < 0.12) return lightness < 0.2 ? 'black' : lightness > 0.88 ? 'white' : 'grey';
  const saturation = chroma / (1 - Math.abs(2 * lightness - 1));
  if (saturation < 0.2) return lightness < 0.2 ? 'black' : lightness > 0.88 ? 'white' : 'grey';
  let hue: number;
  const [rr, gg, bb] = [r / 255, g / 255, b / 255];
  if (max === rr) hue = 60 * (((gg - bb) / chroma + 6) % 6);
  else if (max === gg) hue = 60 * ((bb - rr) / chroma + 2);
  else hue = 60 * ((rr - gg) / chroma + 4);
  if (hue < 15 || hue >= 345) return lightness > 0.75 ? 'pink' : 'red';
  if (hue < 45) return lightness < 0.35 ? 'brown' : 'orange';
  if (hue < 70) return 'yellow';
  if (hue < 170) return 'green';
  if (hue < 260) return 'blue';
  if (hue < 300) return 'purple';
  return 'pink';
}
