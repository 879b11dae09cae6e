/**
 * Tasks too vague to know what to check ("test the site", "make sure it works"), and answers that say nothing
 * ("not sure", "?").
 */
export const VAGUE_QUESTION = 'What exactly should be checked, and what result counts as success?';

const MIN_WORDS = 3;

const LEADING = /^(?:please|kindly|just|quickly|can you|could you|would you|will you|go ahead and|i want you to|i need you to|i'd like you to|let's|lets|we need to|you should)\s+/;
const TRAILING = /\s+(?:please|thanks|thank you|for me|now|quickly|again|asap|properly|thoroughly|fully|completely|end to end|e2e|everywhere|for us|today)$/;

const THING =
  "(?:(?:the|our|my|this|that|your|a|whole|entire|all|all of the|every|of|new|current|latest)\\s+)*(?:site|website|web site|web app|webapp|app|application|product|platform|system|service|page|pages|ui|frontend|front end|everything|things|stuff|it|this|all|whole thing|thing|build|release|deploy|deployment|changes|pr|url|link|that)";
const CHECK_VERB =
  '(?:test|tests|check|qa|verify|validate|review|inspect|look at|explore|try|try out|examine|audit|go through|run through|smoke test|sanity check|regression test|click through|play with|have a look at|take a look at)';
const VAGUE_TASKS: readonly RegExp[] = [
  new RegExp(`^${CHECK_VERB}(?:\\s+${THING})?$`),
  new RegExp(`^${THING}$`),
  new RegExp(
    `^(?:make sure|ensure|check|verify|see|confirm|test)(?:\\s+(?:that|if|whether))?\\s+${THING}(?:\\s+(?:still|all|really|actually))?\\s+(?:works?|working|functions?|is (?:fine|ok|okay|good|working|not broken|correct|right|alright|all right)|are (?:fine|ok|okay|good|working)|looks? (?:good|fine|ok|okay|right)|is up|loads?)$`,
  ),
  new RegExp(`^(?:does|is|are)\\s+${THING}\\s+(?:work|working|fine|ok|okay|broken|up)$`),
  new RegExp(`^(?:find|look for|hunt for|search for|report)(?:\\s+(?:any|all|some|the))?\\s+(?:bugs|issues|problems|errors|regressions)(?:\\s+(?:on|in|with)\\s+${THING})?$`),
  new RegExp(`^(?:do|run|execute|perform)(?:\\s+(?:some|a|the|all|all the|any|full|quick|basic))*\\s+(?:qa|testing|tests?|checks?|sanity checks?|smoke tests?|regression tests?|e2e tests?|end to end tests?)(?:\\s+(?:on|for|against)\\s+${THING})?$`),
  /^(?:look|click|poke|play) around$/,
  /^everything$/,
];

/** Why `task` is too vague to run, or undefined when it says what to check. */
export function vagueness(task: string): string | undefined {
  const normal = normalise(task);
  if (normal === '') return 'The task is empty.';
  if (normal.split(' ').length < MIN_WORDS) return `The task "${task.trim()}" is too short to know what to check.`;
  if (isGeneric(normal)) return `The task "${task.trim()}" names no page, feature or expected result to check.`;
  return undefined;
}

/** An answer to `VAGUE_QUESTION` that names something to check (not "yes", "everything" or "not sure"). */
export function describesCheck(answer: string): boolean {
  if (isEvasive(answer)) return false;
  const normal = normalise(answer);
  return !/^(?:yes|no|ok|okay|sure|yep|yeah|nope|y|n|fine|go ahead|right|correct|all good)$/.test(normal) && !isGeneric(normal);
}

const EVASIONS =
  /\b(?:i\s+)?(?:really\s+)?(?:do\s+not|don't|dont|do\s+n't)\s+know\b|\bnot\s+(?:really\s+|quite\s+)?(?:sure|certain|decided)(?:\s+yet)?\b|\b(?:unsure|uncertain|undecided)\b|\bno\s+idea\b|\b(?:maybe|perhaps|possibly|probably)\b|\b(?:idk|dunno|whatever|tbd|tba|n\s?a|hmm+|huh|um+|uh+|er+|eh)\b|\bup\s+to\s+you\b|\byou\s+(?:decide|choose|pick)\b|\byour\s+call\b|\bwho\s+knows\b|\b(?:doesn't|doesnt|does\s+not)\s+matter\b|\bno\s+comment\b|\bcan't\s+say\b|\bi\s+guess\b|\bi'm\b|\bi\s+am\b|\b(?:sorry|well|honestly|so|ask\s+(?:someone|somebody)(?:\s+else)?|later|pass)\b/g;

/** An answer that does not decide anything: empty, only punctuation, "not sure", "I don't know", "maybe". */
export function isEvasive(answer: string): boolean {
  return normalise(answer).replace(EVASIONS, ' ').trim() === '';
}

function isGeneric(normal: string): boolean {
  let text = normal.replace(LEADING, '').replace(TRAILING, '');
  text = text.replace(LEADING, '').replace(TRAILING, '');
  return VAGUE_TASKS.some((pattern) => pattern.test(text));
}

/** Lower case, URLs as "the site", punctuation as spaces, single spaces. */
function normalise(text: string): string {
  return text
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .toLowerCase()
    .replace(/\bhttps?:\/\/\S+/g, ' the site ')
    .replace(/[^\p{L}\p{N}'\s]+/gu, ' ')
    .replace(/(?<!\p{L})'|'(?!\p{L})/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
