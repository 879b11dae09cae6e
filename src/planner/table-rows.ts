/**
 * A control in a table's row, the row named by a text it shows and the table by its name when a page has several:
 * "click 'edit' in Bach's row of the Example 1 table", "press Delete in the row of Ada in the Users table", "follow
 * View in the row for INV-7". The target is the control inside that row (`within`, with `table`), grounded on the
 * page (src/core/grounding.ts, src/core/named-tables.ts): a row or table the page does not have is a refusal.
 */
import type { Target } from '../core/plan.js';
import { steps, type Reading } from './reading.js';
import { describeTarget, readTarget } from './targets.js';
import { stripDeterminers, trimPunctuation, unquote } from './words.js';

const ROW_CLICK =
  /^(?:click|tap|press|hit|follow|select)\s+(?:on\s+)?(.+?)\s+(?:in|on|from|within)\s+(?:(?:the\s+)?row\s+(?:of|for|with)\s+(.+?)|(.+?)(?:'s|’s)\s+row)(?:\s+(?:of|in)\s+(?:the\s+)?(?:table\s+(?:named|called|titled)\s+(.+?)|(.+?)\s+table))?$/i;

export function readRowClick(clause: string): Reading | undefined {
  // On the text itself: the apostrophe of "Ada's row" would open a quote for the masking of quotes.
  const match = ROW_CLICK.exec(trimPunctuation(clause));
  if (match === null) return undefined;
  const [, control = '', rowOf, rowOwner, tableNamed, tableBefore] = match;
  const rowPhrase = (rowOf ?? rowOwner ?? '').trim();
  const row = unquote(rowPhrase) ?? stripDeterminers(rowPhrase);
  const tablePhrase = (tableNamed ?? tableBefore)?.trim();
  const table = tablePhrase === undefined ? undefined : (unquote(tablePhrase) ?? stripDeterminers(tablePhrase));
  // Without a table, "in the row of Ada" is the item readers' (item-parts.ts); the possessive form is read here.
  if (table === undefined && rowOwner === undefined) return undefined;
  // In a row, one word is the control's name even when it is also a kind of element ("View", "Details").
  const target: Target | undefined = readTarget(control, 'button') ?? (/^[\w-]+$/.test(control) ? { by: 'role', role: 'button', name: control, exact: false } : undefined);
  if (target === undefined || row === '' || target.within !== undefined || target.nth !== undefined) return undefined;
  const within = { text: row.slice(0, 300), ...(table === undefined || table === '' ? {} : { table: table.slice(0, 300) }) };
  const scoped = { ...target, within };
  const where = table === undefined ? '' : ` of the ${JSON.stringify(table)} table`;
  return steps([{ action: 'click', description: `Click ${describeTarget(scoped)}${where}`, target: scoped }]);
}
