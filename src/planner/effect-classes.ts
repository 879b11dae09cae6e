/**
 * The taxonomy of side effects (issue 28): what a product can change, in eight classes, and whether the change is
 * one the run can take back by itself. Discovery calls `sideEffectClassOf` on a flow step's text to know which
 * flows have a real side effect; the clarification policy asks about the same steps (side-effects.ts finds them,
 * this module names their class).
 *
 * - create: a record the product keeps and others see (a project, customer, issue, post, API key).
 * - change: stored data overwritten (a title, price, status, setting, account detail).
 * - delete: data destroyed or archived (a row, a comment, a todo of the user's own list, a workspace).
 * - transfer: data brought in or taken out (upload, import, export, download, sync with another service).
 * - send: what reaches people (a message, a submitted form, an invitation, a publication, a share).
 * - pay: money (an order placed, a payment, a refund, a subscription, a transfer of funds).
 * - access: who may do what (a role granted, a permission revoked, an owner made).
 * - schedule: a commitment in time (a booking, a reservation, an appointment moved or cancelled, a scheduled send).
 *
 * Reversible, not a real side effect: what a shopper puts in or takes out of a cart, basket or wish list (the run
 * can undo it and nobody else sees it). Navigational, a draft or a view (opening the checkout form, a form filled in
 * but not sent, a filter, a sort, a tab) changes nothing and has no class at all.
 */
import { nlp } from './nlp.js';
import { findSideEffects, type SideEffectHit, type SideEffectKind } from './side-effects.js';

export type EffectClass = 'create' | 'change' | 'delete' | 'transfer' | 'send' | 'pay' | 'access' | 'schedule';

export interface EffectClassOf {
  class: EffectClass;
  /** True only for what the run can take back by itself and nobody else sees (a cart's contents). */
  reversible: boolean;
}

/** The class of each policy kind; `refine` reads the words of the hit where one kind spans two classes. */
const CLASS_OF: Readonly<Record<SideEffectKind, EffectClass>> = {
  purchase: 'pay',
  delete: 'delete',
  message: 'send',
  invite: 'send',
  publish: 'send',
  transfer: 'pay',
  account_change: 'change',
  status_change: 'change',
  sign_up: 'create',
  form_submission: 'send',
  create: 'create',
  change: 'change',
  data_transfer: 'transfer',
  access: 'access',
  schedule: 'schedule',
};

const BOOKING = /\b(?:book|booking|bookings|reserv\w*|appointments?|tables?|rooms?|flights?|seats?|stays?|nights?|slots?)\b/i;
const ROLE_WORDS = /\b(?:roles?|permissions?|access|rights|privileges|admins?|owners?|editors?|moderators?|revok\w*)\b/i;
const ARCHIVING = /\barchiv\w*/i;
const OUT_OF_A_GROUP = /\bfrom\s+(?:the\s+|my\s+|our\s+)?(?:[\w-]+\s+)?(?:members|team|group|admins|organi[sz]ation|workspace|channel|project)\b/i;
const MEETING = /\b(?:demo|call|callback|meeting|consultation)\b/i;

function classOfHit(hit: SideEffectHit): EffectClass {
  const words = hit.excerpt;
  switch (hit.kind) {
    case 'purchase':
      return BOOKING.test(words) ? 'schedule' : 'pay';
    case 'invite':
    case 'account_change':
      return ROLE_WORDS.test(words) ? 'access' : CLASS_OF[hit.kind];
    case 'status_change':
      return ARCHIVING.test(words) ? 'delete' : ROLE_WORDS.test(words) ? 'access' : 'change';
    case 'form_submission':
      return MEETING.test(words) && /\b(?:book|schedul\w*)\b/i.test(words) ? 'schedule' : 'send';
    case 'delete':
      // "Remove frank from the project members": a person taken out of a group loses access, nothing is destroyed.
      return OUT_OF_A_GROUP.test(words) || ROLE_WORDS.test(words) ? 'access' : 'delete';
    case 'transfer':
      // Transferring ownership hands over who may do what; transferring money pays.
      return /\bownership\b/i.test(words) ? 'access' : 'pay';
    default:
      return CLASS_OF[hit.kind];
  }
}

/** A shopper's own containers: what goes in or out of them is taken back as easily. */
const CONTAINER = /^(?:the |my |your |a )?(?:shopping )?(?:cart|basket|bag|wish ?list|compare list|comparison|favou?rites)$/i;
const REVERSIBLE_VERBS: Readonly<Record<string, EffectClass>> = { add: 'create', put: 'create', place: 'create', remove: 'delete', delete: 'delete', empty: 'delete', clear: 'delete', change: 'change', update: 'change' };

/**
 * The class of the first side effect `text` (a task, a flow step's text, or a control's label said as "click …")
 * performs, or null when it performs none. A step on a cart's contents has a class but is reversible.
 */
export function sideEffectClassOf(text: string): EffectClassOf | null {
  const hits = findSideEffects(text);
  const first = hits[0];
  if (first === undefined) return reversibleClassOf(text);
  // Several kinds in the first clause ("create a recurring event"): the most specific names it.
  const classes = hits.filter((hit) => hit.excerpt === first.excerpt).map(classOfHit);
  return { class: SPECIFIC_FIRST.find((kind) => classes.includes(kind))!, reversible: false };
}

/** A clause that creates a recurring event schedules; one that adds a paid seat pays: the narrower class wins. */
const SPECIFIC_FIRST: readonly EffectClass[] = ['pay', 'access', 'schedule', 'transfer', 'send', 'delete', 'create', 'change'];

/** "Add the backpack to the cart", "Empty the basket": the verb (read by compromise) acts on a shopper's container. */
function reversibleClassOf(text: string): EffectClassOf | null {
  const doc = nlp(text);
  const nouns = doc.nouns().out('array') as string[];
  // The container is the verb's object ("empty the basket") or where it acts ("remove X from the cart").
  const contained = nouns.some((noun) => CONTAINER.test(noun.trim()) || /\b(?:in|from|to|into) (?:the |my |your )?(?:shopping )?(?:cart|basket|bag|wish ?list)\b/i.test(noun));
  if (!contained && !/\b(?:to|from|in|into) (?:the |my |your )?(?:shopping )?(?:cart|basket|bag|wish ?list|compare list)\b/i.test(text)) return null;
  for (const verb of doc.verbs().toInfinitive().out('array') as string[]) {
    const found = REVERSIBLE_VERBS[verb.toLowerCase().split(' ')[0]!];
    if (found !== undefined) return { class: found, reversible: true };
  }
  return null;
}
