/**
 * Side effects said without an imperative verb: the passive ("the subscription should be cancelled", "make sure the
 * account can be closed") and the causative ("have the Pro plan cancelled", "I want the demo account deleted"). The
 * verb comes last there, so the object that makes it matter (an order is cancelled, not a search) is read before it.
 * A state that is only looked at ("the order was cancelled", "has been deleted", "check that it is cancelled") is
 * not an action and not matched; one the task asks to bring about ("make sure the API key is revoked") is.
 */
import type { SideEffectKind } from './side-effects.js';

const PURCHASE_OBJECT = /\b(?:orders?|bookings?|reservations?|purchases?|payments?|appointments?|deliver(?:y|ies)|shipments?|flights?|tickets?|transactions?)\b/;
const ACCOUNT_OBJECT =
  /\b(?:accounts?|subscriptions?|memberships?|plans?|trials?|renewals?|licen[cs]es?|seats?|contracts?|users?|members?|customers?|employees?|profiles?|workspaces?|organi[sz]ations?|keys?|tokens?|sessions?|integrations?|webhooks?|2fa|two[- ]factor|mfa)\b/;
const MONEY_OBJECT = /\b(?:money|funds|cash|payouts?|payments?|refunds?|transfers?|wires?|[$€£]\s?\d[\d.,]*)\b/;
const HARMLESS_OBJECT = /\b(?:filters?|search|query|selection|sorting|highlight|focus|banner|popup|pop-up|overlay|tooltip|dialog|modal|menu|toast)\b/;
const IN_CART = /\bfrom\s+(?:the\s+|my\s+|your\s+)?(?:cart|basket|bag|wish\s?list|comparison|compare list|favou?rites)\b/;

/** The kind a past participle names, given the words before it (its object) and after it. */
const PARTICIPLES: ReadonlyArray<[RegExp, (object: string, after: string) => SideEffectKind | undefined]> = [
  [/^(?:cancell?ed|canceled)$/, (object) => (PURCHASE_OBJECT.test(object) ? 'purchase' : ACCOUNT_OBJECT.test(object) ? 'account_change' : undefined)],
  [/^(?:deleted|erased|wiped|destroyed|purged)$/, () => 'delete'],
  [/^removed$/, (object, after) => (HARMLESS_OBJECT.test(object) || IN_CART.test(after) ? undefined : 'delete')],
  [/^(?:deactivated|suspended|banned|terminated|unsubscribed|reactivated)$/, () => 'account_change'],
  [/^(?:closed|disabled|locked|blocked|reset)$/, (object) => (ACCOUNT_OBJECT.test(object) ? 'account_change' : undefined)],
  [/^(?:archived|unarchived|revoked|approved|rejected)$/, () => 'status_change'],
  [/^(?:refunded|transferred|wired)$/, () => 'transfer'],
  [/^(?:issued|processed|made|given)$/, (object) => (MONEY_OBJECT.test(object) ? 'transfer' : undefined)],
  [/^(?:re)?sent$/, (object) => (MONEY_OBJECT.test(object) ? 'transfer' : 'message')],
  [/^(?:downgraded|upgraded|purchased|bought|paid|charged)$/, () => 'purchase'],
  [/^placed$/, (object) => (PURCHASE_OBJECT.test(object) ? 'purchase' : undefined)],
  [/^(?:published|unpublished)$/, () => 'publish'],
  [/^invited$/, () => 'invite'],
];
const PARTICIPLE =
  '(cancell?ed|canceled|deleted|erased|wiped|destroyed|purged|removed|deactivated|suspended|banned|terminated|unsubscribed|reactivated|closed|disabled|locked|blocked|reset|archived|unarchived|revoked|approved|rejected|refunded|transferred|wired|issued|processed|made|given|re-?sent|sent|downgraded|upgraded|purchased|bought|paid|charged|placed|published|unpublished|invited)';

// "gets cancelled", "should be removed", "can be issued", "needs to be sent" ("been" is a state: "has been cancelled").
const PASSIVE = new RegExp(`\\b(?:get|gets|got|getting|be)\\s+(?:\\w+ly\\s+)?${PARTICIPLE}\\b`, 'g');
// "have the Pro plan cancelled", "get the order refunded", "I want the demo account deleted"
const CAUSATIVE = new RegExp(
  `\\b(?:have|has|get|gets|want|wants|need|needs|would like)\\s+((?:the|my|our|your|their|all|a|an|this|that|these|those|every|each)\\s+(?:[\\w'-]+\\s+){0,4}?)${PARTICIPLE}\\b`,
  'g',
);
// "ensure the API key is revoked", "make sure the order is placed": a state the task asks to bring about.
const ENSURED_STATE = new RegExp(`^((?:please\\s+)?(?:ensure|make sure|see to it)(?:\\s+that)?\\s+(.*?))\\b(?:is|are)\\s+(?:\\w+ly\\s+)?${PARTICIPLE}\\b`);
const NEGATED = /(?:\bnot|n't|\bnever|\bcannot|\bno)\s+(?:\w+\s+)?$/;
/** Reported text: "the terms say subscriptions can be cancelled at any time" is read, not done. */
const REPORTED = /\b(?:says?|said|states?|reads?|mentions?|explains?|shows?|displays?|tells?|notes?|lists?|describes?|warns?|promises?)\b/;
/** The few words before the auxiliary: the object of a passive ("the demo user's subscription"). */
const OBJECT_WINDOW = /(?:\S+\s+){0,6}$/;

export interface PassiveMatch {
  kind: SideEffectKind;
  start: number;
  end: number;
}

/** The passive and causative side effects in one lower-case clause; quoted spans are labels and never match. */
export function passiveSideEffects(lower: string, quotes: ReadonlyArray<[number, number]>): PassiveMatch[] {
  const found: PassiveMatch[] = [];
  const consider = (start: number, end: number, participle: string, object: string) => {
    if (quotes.some(([from, to]) => start > from && start < to)) return;
    if (NEGATED.test(lower.slice(0, start)) || REPORTED.test(lower.slice(0, start))) return;
    const entry = PARTICIPLES.find(([pattern]) => pattern.test(participle));
    const kind = entry?.[1](object, lower.slice(end));
    if (kind !== undefined) found.push({ kind, start, end });
  };
  for (const match of lower.matchAll(PASSIVE)) {
    const before = lower.slice(0, match.index);
    consider(match.index, match.index + match[0].length, match[1]!, OBJECT_WINDOW.exec(before)?.[0] ?? '');
  }
  const ensured = ENSURED_STATE.exec(lower);
  if (ensured !== null) consider(ensured[1]!.length, ensured[0].length, ensured[3]!, ensured[2]!);
  for (const match of lower.matchAll(CAUSATIVE)) {
    consider(match.index, match.index + match[0].length, match[2]!, match[1]!);
  }
  return found;
}
