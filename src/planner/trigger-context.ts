/**
 * Whether a side-effect word in a clause is an action the task asks to PERFORM ("Delete the demo account") or a
 * thing it asks to CHECK ("make sure the delete option is disabled"). Pragmatic by design: when a clause gives no
 * reading sign, a strong side-effect verb counts as an action, because asking once is cheaper than a real order.
 */
export interface TriggerUse {
  /** Clause text before the trigger, lower case. */
  before: string;
  /** Clause text after the trigger, lower case. */
  after: string;
  /** The trigger's form is a past tense or participle ("bought", "deleted"). */
  past: boolean;
  /** The word is more often a noun than a verb ("email", "order", "text"): an action only where a verb must be. */
  weak: boolean;
  /** The trigger sits inside quotes: a label ("the 'Buy now' button"). */
  quoted: boolean;
  /** The trigger starts with a gerund ("cancelling the subscription"): with "works" after it, it is done to see that. */
  gerund?: boolean;
}

const NEGATED = /\b(?:don't|dont|do not|does not|doesn't|never|without|avoid|avoiding|not|no need to|instead of|rather than|stop(?: right| just)? before|refrain from|skip|skipping)\s+(?:[\w'-]+\s+){0,2}$/;
const CLICKED = /\b(?:click|clicks|clicking|press|presses|pressing|tap|taps|tapping|hit|push|activate|trigger)\s+(?:on\s+)?(?:the\s+|a\s+)?["']?(?:[\w-]+\s+){0,2}["']?$/;
const DETERMINER_OR_PREPOSITION = /(?:^|\s)(?:the|a|an|this|that|these|those|my|your|our|their|its|his|her|each|every|any|no|some|all|another|which|what|whose|of|in|on|at|for|from|with|under|into|onto|about|via|per|than|like)\s+$|'s\s+$/;
const MOTION_OR_CONTROL_TO = /\b(?:go|goes|going|went|navigate|navigates|navigating|head|heads|proceed|proceeds|proceeding|return|returns|get|gets|move|moves|scroll|scrolls|switch|switches|come|comes|back|redirected|redirects|taken|takes|take|links|linked|jump|jumps|continue|continues|leads|lead|option|button|link|ability|permission|way|right|setting|control|icon|menu|prompt|how|steps|instructions|guide|guidance|tips|where|when)\s+to\s+$/;
const CONTROL_NOUN = /^(?:-\w|\s+(?:buttons?|btns?|links?|options?|icons?|menus?|pages?|screens?|tabs?|modals?|dialogs?|popups?|pop-ups?|ctas?|banners?|badges?|toggles?|checkboxes|checkbox|widgets?|panels?|sections?|labels?|polic(?:y|ies)|flows?|features?|functionality|permissions?|steps?|workflows?|areas?|views?|address(?:es)?|status|totals?|summary|rules?|terms)\b)/;
const CONTENT_NOUN = /^\s+(?:history|list|details?|numbers?|ids?|dates?|count|confirmations?|fields?|forms?|box(?:es)?|text|size|templates?|settings|preferences|inbox|threads?|logs?|notifications?|body|subject|contents?|amount|reference|receipts?)\b/;
const PREDICATE = /^\s+(?:is|are|was|were|has|had|have|should|must|will|can|could|would|may|might|does|did|doesn't|isn't|aren't|wasn't|works?|appears?|shows?|loads?|exists?|opens?|succeeds?|fails?|seems?|looks?|remains?|stays?|displays?|lists?|contains?)\b/;
const PERFECT = /\b(?:have|has|had|having|'ve|'d)\s+(?:[\w-]+\s+)?$/;
const LINKED = new RegExp(
  [
    /\bto\s+$/.source,
    /\b(?:you|we|i|they|he|she|users?|customers?|buyers?|visitors?|admins?|someone|one)(?:\s+(?:can|could|cannot|can't|should|must|will|would|may|might|also|then|now|actually|really|successfully|still|are able to|is able to|be able to))*\s+$/
      .source,
    /\b(?:able to|possible to|allowed to|permitted to|can|could|cannot|can't)\s+$/.source,
    /\b(?:try|tries|trying|start|starts|keep|by|finish|finishes|begin|attempt)\s+$/.source,
  ].join('|'),
);
/** Words before the verb of an imperative clause. */
const FILLER = /^(?:please|kindly|then|and|also|now|first|firstly|second|secondly|next|finally|lastly|afterwards|after that|just|simply|quickly|actually|immediately|go ahead and|try to|try and|attempt to|you should|you must|you need to|you can|we need to|we want to|i want you to|i need you to|i'd like you to|i would like you to|let's|lets|let us|can you|could you|would you|will you|make sure to|make sure you|be sure to|ensure you|remember to|don't forget to|do not forget to|feel free to|go and|go|ok|okay|so|step \d+|\d+[.)])(?:\s+|$)/;
/** A clause that reads rather than acts starts with one of these. */
const OBSERVATION = /^(?:check(?![ -]?out\b)|checks|verify|ensure|make sure|be sure|confirm|assert|expect|validate|see|look|observe|inspect|test (?:that|whether|if)|that|whether|if|open|visit|view|go to|navigate|browse|read|find|search|scroll|review|compare|count|screenshot|take a screenshot|note|watch|monitor|measure|audit|examine|load|hover|show|list|display|determine|tell me)\b/;

/** "cancelling the subscription works": the check is that doing it succeeds, so it is done. */
const DONE_TO_SEE = /^\s+(?:works?|succeeds?|goes through|is possible|is allowed|is permitted)\b/;

export function isPerformed(use: TriggerUse): boolean {
  const { before, after, past, weak, quoted } = use;
  if (NEGATED.test(before)) return false;
  if (use.gerund === true && !quoted && DONE_TO_SEE.test(after)) return true;
  if (CLICKED.test(before) && !CONTENT_NOUN.test(after)) return true;
  if (quoted) return false;
  if (DETERMINER_OR_PREPOSITION.test(before) || MOTION_OR_CONTROL_TO.test(before)) return false;
  if (CONTROL_NOUN.test(after) || PREDICATE.test(after) || (weak && CONTENT_NOUN.test(after))) return false;
  if (past) return PERFECT.test(before);
  const lead = stripFillers(before);
  if (lead === '') return true;
  if (LINKED.test(before)) return true;
  if (OBSERVATION.test(lead)) return false;
  return !weak;
}

function stripFillers(text: string): string {
  let rest = text.trim();
  for (let match = FILLER.exec(rest); match !== null && match[0] !== ''; match = FILLER.exec(rest)) {
    rest = rest.slice(match[0].length);
  }
  return rest;
}
