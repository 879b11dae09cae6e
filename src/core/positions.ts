/**
 * An element a person names by where it is against another: "the message above the heading", "the text below the
 * Email field", "the note under the title". Pure: the words only; the page decides (src/browser/position-grounding.ts).
 */
export interface Position {
  /** What the element is ("message"): a word of what it shows or is, not looked up by name. */
  noun: string;
  relation: 'above' | 'below';
  /** The element it is placed against, as the task said it ("the heading", "the Email field"). */
  anchor: string;
}

const POSITION = /^(?:the\s+)?((?:[a-z]+\s+){0,2}?(?:message|text|notice|notification|banner|alert|line|label|note|caption|paragraph|hint|error|status))\s+(above|over|below|under|beneath|underneath)\s+((?:the|its)\s+.+)$/i;

export function positionOf(phrase: string): Position | undefined {
  const match = POSITION.exec(phrase.trim());
  if (match === null) return undefined;
  return { noun: match[1]!.toLowerCase(), relation: /^(?:above|over)$/i.test(match[2]!) ? 'above' : 'below', anchor: match[3]! };
}
