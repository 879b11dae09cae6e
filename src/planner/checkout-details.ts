/**
 * A shop's checkout said with the details it asks for: "check out with first name Jane, last name Roe and zip 10001",
 * "go through checkout as Jane Roe, postcode 'SW1A 1AA', up to the overview", "check out as Jane Roe with zip code
 * 10001". People say the details, not the form: the steps are those a shopper takes. The cart first unless the plan
 * is there already (a shop's Checkout button is on its cart page; going there first is harmless where the button is
 * everywhere), then Checkout, each detail typed into the field it names, then Continue, which sends the details. A
 * person's name said whole ("as Jane Roe") is a first and a last name. A detail that is no field and value makes the
 * whole reading fail, so the clause is read (or asked about) as before; a field the page lacks fails the run as
 * `step_unresolvable`, as any fill does.
 */
import type { PlanStep } from '../core/plan.js';
import type { StepClause } from './step-clauses.js';
import { fillPairs } from './form-steps.js';
import { hasVisited } from './pages.js';
import { steps, type Reading, type ReadingContext } from './reading.js';
import { fieldValuePairs, isFieldName, type FieldValuePair } from './values.js';
import { maskQuotes, trimPunctuation } from './words.js';

const CHECKOUT = String.raw`check[ -]?out`;
/** The verb and what follows it: "check out with …", "go through (the) checkout as …", "complete the checkout using …". */
const LEAD = new RegExp(
  String.raw`^(?:${CHECKOUT}|(?:go|get|walk)\s+through\s+(?:the\s+)?${CHECKOUT}|(?:complete|do|finish\s+filling\s+in)\s+the\s+${CHECKOUT}(?:\s+form)?|proceed\s+(?:to|through)\s+(?:the\s+)?${CHECKOUT})\s+((?:with|as|using)\s+.+)$`,
  'i',
);
/** "…, up to the overview", "until the review step": where the checkout stops, said after the details. */
const UP_TO = /,?\s+(?:(?:all\s+the\s+way\s+)?up\s+to|until|as\s+far\s+as)\s+(?:the\s+)?(.+?)$/i;
/** "as Jane Roe": a person's name, two capitalised words, before the end, a comma, "and" or "with". */
const PERSON = /^as\s+([A-Z][\w'’-]*)\s+([A-Z][\w'’-]*)(?=$|\s*[,;]|\s+(?:and|with)\b)/;
/** A clause that says only where the checkout stops: "up to the overview". */
const STOP_ONLY = /^(?:(?:all\s+the\s+way\s+)?up\s+to|until|as\s+far\s+as)\s+.+$/i;
/** Only a comma or "and" between two clauses of one checkout. */
const JOINED = /^\s*(?:,|;|,?\s*(?:and|&))\s*$/i;

export function readCheckoutDetails(clause: string, context: ReadingContext): Reading | undefined {
  const lead = LEAD.exec(trimPunctuation(clause));
  if (lead === null) return undefined;
  let details = lead[1]!;
  const assumptions: string[] = [];
  const stop = UP_TO.exec(maskQuotes(details));
  if (stop !== null) {
    details = details.slice(0, stop.index);
    assumptions.push(`Reads "up to the ${stop[1]!}" as where sending the checkout details leads: no step of its own.`);
  }
  const pairs: FieldValuePair[] = [];
  const person = PERSON.exec(details);
  if (person !== null) {
    pairs.push({ field: 'first name', value: person[1]! }, { field: 'last name', value: person[2]! });
    assumptions.push(`Reads "as ${person[1]!} ${person[2]!}" as the first name ${JSON.stringify(person[1])} and the last name ${JSON.stringify(person[2])}.`);
    details = details.slice(person[0].length);
  }
  const rest = trimPunctuation(details.replace(/^\s*[,;]?\s*(?:(?:and\s+)?(?:with|using)|and)?\s+/i, ''));
  if (rest !== '') {
    const more = fieldValuePairs(rest, context.testValueNames);
    // Each detail names a field people fill at a checkout: "with care" or "with express shipping" is no detail.
    if (more === undefined || !more.every((pair) => isFieldName(pair.field))) return undefined;
    pairs.push(...more);
  }
  if (pairs.length === 0) return undefined;
  const filled = fillPairs(pairs, context);
  if (filled.kind !== 'steps') return filled;
  const plan: PlanStep[] = [];
  if (!onCart(context)) plan.push({ action: 'navigate', description: 'Go to /cart', url: '/cart', page: 'cart' });
  plan.push({ action: 'click', description: 'Click the "Checkout" button', target: { by: 'role', role: 'button', name: 'Checkout', exact: false } });
  plan.push(...filled.steps);
  plan.push({ action: 'click', description: 'Click the "Continue" button, which sends the checkout details', target: { by: 'role', role: 'button', name: 'Continue', exact: false } });
  return steps(plan, [...assumptions, 'Sends the checkout details with the form\'s "Continue" button.']);
}

/**
 * Where a checkout said with its details ends among the task's clauses: "check out with first name Jane" goes on in
 * "last name Roe", "zip 10001" and "up to the overview", though the clause splitter took "zip" for a verb. The index
 * after the last clause of the checkout, or `index + 1` when the clause at `index` starts no such checkout.
 */
export function checkoutDetailsEnd(text: string, clauses: readonly StepClause[], index: number, context: Pick<ReadingContext, 'testValueNames'>): number {
  if (!LEAD.test(trimPunctuation(clauses[index]!.text))) return index + 1;
  let next = index + 1;
  while (next < clauses.length && JOINED.test(text.slice(clauses[next - 1]!.end, clauses[next]!.start)) && isDetail(clauses[next]!.text, context)) {
    next += 1;
  }
  return next;
}

/** A further detail of the checkout ("zip 10001", "last name 'Roe'": a field people fill and a value) or where it stops. */
function isDetail(clause: string, context: Pick<ReadingContext, 'testValueNames'>): boolean {
  const text = trimPunctuation(clause);
  if (STOP_ONLY.test(text)) return true;
  const pairs = fieldValuePairs(text, context.testValueNames);
  return pairs?.length === 1 && isFieldName(pairs[0]!.field);
}

/** The plan stands on the cart: the last place it went to is the cart, and nothing was clicked since. */
function onCart(context: ReadingContext): boolean {
  const last = context.visited.at(-1);
  if (last === undefined || !hasVisited([last], '/cart')) return false;
  return context.last?.action !== 'click' || (context.last.target.by === 'role' && context.last.target.role === 'link' && /cart|basket|bag/i.test(context.last.target.name));
}
