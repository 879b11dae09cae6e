/**
 * The side effects a QA run must not cause without being told to (spec 3: "a real side effect is possible"): each
 * kind with the words that trigger it, the question to ask and the reason to give. Whether a trigger word is an
 * action or only a thing to look at is decided by `isPerformed` (trigger-context.ts).
 */
import { quotedSpans, splitClauses, straightenQuotes } from './clauses.js';
import { passiveSideEffects } from './side-effect-passives.js';
import { isPerformed } from './trigger-context.js';

export type SideEffectKind =
  | 'purchase'
  | 'delete'
  | 'message'
  | 'invite'
  | 'publish'
  | 'transfer'
  | 'account_change'
  | 'status_change'
  | 'sign_up'
  | 'form_submission';

export interface Trigger {
  /** Global, case-insensitive. */
  pattern: RegExp;
  past: boolean;
  weak: boolean;
  /** Tested against the clause text before the match (lower case): a hit means "not this side effect". */
  notBefore?: RegExp;
  /** Tested against the clause text after the match (lower case). */
  notAfter?: RegExp;
  /** The verb forms the pattern starts with (`buy|buys|buying`): a clause without any cannot match. */
  verbForms: string;
}

export interface SideEffectRule {
  kind: SideEffectKind;
  /** Asked as is; the planner matches answers to it by its exact text, so change it only with care. */
  question: string;
  /** What is at stake, before the quoted excerpts of the task. */
  risk: string;
  triggers: Trigger[];
}

interface Options {
  weak?: boolean;
  notBefore?: RegExp;
  notAfter?: RegExp;
}

/** Triggers for a verb's present forms (`buy|buys|buying`) and past forms (`bought`), each followed by `tail`. */
function verb(present: string, past: string, tail = '', options: Options = {}): Trigger[] {
  const make = (forms: string, isPast: boolean): Trigger => ({
    pattern: new RegExp(`\\b(?:${forms})${tail}\\b`, 'gi'),
    past: isPast,
    weak: options.weak ?? false,
    notBefore: options.notBefore,
    notAfter: options.notAfter,
    verbForms: forms,
  });
  return past === '' ? [make(present, false)] : [make(present, false), make(past, true)];
}

const DET = '(?:\\s+(?:an?|the|my|your|our|their|this|that|these|those|another|new|real|test|demo|one|some|all|\\d+))';
const OWNER = "(?:\\s+(?:the|my|your|their|his|her|its|a|an|new|current|demo|test|admin|user|account|[\\w-]+'s))";
const ACCOUNT_THING =
  '(?:password|passcode|pin|e-?mail(?:\\s+address)?|username|user\\s?name|login|account(?:\\s+(?:settings|details|info(?:rmation)?|name|email|password))?|profile(?:\\s+(?:details|info(?:rmation)?|name|picture|photo))?|phone(?:\\s+number)?|billing\\s+(?:details|address|info(?:rmation)?|email)|payment\\s+(?:method|details|card)|credit\\s+card|2fa|two[- ]factor(?:\\s+auth(?:entication)?)?|mfa|security\\s+(?:settings|questions?)|display\\s+name|avatar|plan|subscription|role|permissions?|settings)';
const HARMLESS_REMOVAL =
  /^\s+(?:(?:the|a|an|all|any|my|your|this|that|some|one|\d+)\s+)*(?:[\w-]+\s+)?(?:filters?|search|query|selection|sorting|sort|highlight|focus|banner|popup|pop-up|overlay|tooltip)\b|^\s+(?:[\w'-]+\s+){0,4}?from\s+(?:the\s+|my\s+|your\s+)?(?:cart|basket|bag|wish\s?list|comparison|compare list|favou?rites)\b|^\s+(?:all\s+(?:of\s+)?)?(?:its|the|the field's|the input's)\s+(?:typed\s+)?text\b(?!\s+(?:messages?|posts?|files?))/;
/**
 * Up to three words between a verb and the object that makes it matter ("cancel the Pro subscription", "cancel all
 * pending orders"), but never across a preposition or a conjunction ("click Cancel on the order page").
 */
const WORDS_BEFORE_OBJECT = "(?:\\s+(?!(?:on|in|at|to|into|onto|from|with|for|of|by|and|or|then|but|if|when|while|that|which|button|link|icon|dialog|modal|page)\\b)[\\w'.@-]+){0,3}?";
const MONEY = '(?:\\s+(?:the|some|all|my|your))?\\s+(?:money|funds|cash|[$€£]\\s?\\d[\\d.,]*\\d|[$€£]\\s?\\d|\\d[\\d.,]*\\s?(?:dollars|euros|pounds|usd|eur|gbp))';

export const SIDE_EFFECTS: readonly SideEffectRule[] = [
  {
    kind: 'purchase',
    question:
      'Should the run really buy or pay (place an order or charge a payment method), or stop before the final payment step? If it may pay, which test payment method should it use?',
    risk: 'Buying or paying places a real order or charges a real payment method',
    triggers: [
      ...verb('buy|buys|buying', 'bought'),
      ...verb('purchase|purchases|purchasing', 'purchased'),
      ...verb('order|ordering', 'ordered', '', { weak: true }),
      ...verb('place|places|placing', 'placed', `${DET}*\\s+orders?`),
      ...verb(
        'submit|submits|submitting|confirm|confirms|confirming|complete|completes|completing|finali[sz]e|finali[sz]es|finali[sz]ing|finish|finishes|finishing|go through|goes through|going through',
        'submitted|confirmed|completed|finali[sz]ed|finished|went through|gone through',
        `${DET}?\\s+(?:orders?|purchases?|payments?|checkout|bookings?)`,
      ),
      ...verb('checkout', '', '', { weak: true }),
      // "start the checkout": the control that starts it is the shop's Checkout.
      ...verb('start|starts|starting|begin|begins|beginning', 'started|began|begun', `${DET}?\\s+check-?out`),
      ...verb(
        'check[ -]out|checks[ -]out|checking[ -]out',
        'checked[ -]out',
        '(?=\\s*(?:$|[,.;!?]|(?:with|using|as|via|by|now|securely)\\b|(?:(?:the|my|your|our|this)\\s+)?(?:cart|basket|bag|orders?|items?|purchases?)\\b))',
      ),
      ...verb('pay|pays|paying', 'paid', '', { notBefore: /\b(?:apple|google|samsung|amazon|shop|union)\s+$/ }),
      ...verb(
        'make|makes|making|process|processes|processing|authori[sz]e|authori[sz]es|authori[sz]ing|send|sends|sending',
        'made|processed|authori[sz]ed|sent',
        `${DET}?\\s+payments?`,
      ),
      ...verb('charge|charges|charging', 'charged', '', { weak: true }),
      ...verb('upgrade|upgrades|upgrading|downgrade|downgrades|downgrading', 'upgraded|downgraded'),
      ...verb(
        'subscribe|subscribes|subscribing',
        'subscribed',
        '(?:\\s+[\\w-]+){0,3}?\\s+(?:paid|pro|premium|plus|business|team|enterprise|annual|monthly|yearly)(?:\\s+(?:plan|tier|subscription|version))?',
      ),
      ...verb(
        'book|books|booking|reserve|reserves|reserving|rent|rents|renting',
        'booked|reserved|rented',
        `${DET}?(?:\\s+[\\w-]+)?\\s+(?:tables?|flights?|rooms?|hotels?|tickets?|appointments?|reservations?|seats?|trips?|stays?|cars?|slots?|nights?)`,
      ),
      ...verb(
        'cancel|cancels|cancelling|canceling',
        'cancelled|canceled',
        `${WORDS_BEFORE_OBJECT}\\s+(?:orders?|bookings?|reservations?|purchases?|payments?|appointments?|deliver(?:y|ies)|shipments?|flights?|tickets?|transactions?)`,
      ),
    ],
  },
  {
    kind: 'delete',
    question:
      'Should the run really delete or remove this data? It cannot be undone: is it disposable test data, or should the run stop at the confirmation step?',
    risk: 'Deleting or removing data cannot be undone',
    triggers: [
      ...verb(
        'delete|deletes|deleting|remove|removes|removing|erase|erases|erasing|wipe|wipes|wiping|destroy|destroys|destroying|purge|purges|purging',
        'deleted|removed|erased|wiped|destroyed|purged',
        '',
        { notAfter: HARMLESS_REMOVAL },
      ),
      ...verb('get rid of|gets rid of|getting rid of', 'got rid of|gotten rid of', '', { notAfter: HARMLESS_REMOVAL }),
      ...verb('empty|empties|emptying', 'emptied', '(?:\\s+the)?\\s+(?:trash|bin|recycle bin)'),
      // Resetting a store's data is deleting it; resetting a password is an account change (below).
      ...verb(
        'reset|resets|resetting|factory[ -]reset',
        '',
        `${WORDS_BEFORE_OBJECT}\\s+(?:database|db|data|workspaces?|accounts?|settings|everything|stores?|environments?|progress|history|statistics|stats|projects?)`,
      ),
      ...verb(
        'clear|clears|clearing',
        'cleared',
        '(?:\\s+(?:all|the|my|your|of))*\\s+(?:data|history|records|database|inbox|messages|orders)',
      ),
    ],
  },
  {
    kind: 'message',
    question:
      'Should the run really send this message, email or notification to real recipients? If yes, to which address; if not, should it stop before sending?',
    risk: 'Sending a message, email or notification reaches real people',
    triggers: [
      ...verb('send|sends|sending|re-?send|re-?sends|re-?sending', 'sent|re-?sent', '', {
        notAfter: /^\s+(?:(?:the|a|an)\s+)?(?:search|query|(?:get|post|put|patch|delete|http|api)\s+requests?)\b/,
      }),
      ...verb('e-?mail|e-?mails|e-?mailing', 'e-?mailed', '', { weak: true }),
      ...verb('message|messages|messaging', 'messaged', '', { weak: true }),
      ...verb('text|texts|texting', 'texted', '(?=\\s+(?:the|a|an|my|your|our|their|this|that|them|him|her|me|us|everyone|all|\\+?\\d))', {
        weak: true,
      }),
      ...verb('notify|notifies|notifying', 'notified'),
      ...verb(
        'reply|replies|replying|respond|responds|responding',
        'replied|responded',
        `\\s+to${DET}?(?:\\s+[\\w-]+)?\\s+(?:messages?|e-?mails?|comments?|reviews?|customers?|users?|tickets?|threads?|posts?|inquir(?:y|ies)|enquir(?:y|ies)|sellers?)`,
      ),
    ],
  },
  {
    kind: 'invite',
    question: 'Should the run really invite someone or add a person to the account? If yes, which address may it invite?',
    risk: 'Inviting or adding a person sends them an invitation and grants access',
    triggers: [
      ...verb('invite|invites|inviting', 'invited'),
      ...verb(
        'add|adds|adding',
        'added',
        `${DET}*\\s+(?:team\\s?mates?|team\\s+members?|members?|collaborators?|users?|admins?|administrators?|seats?|guest\\s+users?)`,
      ),
      // "add alice@example.com as a collaborator", "add bob@example.com to the workspace"
      ...verb(
        'add|adds|adding',
        'added',
        '\\s+\\S+@\\S+\\s+(?:as|to)\\s+(?:an?\\s+|the\\s+)?(?:[\\w-]+\\s+)?(?:collaborators?|members?|admins?|users?|owners?|editors?|viewers?|guests?|teams?|workspaces?|projects?|organi[sz]ations?|groups?|channels?|accounts?)',
      ),
    ],
  },
  {
    kind: 'publish',
    question: 'Should the run really publish or post this where others can see it? If not, should it stop before publishing?',
    risk: 'Publishing or posting makes content visible to others',
    triggers: [
      ...verb('publish|publishes|publishing|unpublish|unpublishes|unpublishing', 'published|unpublished'),
      ...verb('post|posts|posting', 'posted', '', { weak: true }),
      ...verb(
        'post|posts|posting|share|shares|sharing',
        'posted|shared',
        '(?:\\s+[\\w-]+){0,3}?\\s+(?:publicly|in public|to (?:the )?public|on (?:social(?: media)?|twitter|facebook|linkedin|instagram|mastodon|reddit|the (?:forum|blog|feed|timeline|wall)))',
      ),
      ...verb('go|goes|going', 'went|gone', '[ -]live'),
      ...verb('make|makes|making', 'made', "(?:\\s+(?:it|this|that|(?:the|my|your|our)(?:\\s+[\\w-]+){1,3}))?\\s+public"),
      ...verb(
        'leave|leaves|leaving|write|writes|writing|post|posts|posting|add|adds|adding|submit|submits|submitting',
        'left|wrote|written|posted|added|submitted',
        `${DET}?(?:\\s+[\\w-]+)?\\s+(?:reviews?|comments?|ratings?|replies|reply|tweets?)`,
      ),
      ...verb(
        'deploy|deploys|deploying|release|releases|releasing',
        'deployed|released',
        '(?:\\s+[\\w-]+){0,3}?\\s+to\\s+(?:prod|production|live|customers|everyone)',
      ),
    ],
  },
  {
    kind: 'transfer',
    question:
      'Should the run really move money or ownership (transfer, wire, refund or withdrawal)? If yes, between which test accounts, and what amount?',
    risk: 'Transferring, wiring or refunding moves real money or ownership',
    triggers: [
      ...verb('transfer|transfers|transferring', 'transferred', '', { notBefore: /\b(?:bank|wire|sepa|ach|balance)\s+$/ }),
      ...verb('wire|wires|wiring', 'wired', MONEY),
      ...verb('refund|refunds|refunding', 'refunded'),
      ...verb(
        'issue|issues|issuing|request|requests|requesting|process|processes|processing|give|gives|giving',
        'issued|requested|processed|gave|given',
        `${DET}*(?:\\s+(?:full|partial))?\\s+(?:refunds?|credit\\s+notes?|store\\s+credit|credits?|chargebacks?)`,
      ),
      ...verb(
        'void|voids|voiding|reverse|reverses|reversing',
        'voided|reversed',
        `${WORDS_BEFORE_OBJECT}\\s+(?:invoices?|payments?|orders?|transactions?|charges?|receipts?|checks?|cheques?|transfers?)`,
      ),
      ...verb(
        'send|sends|sending|move|moves|moving|withdraw|withdraws|withdrawing|deposit|deposits|depositing',
        'sent|moved|withdrew|withdrawn|deposited',
        MONEY,
      ),
    ],
  },
  {
    kind: 'account_change',
    question:
      'Should the run really change this account (such as its password, email address, plan or status)? If yes, which test account may it change, and should it restore the old value afterwards?',
    risk: 'Changing a password, email address or account setting can lock people out',
    triggers: [
      ...verb(
        'change|changes|changing|reset|resets|resetting|update|updates|updating|edit|edits|editing|modify|modifies|modifying|rename|renames|renaming|replace|replaces|replacing',
        'changed|updated|edited|modified|renamed|replaced',
        `${OWNER}{0,3}\\s+${ACCOUNT_THING}`,
      ),
      ...verb(
        'close|closes|closing|deactivate|deactivates|deactivating|disable|disables|disabling|enable|enables|enabling|suspend|suspends|suspending|lock|locks|locking|cancel|cancels|cancelling|canceling|terminate|terminates|terminating|turn off|turns off|turning off|switch off|switches off|switching off|block|blocks|blocking|ban|bans|banning|unblock|unblocks|unblocking|unban|unbans|unbanning|reactivate|reactivates|reactivating|kick|kicks|kicking|kick out|kicks out|kicking out|stop|stops|stopping|end|ends|ending',
        'kicked|kicked out|stopped|ended|closed|deactivated|disabled|enabled|suspended|locked|cancelled|canceled|terminated|turned off|switched off|blocked|banned|unblocked|unbanned|reactivated',
        `${WORDS_BEFORE_OBJECT}\\s+(?:accounts?|subscriptions?|memberships?|plans?|trials?|renewals?|auto-?renewals?|licen[cs]es?|seats?|contracts?|users?|members?|customers?|employees?|profiles?|workspaces?|organi[sz]ations?|(?:api\\s+|access\\s+|oauth\\s+)?(?:keys?|tokens?)|sessions?|integrations?|webhooks?|notifications?|alerts?|2fa|two[- ]factor(?:\\s+auth(?:entication)?)?|mfa)`,
      ),
      // A plan change said as a move: "switch the workspace to the Team plan", "move the account from Pro to Starter".
      ...verb(
        'switch|switches|switching|move|moves|moving',
        'switched|moved',
        `(?:${WORDS_BEFORE_OBJECT}\\s+(?:from|to)\\s+(?:the\\s+)?(?:[\\w-]+\\s+){0,2}?(?:plans?|tiers?|subscriptions?)\\b|${WORDS_BEFORE_OBJECT}\\s+(?:accounts?|workspaces?|subscriptions?|teams?|organi[sz]ations?)\\s+(?:from|to)\\s+(?:the\\s+)?(?:free|starter|basic|pro|plus|premium|team|business|enterprise)\\b)`,
      ),
      ...verb('unsubscribe|unsubscribes|unsubscribing', 'unsubscribed'),
      ...verb('opt out|opts out|opting out|opt-out', 'opted out|opted-out'),
      ...verb(
        'add|adds|adding',
        'added',
        `${DET}*\\s+(?:credit\\s+card|card|payment\\s+method|billing\\s+address|phone\\s+number|e-?mail\\s+address)`,
      ),
    ],
  },
  {
    kind: 'status_change',
    question:
      'Should the run really archive, revoke, approve or reject this? Others see the change: is it disposable test data, or should the run stop before that step?',
    risk: 'Archiving, revoking, approving or rejecting changes what other people see and may do',
    triggers: [
      ...verb('archive|archives|archiving|unarchive|unarchives|unarchiving', 'archived|unarchived'),
      ...verb('revoke|revokes|revoking', 'revoked'),
      ...verb(
        'close|closes|closing|resolve|resolves|resolving|reopen|reopens|reopening',
        'closed|resolved|reopened',
        `${WORDS_BEFORE_OBJECT}\\s+(?:tickets?|issues?|cases?|incidents?|pull\\s+requests?|prs?|conversations?|threads?|polls?|requests?|disputes?)`,
      ),
      ...verb(
        'approve|approves|approving|reject|rejects|rejecting|decline|declines|declining|deny|denies|denying',
        'approved|rejected|declined|denied',
        `${WORDS_BEFORE_OBJECT}\\s+(?:payouts?|applications?|requests?|orders?|refunds?|payments?|users?|members?|comments?|reviews?|posts?|invoices?|transactions?|claims?|expenses?|loans?|submissions?|changes|pull\\s+requests?|withdrawals?|invitations?|invites?|candidates?|bookings?|reservations?)`,
      ),
    ],
  },
  {
    kind: 'sign_up',
    question:
      'Should the run really sign up or register a new account? If yes, which test email address or user may it use?',
    risk: 'Signing up or registering creates a real user account',
    triggers: [
      ...verb('sign[ -]?up|signs[ -]?up|signing[ -]?up', 'signed[ -]?up'),
      ...verb('register|registers|registering', 'registered'),
      ...verb('enrol|enroll|enrols|enrolls|enrolling', 'enrolled|enroled'),
      ...verb('subscribe|subscribes|subscribing', 'subscribed'),
      ...verb(
        'create|creates|creating|make|makes|making|open|opens|opening|set up|sets up|setting up',
        'created|made|opened',
        `${DET}{0,3}(?:\\s+(?:user|customer|fresh|second))?\\s+(?:accounts?|users?|logins?|profiles?|memberships?|customers?)`,
      ),
      ...verb(
        'join|joins|joining',
        'joined',
        '(?:\\s+(?:the|a|an|our|my))?\\s+(?:waitlist|waiting list|wait list|newsletter|mailing list|beta|community|organi[sz]ation|workspace)',
      ),
    ],
  },
  {
    kind: 'form_submission',
    question:
      'Should the run really submit this form or request? It may reach real people (support, sales, other users). If not, should it fill it in and stop before submitting?',
    risk: 'Submitting a form or request can reach real people',
    triggers: [
      ...verb('submit|submits|submitting', 'submitted', '', {
        notAfter: /^\s+(?:(?:the|a|an|my|your)\s+)?(?:search|query|filters?|log\s?in|login|sign[ -]?in)\b/,
      }),
      ...verb(
        'send|sends|sending|fill in and send|fill out and send',
        'sent',
        `${DET}?(?:\\s+[\\w-]+)?\\s+(?:forms?|feedback|enquiry|enquiries|inquiry|inquiries|applications?|surveys?)`,
      ),
      ...verb(
        'contact|contacts|contacting',
        'contacted',
        '\\s+(?:the\\s+)?(?:support|sales|us|owner|seller|vendor|host|team|customer\\s+service|help\\s?desk|someone|a\\s+(?:human|person|agent))',
      ),
      ...verb(
        'request|requests|requesting|book|books|booking|schedule|schedules|scheduling',
        'requested|booked|scheduled',
        '(?:\\s+(?:an?|the))?\\s+(?:demo|quote|callback|call\\s?back|call|meeting|consultation|trial)',
      ),
      ...verb(
        'file|files|filing|open|opens|opening|create|creates|creating|raise|raises|raising|log|logs|logging',
        'filed|opened|created|raised|logged',
        '(?:\\s+(?:an?|the|new))?(?:\\s+support)?\\s+(?:tickets?|cases?|complaints?)',
      ),
      ...verb(
        'apply|applies|applying',
        'applied',
        '\\s+(?:for|to)\\s+(?:an?\\s+|the\\s+)?(?:job|position|role|loan|grant|program(?:me)?|credit)',
      ),
    ],
  },
];

/** A place in the task where it asks to perform a side effect. */
export interface SideEffectHit {
  kind: SideEffectKind;
  /** Offset of the trigger in the task text. */
  index: number;
  /** The clause that asks for it, as written. */
  excerpt: string;
}

interface Match {
  rule: SideEffectRule;
  trigger: Trigger;
  start: number;
  end: number;
}

/** The side effects `text` asks to perform, in text order (several hits of one kind are all listed). */
export function findSideEffects(text: string): SideEffectHit[] {
  const normal = straightenQuotes(text);
  const hits: SideEffectHit[] = [];
  for (const clause of splitClauses(normal)) {
    const lower = clause.text.toLowerCase();
    const quotes = quotedSpans(lower);
    const matches = outermost(matchesIn(lower));
    for (const { rule, trigger, start, end } of matches) {
      const before = lower.slice(0, start);
      const after = lower.slice(end);
      if (trigger.notBefore?.test(before) || trigger.notAfter?.test(after)) continue;
      const quoted = quotes.some(([from, to]) => start > from && end < to);
      const gerund = /^\S*ing\b/.test(lower.slice(start, end));
      if (!isPerformed({ before, after, past: trigger.past, weak: trigger.weak, quoted, gerund })) continue;
      const excerpt = text.slice(clause.start, clause.start + clause.text.length);
      hits.push({ kind: rule.kind, index: clause.start + start, excerpt });
    }
    const excerpt = text.slice(clause.start, clause.start + clause.text.length);
    for (const { kind, start } of passiveSideEffects(lower, quotes)) {
      if (!hits.some((hit) => hit.kind === kind && hit.excerpt === excerpt)) hits.push({ kind, index: clause.start + start, excerpt });
    }
  }
  return hits.sort((a, b) => a.index - b.index);
}

/**
 * Every trigger's verb forms in one pattern. Most clauses of a task hold none of them ("check that the total shows
 * $90"): one scan rules the clause out instead of one scan per trigger (about a hundred). Every trigger's pattern
 * starts with `\b(?:<its forms>)`, so this matches wherever any of them could.
 */
const ANY_TRIGGER_VERB = new RegExp(`\\b(?:${SIDE_EFFECTS.flatMap((rule) => rule.triggers.map((trigger) => trigger.verbForms)).join('|')})`, 'i');

function matchesIn(lower: string): Match[] {
  if (!ANY_TRIGGER_VERB.test(lower)) return [];
  const matches: Match[] = [];
  for (const rule of SIDE_EFFECTS) {
    for (const trigger of rule.triggers) {
      for (const match of lower.matchAll(trigger.pattern)) {
        matches.push({ rule, trigger, start: match.index, end: match.index + match[0].length });
      }
    }
  }
  return matches;
}

/** Drops a match inside a longer one ("send" inside "send money"): the longer phrase names the side effect. */
function outermost(matches: Match[]): Match[] {
  return matches.filter(
    (inner) =>
      !matches.some(
        (outer) =>
          outer !== inner &&
          outer.start <= inner.start &&
          outer.end >= inner.end &&
          outer.end - outer.start > inner.end - inner.start,
      ),
  );
}
