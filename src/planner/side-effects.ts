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
  | 'form_submission'
  | 'create'
  | 'change'
  | 'data_transfer'
  | 'access'
  | 'schedule';

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
  /^\s+(?:(?:the|a|an|all|any|my|your|this|that|some|one|\d+)\s+)*(?:[\w-]+\s+|"[^"]*"\s+)?(?:filters?|search|query|selection|sorting|sort|highlight|focus|banner|popup|pop-up|overlay|tooltip)\b|^\s+(?:[\w'-]+\s+){0,6}?(?:from|in|inside)\s+(?:the\s+|my\s+|your\s+)?(?:shopping\s+)?(?:cart|basket|bag|wish\s?list|comparison|compare list|favou?rites)\b|^\s*(?:keys?\b|\/)|^[^.;]{0,20}\b(?:add\/remove|remove\/add)\b|^\s+(?:all\s+(?:of\s+)?)?(?:its|the|the field's|the input's)\s+(?:typed\s+)?text\b(?!\s+(?:messages?|posts?|files?))/;
/**
 * Up to three words between a verb and the object that makes it matter ("cancel the Pro subscription", "cancel all
 * pending orders"), but never across a preposition or a conjunction ("click Cancel on the order page").
 */
const WORDS_BEFORE_OBJECT = "(?:\\s+(?!(?:on|in|at|to|into|onto|from|with|for|of|by|and|or|then|but|if|when|while|that|which|button|link|icon|dialog|modal|page)\\b)[\\w'.@-]+){0,3}?";
/** The clause goes only part of the way: "go through checkout as Sauce Bot, up to the overview". */
const STOPS_SHORT = /\b(?:up to|until|as far as|stopping (?:at|before))\s+(?:the\s+)?(?:overview|review|summary|payment|confirmation|last|final|order)\b/;
/** "check out with first name Sauce, last name Bot and zip 94105": the checkout form's details, no order yet. */
const BUYER_DETAILS_ONLY = new RegExp(
  `^\\s+(?:with|as|using)\\s+(?:(?:the|my|a)\\s+)?(?:(?:first|last|full)\\s+name|names?|zip|postal|post\\s+code|address|details|info)\\b|${STOPS_SHORT.source}`,
);
/** Finishing is a purchase only at a checkout: the clause before it must be there ("on the overview page click Finish"). */
const NOT_AT_CHECKOUT = /^(?![\s\S]*\b(?:overview|checkout|check-out|payment|review)\b[\s\S]*\b(?:click|press|tap|hit)\s+(?:on\s+)?(?:the\s+)?["']?$)/;
/**
 * What a product keeps for its users and shows to others: creating one, or changing it, is a real side effect.
 * A user's own scratch list (todos, notes in a fresh browser) and a shopper's cart are not here: the run can take
 * back what it puts there, and nobody else sees it.
 */
const PRODUCT_RECORD =
  "(?:projects?|issues?|(?:pull|merge)\\s+requests?|feature\\s+flags?|tickets?|customers?|contacts?|leads?|deals?|products?|repositor(?:y|ies)|repos?|boards?|workspaces?|teams?|organi[sz]ations?|companies|company|(?:api|access|personal)\\s+(?:keys?|tokens?)|webhooks?|invoices?|records?|posts?|articles?|blog\\s+posts?|pages?|documents?|folders?|events?|campaigns?|(?:shipping|billing|delivery|postal)\\s+address(?:es)?|groups?|channels?|branch(?:es)?|releases?|categor(?:y|ies)|reports?|dashboards?|listings?|coupons?|discount\\s+codes?|environments?|databases?|clients?|vendors?|suppliers?|employees?|courses?|playlists?|albums?|wikis?|milestones?|sprints?|epics?|stor(?:y|ies)|spaces?)\\b(?!\\s+(?:page|dialog|modal|form|button|link|tab|menu|list|filter|field|box|icon|view|size|settings?)\\b)";
/** A stored field or setting: "the price of the Desk Lamp", "the status of ticket #42", "the bio". */
const STORED_FIELD =
  '(?:prices?|currency|status(?:es)?|titles?|bio|descriptions?|company\\s+name|(?:organi[sz]ation|store|shop|workspace|project)\\s+(?:name|settings)|default\\s+[\\w-]+|stock|inventory|due\\s+dates?|assignees?|priority|as\\s+(?:paid|unpaid|resolved|closed|shipped|delivered|spam|refunded))\\b';
/** Into the shopper's own containers ("add the mug to the cart"), which the run can empty again. */
const INTO_A_CONTAINER = /^[^.;]*?\b(?:to|in|into|from|inside)\s+(?:the\s+|my\s+|your\s+)?(?:shopping\s+)?(?:cart|basket|bag|wish\s?list|compare(?:\s+list)?|comparison|favou?rites)\b/;
/** Whether a control word is clicked: otherwise "save"/"update" are read as any verb. */
const NOT_CLICKED = /^(?![\s\S]*\b(?:click|clicks|clicking|press|presses|pressing|tap|taps|tapping|hit)\s+(?:on\s+)?(?:the\s+)?["']?$)/;
/** The roles a product grants. */
const ROLE = '(?:owners?|admins?|administrators?|moderators?|editors?|maintainers?|managers?|viewers?|collaborators?|superusers?|super\\s+admins?|billing\\s+admins?)';
/** Going to the checkout form rather than through it: "click Checkout", "start the checkout", "proceed to checkout". */
const OPENS_CHECKOUT = /\b(?:click|clicks|clicking|press|presses|pressing|tap|taps|tapping|hit|start|starts|starting|begin|begins|open|opens|opening|proceed|proceeds|proceeding|go|goes|going|navigate|navigates|reach|reaches)\s+(?:on\s+)?(?:to\s+)?(?:the\s+)?["']?$/;
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
        { notAfter: STOPS_SHORT },
      ),
      // "then checkout" said as the act; "click Checkout", "start the checkout" open the form (below).
      ...verb('checkout', '', '', { weak: true, notBefore: OPENS_CHECKOUT }),
      // Opening the checkout ("click Checkout", "start the checkout", "proceed to checkout") is navigation: the form it
      // opens places nothing. Checking out said as the act itself is a purchase, unless it only fills in the buyer's
      // details ("check out with first name Sauce") or stops short of the order ("up to the overview").
      ...verb(
        'check[ -]out|checks[ -]out|checking[ -]out',
        'checked[ -]out',
        '(?=\\s*(?:$|[,.;!?]|(?:with|using|as|via|by|now|securely)\\b|(?:(?:the|my|your|our|this)\\s+)?(?:cart|basket|bag|orders?|items?|purchases?)\\b))',
        { notAfter: BUYER_DETAILS_ONLY },
      ),
      // "click Finish" once a task is at the checkout: the shop's last button places the order.
      ...verb('finish|complete|confirm', '', '', { notBefore: NOT_AT_CHECKOUT }),
      ...verb('donate|donates|donating|tip|tips|tipping', 'donated|tipped', '', { weak: true }),
      ...verb('top up|tops up|topping up|top-up|recharge|recharges|recharging', 'topped up|recharged'),
      ...verb(
        'renew|renews|renewing|extend|extends|extending',
        'renewed|extended',
        `${WORDS_BEFORE_OBJECT}\\s+(?:licen[cs]es?|subscriptions?|plans?|memberships?|domains?|contracts?|seats?)`,
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
        // "- Delete" in a list of keys to press names the key.
        { notAfter: HARMLESS_REMOVAL, notBefore: /(?:^|\s)-\s*$|\/$|\b(?:entered|says?|reads?|shows?):\s*$/ },
      ),
      ...verb('trash|trashes|trashing|discard|discards|discarding|bin', 'trashed|discarded|binned', '', {
        notAfter: /^\s+(?:(?:the|my|your|all|any)\s+)*(?:unsaved\s+)?(?:changes|edits|draft)\b/,
      }),
      ...verb('clear|clears|clearing', 'cleared', '\\s+(?:all\\s+)?(?:the\\s+)?completed(?:\\s+(?:todos?|items?|tasks?|entries))?'),
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
      ...verb('forward|forwards|forwarding', 'forwarded', `${WORDS_BEFORE_OBJECT}\\s+(?:e-?mails?|messages?|mails?|tickets?|invoices?|documents?|it|them)\\b`),
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
      // "share the dashboard with carol@example.com": sharing invites its reader.
      ...verb('share|shares|sharing', 'shared', "(?:\\s+[\\w'-]+){0,4}?\\s+with\\s+(?:\\S+@\\S+|(?:the\\s+)?(?:team|everyone|users?|members?|groups?|[A-Z]?[a-z]+)\\b)"),
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
        { notBefore: /\b(?:start|starts|begin|begins)\s+$/ },
      ),
      ...verb('tweet|tweets|tweeting|retweet|retweets|retweeting|repost|reposts|reposting', 'tweeted|retweeted|reposted'),
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
        'issue|issues|issuing|request|requests|requesting|process|processes|processing|give|gives|giving|apply for|applies for|applying for|ask for|asks for|asking for|claim|claims|claiming',
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
        // "Contact Us, Portfolio and Gallery", "Contact Us to /contact-us/": a menu item's name.
        { notAfter: /^\s*(?:,|\)|to\s+\/|link\b|page\b|menu\b)/ },
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
  {
    kind: 'create',
    question:
      'Should the run really create this record (a project, customer, issue, post or other data others can see)? If yes, is it disposable test data the run may leave behind?',
    risk: 'Creating a record writes data that others see and that stays after the run',
    triggers: [
      ...verb(
        'create|creates|creating|add|adds|adding|start|starts|starting|set up|sets up|setting up|save|saves|saving',
        'created|added|started|saved',
        `${DET}{0,3}(?:\\s+(?!(?:on|in|at|to|into|from|with|for|of|by|and|or|then|as)\\b)[\\w'-]+){0,2}?\\s+${PRODUCT_RECORD}`,
        { notAfter: INTO_A_CONTAINER },
      ),
      // A copy is a new record: "duplicate the \"Q3 plan\" document", "fork the repository".
      ...verb(
        'duplicate|duplicates|duplicating|clone|clones|cloning|fork|forks|forking|copy|copies|copying',
        'duplicated|cloned|forked|copied',
        `${DET}{0,3}(?:\\s+(?:"[^"]*"|[\\w'-]+)){0,2}?\\s+${PRODUCT_RECORD}`,
      ),
    ],
  },
  {
    kind: 'change',
    question:
      'Should the run really change this stored data (a record, setting, price or status others rely on)? If yes, which test data may it change, and should it restore the old value afterwards?',
    risk: 'Changing stored data overwrites what was there for everyone',
    triggers: [
      ...verb('rename|renames|renaming', 'renamed'),
      ...verb(
        'edit|edits|editing|update|updates|updating|change|changes|changing|modify|modifies|modifying|replace|replaces|replacing|set|sets|setting|mark|marks|marking|save|saves|saving',
        'edited|updated|changed|modified|replaced|marked|saved',
        `(?:${DET}|\\s+(?!(?:on|in|at|to|into|from|with|for|of|by|and|or|then|as)\\b)[\\w'#-]+){0,4}?\\s+(?:${PRODUCT_RECORD}|${STORED_FIELD})`,
        { notAfter: INTO_A_CONTAINER },
      ),
      ...verb(
        'toggle|toggles|toggling|enable|enables|enabling|disable|disables|disabling|turn on|turns on|turning on|turn off|turns off|turning off|switch on|switches on|switching on|switch off|switches off|switching off',
        'toggled|enabled|disabled|turned on|turned off|switched on|switched off',
        `${WORDS_BEFORE_OBJECT}\\s+(?:feature\\s+flags?|flags?|features?\\s+(?:for|on)\\b|integrations?|webhooks?|automations?|workflows?|rules?)`,
      ),
      // "click Save changes", "press Update profile": the control that commits an edit.
      ...verb('save|update', '', '(?:\\s+(?:changes|settings|profile|details|all))?(?=\\s*(?:["\'),.;]|$|and\\b|then\\b|button\\b))', { notBefore: NOT_CLICKED }),
    ],
  },
  {
    kind: 'data_transfer',
    question:
      'Should the run really move data in or out (upload, import, export, download, attach or sync with another service)? If yes, which test file or destination may it use?',
    risk: 'Uploading, importing, exporting or syncing moves data into the product or out of it',
    triggers: [
      ...verb(
        'upload|uploads|uploading|import|imports|importing|export|exports|exporting|download|downloads|downloading|attach|attaches|attaching|sync|syncs|syncing|synchroni[sz]e|synchroni[sz]es|synchroni[sz]ing|back up|backs up|backing up|restore|restores|restoring|migrate|migrates|migrating',
        'uploaded|imported|exported|downloaded|attached|synced|synchroni[sz]ed|backed up|restored|migrated',
        '',
        // A file put into a form's field is a draft until the form is sent.
        { notBefore: /\b(?:before|without)\s+$/, notAfter: /^(?:[^.;]|\.(?=\S))*?\b(?:to|into|in|on)\s+(?:the\s+)?["']?[\w\s-]*?["']?\s*\b(?:field|input|box|file\s+picker|chooser|drop\s?zone|drop\s+area)\b/ },
      ),
      ...verb(
        'connect|connects|connecting|integrate|integrates|integrating|link|links|linking|disconnect|disconnects|disconnecting',
        'connected|integrated|linked|disconnected',
        `${WORDS_BEFORE_OBJECT}\\s+(?:integrations?|accounts?|apps?|calendars?|repositor(?:y|ies)|repos?|bank(?:\\s+accounts?)?|slack|github|gitlab|google(?:\\s+[\\w]+)?|dropbox|stripe|salesforce|zapier|webhooks?|services?|data\\s+sources?)\\b`,
      ),
    ],
  },
  {
    kind: 'access',
    question:
      'Should the run really grant or take away access (a role, permission or ownership)? If yes, which test user may it change, and should it restore their access afterwards?',
    risk: 'Granting or revoking a role or permission changes who may do what',
    triggers: [
      ...verb('grant|grants|granting|promote|promotes|promoting|demote|demotes|demoting', 'granted|promoted|demoted'),
      ...verb('give|gives|giving|assign|assigns|assigning', 'gave|given|assigned', `(?:\\s+[\\w'@.-]+){0,4}?\\s+(?:${ROLE}\\s+)?(?:access|permissions?|rights|privileges|roles?)\\b`),
      ...verb('make|makes|making', 'made', `(?!\\s+sure\\b)(?:\\s+[\\w'@.-]+){1,3}?\\s+(?:an?\\s+|the\\s+)?(?:co-?)?${ROLE}\\b`),
      ...verb('assign|assigns|assigning', 'assigned', `(?:\\s+[\\w'@.-]+){1,3}?\\s+(?:the\\s+|an?\\s+)?${ROLE}\\b`),
      // "add alice as a maintainer of the repo", "set bob as owner"
      ...verb('add|adds|adding|set|sets|setting', 'added', `(?:\\s+[\\w'@.-]+){1,3}?\\s+as\\s+(?:an?\\s+|the\\s+|new\\s+)?(?:co-?)?${ROLE}\\b`),
    ],
  },
  {
    kind: 'schedule',
    question:
      'Should the run really schedule, book or move this (an event, appointment, reservation or scheduled send)? If yes, which slot may it use, and should it cancel it afterwards?',
    risk: 'Scheduling or rescheduling commits people, rooms or sends to a time',
    triggers: [
      ...verb('schedule|schedules|scheduling|reschedule|reschedules|rescheduling|rsvp|rsvps|rsvping', 'scheduled|rescheduled|rsvped|rsvp\'d', '', { weak: true }),
      ...verb(
        'book|books|booking|reserve|reserves|reserving',
        'booked|reserved',
        `${DET}?(?:\\s+[\\w-]+){0,2}?\\s+(?:meetings?|rooms?|desks?|calls?|sessions?|classes|class|courts?|spots?|trains?|buses|bus|events?|tours?)`,
      ),
      ...verb(
        'set up|sets up|setting up|create|creates|creating|add|adds|adding',
        'created|added',
        `${DET}?(?:\\s+[\\w-]+){0,2}?\\s+(?:recurring|weekly|daily|monthly|yearly|annual|scheduled)\\b(?:\\s+[\\w"'-]+){0,5}`,
      ),
      ...verb('move|moves|moving|postpone|postpones|postponing', 'moved|postponed', `${WORDS_BEFORE_OBJECT}\\s+(?:meetings?|appointments?|events?|bookings?|reservations?|calls?)\\b`),
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
  return withoutTakenBack(text, rawSideEffects(text));
}

/** A shop's cart, basket or bag: what is removed there a shopper can add again. */
const SHOPPING = /\b(?:cart|basket|shopping bag)\b/i;
/** A removal that names what a product keeps for others (a member, a comment, a project) is a delete, cart or not. */
const KEPT_THING = new RegExp(`^(?:\\s+(?!(?:on|in|at|to|from|under|next|inside|of|for|by|and|then)\\b)[\\w'"-]+){0,4}?\\s+(?:${PRODUCT_RECORD}|users?|members?|accounts?|comments?|reviews?|messages?|files?|data|admins?|people|persons?)`, 'i');
/** The task cancels the confirmation the delete asks for: "then press Cancel in the confirmation dialog". */
const CANCELLED_CONFIRMATION = /\b(?:press|click|tap|hit|choose|select)\s+(?:on\s+)?["']?(?:cancel|no|keep(?:\s+it)?|go back)["']?\s+(?:in|on)\s+(?:the\s+)?(?:confirmation|confirm|delete|warning)\s+(?:dialog|modal|prompt|box|popup|pop-up)\b/i;
/** A sentence that goes only part of the way through a checkout ("… up to the overview", "Don't finish the order"). */
const SHORT_OF_ORDER = new RegExp(`${STOPS_SHORT.source}|\\b(?:don't|do not|without)\\s+(?:finish|finishing|complete|completing|place|placing|submit|submitting)(?:ing)?\\s+(?:the\\s+)?(?:order|purchase|checkout)\\b`, 'i');

/**
 * Hits the task itself takes back, read across clauses: a removal in a task about a shop's cart that names no record
 * ("press Remove on it"), a delete whose confirmation the task cancels, and a checkout the same sentence stops short
 * of the order.
 */
function withoutTakenBack(text: string, hits: SideEffectHit[]): SideEffectHit[] {
  const straight = straightenQuotes(text);
  return hits.filter((hit) => {
    const at = straight.slice(hit.index);
    if (hit.kind === 'delete' && /^(?:remov|delet)/i.test(at) && SHOPPING.test(straight) && !KEPT_THING.test(at.replace(/^\S+/, ''))) return false;
    if (hit.kind === 'delete' && CANCELLED_CONFIRMATION.test(at)) return false;
    if (hit.kind === 'purchase' && /^(?:check|go|going|goes|went)/i.test(at)) {
      const sentence = at.split(/[.!?](?:\s|$)/)[0]!;
      if (SHORT_OF_ORDER.test(sentence)) return false;
    }
    // A key's name in what a page echoes ('You entered: DELETE').
    if (/^\p{Lu}{2,}["']?$/u.test(hit.excerpt.trim())) return false;
    // A control named in a list of names ("Home, About, Contact Us, Portfolio"): Title Case, alone in its clause.
    if (/^[A-Z]/.test(at) && hit.excerpt.trim().split(/\s+/).length <= 2 && /^\p{Lu}\p{Ll}*(?:\s+\p{Lu}\p{Ll}*)?$/u.test(hit.excerpt.trim())) return false;
    return true;
  });
}

function rawSideEffects(text: string): SideEffectHit[] {
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
