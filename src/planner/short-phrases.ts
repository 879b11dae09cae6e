/**
 * Readers of the short ways people refer to what a task did or saw before, tried before the general readers
 * (step-grammar.ts): a page a site numbers and the heading it is "the one titled"; a choice in a list and "it's the
 * one selected"; "only one is left"; "click Delete once more"; "click edit in Bach's row of the Example 1 table".
 */
import { readNumberedPage, readPageApposition } from './numbered-pages.js';
import { readPositionedText } from './positioned-text.js';
import type { Reading, ReadingContext } from './reading.js';
import { readRemainingCount, withoutAgain } from './remaining-counts.js';
import { readNextChoice, readSelectionCheck } from './selection-checks.js';
import { readRowClick } from './table-rows.js';

export function readShortPhrase(clause: string, context: ReadingContext, read: (clause: string, context: ReadingContext) => Reading): Reading | undefined {
  const found = readNumberedPage(clause) ?? readPageApposition(clause, context) ?? readSelectionCheck(clause, context) ?? readNextChoice(clause, context) ?? readRemainingCount(clause, context) ?? readRowClick(clause) ?? readPositionedText(clause);
  if (found !== undefined) return found;
  const again = withoutAgain(clause);
  if (again === undefined) return undefined;
  const reading = read(again, context);
  return reading.kind === 'steps' ? reading : undefined;
}
