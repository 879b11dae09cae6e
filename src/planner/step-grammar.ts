/**
 * One clause of a task → the steps it asks for. The readers are tried in this order, and the first that recognises
 * the clause decides it:
 *
 * 1. a limit ("do not pay", "stop before paying"): no step, noted as an assumption; "check that I can <do X>" is
 *    read as "<do X>"; then the browser's dialogs ("an alert saying 'X' should appear; press OK");
 * 2. an assertion with a lead verb ("check that …", "verify …", "make sure …", "expect …") in a known shape;
 * 3. signing in ("sign in as the demo user");
 * 4. moving: "go to /pricing", "open the pricing page", "visit https://…", "check out", "wait for …";
 * 5. forms: "type … into …", "fill … with …", "select … in …", "check Remember me", "search for …", coupons;
 * 6. shopping: "add … to the cart", "put … in the basket" (cart-steps.ts);
 *    pressing: keys, "click …", "follow …", "remove … from the cart";
 * 7. a bare assertion ("the Plans heading is visible", "Order history shows three orders");
 * 8. a verb that names a button ("place the order" → "Place order", "sign out");
 * 9. a led assertion in no known shape ("check the total"): the page shows its words, said as an assumption.
 *
 * A clause none of them recognises is returned as unknown; the plan builder then asks about it.
 */
import { readAssertion } from './assertions.js';
import { readCartStep } from './cart-steps.js';
import { readCheckoutDetails } from './checkout-details.js';
import { readClick, readVerbButton, startsWithButtonVerb } from './clicks.js';
import { readDialogClause } from './dialog-steps.js';
import { readEitherText } from './either-text.js';
import { readFormStep } from './form-steps.js';
import { readItemClause } from './item-steps.js';
import { readItemControl } from './item-controls.js';
import { readNothingLeft } from './nothing-left.js';
import { readSubjectlessShows } from './subjectless-shows.js';
import { readPageAction } from './page-actions.js';
import { readStorage } from './storage-steps.js';
import { readNavigation } from './navigation.js';
import { steps, UNKNOWN, type Reading, type ReadingContext } from './reading.js';
import { readShortPhrase } from './short-phrases.js';
import { readSignIn } from './sign-in.js';

const LIMIT =
  /^(?:(?:but\s+)?(?:do not|don't|dont|never|avoid|no need to|not|without)\s+|(?:but\s+)?stop\s+(?:right\s+|just\s+)?(?:before|at|there|short|after)\b|(?:but\s+)?(?:leave|keep)\s+.+\s+(?:unsubmitted|unsent|as it is|untouched)$)/i;

const ABILITY =
  /^(?:check|verify|ensure|make sure|confirm|test)(?:\s+(?:that|whether|if))?\s+(?:i|we|you|the user|a user|users|a customer|customers|a (?:signed-in|logged-in) user)\s+(?:can|could|is able to|are able to|am able to)\s+(.+)$/i;

const REMARK = /^(?:e\.?\s?g\.?|i\.?\s?e\.?|for example|for instance|such as|say|now that|since|because|as expected|as usual|(?:in|on|under|within)\s+the\s+.+\s(?:part|section|area|panel|box|card)$)\b(?!\s+(?:the\s+)?(?:page|list|button|field)\s+(?:should|must|shows?|says?))/i;

/** "On the overview page click Finish", "On the 'Checkout' page, press Cancel": where the person is, then the step. */
const PLACE_LEAD = /^(?:(?:then|now)\s+)?(?:on|from|in|at)\s+(?:the|this|that)\s+(.+?\s+(?:page|screen|view|step|form|tab))\s*,?\s+(.+)$/i;

export function readClause(clause: string, context: ReadingContext): Reading {
  const placed = PLACE_LEAD.exec(clause);
  if (placed !== null) {
    const rest = readClause(placed[2]!, context);
    if (rest.kind === 'steps') return { ...rest, assumptions: [...rest.assumptions, `Reads "on the ${placed[1]!}" in "${clause}" as where the step happens: the steps before lead there.`] };
  }
  if (LIMIT.test(clause)) {
    // "Don't finish the order: click Cancel there": what to leave out, then what to do instead.
    const instead = /^([^:]+):\s+(.+)$/.exec(clause);
    const rest = instead === null ? undefined : readClause(instead[2]!, context);
    const left = `Leaves out what "${instead?.[1] ?? clause}" rules out: no step does it.`;
    if (rest?.kind === 'steps' && rest.steps.length > 0) return { ...rest, assumptions: [left, ...rest.assumptions] };
    return steps([], [`Leaves out what "${clause}" rules out: no step does it.`]);
  }
  // "e.g. by clicking somewhere else", "now that nothing is completed": an example or a reason, not a step.
  if (REMARK.test(clause)) return steps([], [`Reads "${clause}" as a remark: no step of its own.`]);
  // "check that I can sign in as the demo user": doing it is the check (a failing step fails the run).
  const ability = ABILITY.exec(clause);
  if (ability !== null) return readClause(ability[1], context);
  const readers: Array<() => Reading> = [
    () => readDialogClause(clause, context) ?? UNKNOWN,
    () => readShortPhrase(clause, context, readClause) ?? UNKNOWN,
    () => readEitherText(clause) ?? UNKNOWN,
    () => readStorage(clause, context) ?? UNKNOWN,
    () => readItemClause(clause, context) ?? UNKNOWN,
    () => readPageAction(clause, context) ?? UNKNOWN,
    () => readNothingLeft(clause, context) ?? UNKNOWN,
    () => readSubjectlessShows(clause) ?? UNKNOWN,
    () => readAssertion(clause, context, { bare: false, fallback: false }),
    () => readSignIn(clause, context),
    () => readCheckoutDetails(clause, context) ?? UNKNOWN,
    () => readNavigation(clause, context),
    () => readFormStep(clause, context),
    () => readCartStep(clause, context) ?? UNKNOWN,
    () => readItemControl(clause, context) ?? UNKNOWN,
    () => readClick(clause, context),
    () => (startsWithButtonVerb(clause) ? UNKNOWN : readAssertion(clause, context, { bare: true, fallback: false })),
    () => readVerbButton(clause),
    () => readAssertion(clause, context, { bare: false, fallback: true }),
  ];
  for (const read of readers) {
    const reading = read();
    if (reading.kind !== 'unknown') return reading;
  }
  return UNKNOWN;
}

/** The verb a clause starts with, for a following clause that leaves it out ("add the Desk Lamp and the Blue Mug to the cart"). */
export function leadingVerb(clause: string): string | undefined {
  return /^(?:add|click(?:\s+on)?|tap|press|select|choose|pick|check(?:\s+that)?|uncheck|tick|untick|fill(?:\s+in)?|type|enter|remove|open|visit|go to|navigate to|verify(?:\s+that)?|make sure(?:\s+that)?|ensure(?:\s+that)?|confirm that|expect)\b/i.exec(clause)?.[0];
}
