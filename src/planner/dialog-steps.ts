/**
 * The browser's own dialogs (alert, confirm, prompt) as people write about them: "an alert saying 'Saved' should
 * appear; press OK", "check that the confirm box says 'Delete it?', press Cancel", "when the prompt 'Your name?'
 * comes up, type 'Ada' into it and press OK", "cancel it without typing anything", "accept the confirm dialog".
 *
 * A mention of the dialog is a `dialog` step (its text, accepted unless the task says otherwise); the clauses that
 * answer it ("press OK", "type 'Ada' into it", "dismiss it") complete that step in place (`replacesLast`), so the
 * runner knows the whole answer before the step that opens the dialog acts. "An alert" or "a dialog" can also be an
 * element of the page (a banner with role alert, a modal): those words mean the browser's dialog only when the task
 * says so (a JavaScript or browser alert, a confirm or prompt box) or answers the dialog with OK or Cancel.
 */
import type { PlanStep } from '../core/plan.js';
import type { Reading, ReadingContext } from './reading.js';
import { matchOutsideQuotes, slugKey, trimPunctuation, unquote } from './words.js';

type DialogStep = Extract<PlanStep, { action: 'dialog' }>;

/** Words that can only mean the browser's own dialog. */
const BROWSER_DIALOG =
  /\b(?:js|javascript|browser(?:'s)?|native|system)\s+(?:alert|confirm(?:ation)?|prompt|dialog|pop-?up)s?\b|\bconfirm(?:ation)?\s+(?:box|dialog|pop-?up|window)\b|\bprompt\s+(?:box|dialog|window)\b|\b(?:the|a|an)\s+prompt\b(?!\s+(?:for|to)\b)/i;
/** An alert answered the way only a browser dialog is: with OK or Cancel, accepted or dismissed. */
const ALERT = /\b(?:alert|dialog|pop-?up)s?\b/i;
const ANSWERED =
  /\b(?:press|click|hit|tap|choose|select|with)\s+(?:on\s+)?(?:the\s+)?["']?(?:ok|okay|cancel)["']?(?:\s+button)?\b|\b(?:accept|dismiss)\s+(?:it|the\s+(?:alert|confirm|prompt|dialog|pop-?up))\b/i;

/** Whether the task speaks of the browser's own dialogs, so that "the alert" and "the dialog" mean one of them. */
export function speaksOfBrowserDialogs(task: string): boolean {
  return BROWSER_DIALOG.test(task) || (ALERT.test(task) && ANSWERED.test(task));
}

/** What people call the dialog: "the alert", "the JS confirm box", "the prompt", "the dialog's". */
const NOUN = String.raw`(?:(?:js|javascript|browser(?:'s)?|native|system)\s+)?(?:alert|confirm(?:ation)?|prompt|dialog|pop-?up|message box)(?:\s+(?:box|dialog|window|pop-?up|message))?`;
const A = String.raw`(?:an?|the|another|a\s+second|a\s+new)\s+`;
const QUOTED = String.raw`("[^"]*"|'[^']*')`;
const APPEARS = String.raw`(?:should\s+|will\s+|must\s+|then\s+)*(?:appears?|pops?\s+up|comes?\s+up|shows?\s+up|opens?|is\s+shown|be\s+shown|is\s+displayed|be\s+displayed)`;
const SAYING = String.raw`(?:saying|that\s+says|which\s+says|reading|with\s+(?:the\s+)?(?:text|message)|:)`;
const SAYS = String.raw`(?:says|reads|is|shows|displays|contains|should\s+(?:say|read|be|show|contain)|must\s+(?:say|read|be)|will\s+say)`;
const LEAD = String.raw`(?:(?:check|verify|confirm|make\s+sure|ensure|expect|assert|see)(?:\s+that)?\s+)?`;
const WHEN = String.raw`(?:(?:when|once|after|as\s+soon\s+as|if)\s+)?`;

/** A dialog and what it says, in the orders people put them. */
const MENTIONS: readonly RegExp[] = [
  // "an alert saying 'X' should appear", "a confirm box with the text 'X' pops up"
  new RegExp(String.raw`^${WHEN}${A}${NOUN}\s+${SAYING}\s+${QUOTED}(?:\s+${APPEARS})?$`, 'i'),
  // "an alert should pop up saying 'X'", "when the prompt comes up with the text 'X'"
  new RegExp(String.raw`^${WHEN}${A}${NOUN}\s+${APPEARS}(?:\s+${SAYING})?\s+${QUOTED}$`, 'i'),
  // "when the prompt 'X' comes up", "the alert 'X' appears"
  new RegExp(String.raw`^${WHEN}${A}${NOUN}\s+${QUOTED}\s+${APPEARS}$`, 'i'),
  // "check that the confirm box says 'X'", "the dialog's text is 'X'", "the prompt should say 'X'"
  new RegExp(String.raw`^${LEAD}(?:the\s+|its\s+)?${NOUN}(?:'s|s')?(?:\s+(?:text|message))?\s+${SAYS}\s+${QUOTED}$`, 'i'),
  // "check the text of the alert is 'X'"
  new RegExp(String.raw`^${LEAD}the\s+(?:text|message)\s+(?:of|in|on)\s+the\s+${NOUN}\s+${SAYS}\s+${QUOTED}$`, 'i'),
];
/** A dialog with nothing said about its text: "an alert should appear", "check the alert's text", "read the alert". */
const BARE_MENTION = new RegExp(
  String.raw`^(?:${WHEN}${A}${NOUN}\s+${APPEARS}|${LEAD}(?:read\s+)?(?:the\s+)?${NOUN}(?:'s|s')?(?:\s+(?:text|message))?|(?:check|read|note)\s+(?:the\s+)?(?:text|message)\s+(?:of|in)\s+the\s+${NOUN})$`,
  'i',
);

const OK = String.raw`["']?(?:ok|okay)["']?`;
const CANCEL = String.raw`["']?cancel["']?`;
const WHICH = String.raw`(?:(?:first|second|third|next|last|other|new|following)\s+)?`;
const ON_IT = String.raw`(?:\s+(?:on|in|of)\s+(?:it|the\s+${WHICH}${NOUN}))?`;
const PRESS = String.raw`(?:press|click|hit|tap|choose|select|push)\s+(?:on\s+)?(?:the\s+)?`;
const IT = String.raw`(?:it|that|the\s+${WHICH}${NOUN})`;
const ACCEPTS: readonly RegExp[] = [
  new RegExp(String.raw`^${PRESS}${OK}(?:\s+button)?${ON_IT}$`, 'i'),
  new RegExp(String.raw`^(?:close|answer|confirm)\s+${IT}\s+(?:with|by\s+(?:pressing|clicking))\s+(?:the\s+)?${OK}(?:\s+button)?$`, 'i'),
  new RegExp(String.raw`^(?:accept|ok|okay|acknowledge)\s+${IT}$`, 'i'),
  new RegExp(String.raw`^(?:close|dismiss)\s+the\s+alert$|^close\s+it$`, 'i'),
];
const DISMISSES: readonly RegExp[] = [
  new RegExp(String.raw`^${PRESS}${CANCEL}(?:\s+button)?${ON_IT}(?:\s+without\s+.+)?$`, 'i'),
  new RegExp(String.raw`^(?:close|answer)\s+${IT}\s+(?:with|by\s+(?:pressing|clicking))\s+(?:the\s+)?${CANCEL}(?:\s+button)?$`, 'i'),
  new RegExp(String.raw`^(?:cancel|dismiss|decline|reject|refuse)\s+${IT}(?:\s+without\s+.+)?$`, 'i'),
];
/** Text typed into a prompt: "type 'Ada' into it", "enter 'Ada' in the prompt", "answer the prompt with 'Ada'". */
const PROMPT_TEXT = new RegExp(
  String.raw`^(?:(?:type|enter|write|input|put|fill\s+in)\s+${QUOTED}\s+(?:into|in)\s+(?:it|the\s+${NOUN}(?:'s\s+(?:field|box|input))?|the\s+(?:field|box|input|text\s+field))|(?:answer|reply\s+to|respond\s+to|fill\s+in|fill)\s+${IT}\s+with\s+${QUOTED})$`,
  'i',
);

/** "…, then press OK": a dialog step whose answer the task gave (one with no answer yet is accepted by default). */
const ANSWERED_DESCRIPTION = /, then (?:press|type)\b/;

/**
 * A clause about the browser's dialog, or undefined. A mention is read when the clause itself says it is the
 * browser's dialog or the task speaks of such dialogs; an answer completes the dialog step just before it that has
 * none yet (or, naming the dialog, "accept the confirm dialog", is a dialog step of its own).
 */
export function readDialogClause(clause: string, context: ReadingContext): Reading | undefined {
  // "A browser alert saying 'Saved!' pops up: click OK on it": the mention, then its answer.
  const colon = matchOutsideQuotes(trimPunctuation(clause), /^(.+?)\s*[:;]\s+(.+)$/);
  if (colon !== undefined) {
    const mention = readDialogClause(colon[1]!, context);
    const only = mention?.kind === 'steps' && mention.steps.length === 1 ? mention.steps[0] : undefined;
    if (mention?.kind === 'steps' && only?.action === 'dialog') {
      const answer = readDialogClause(colon[2]!, { ...context, last: only });
      if (answer?.kind === 'steps' && answer.replacesLast === true) return { ...answer, criteria: mention.criteria, replacesLast: mention.replacesLast };
    }
  }
  const text = trimPunctuation(clause);
  const browser = context.browserDialogs === true || BROWSER_DIALOG.test(text);
  const last = context.last?.action === 'dialog' ? context.last : undefined;
  const pending = last !== undefined && !ANSWERED_DESCRIPTION.test(last.description) ? last : undefined;

  const answer = readAnswer(text);
  if (answer !== undefined && (pending !== undefined || (browser && answer.namesDialog))) {
    const base: DialogStep = pending ?? { action: 'dialog', description: '', accept: true };
    const promptText = answer.promptText ?? base.promptText;
    const step: DialogStep = { ...base, accept: answer.accept, ...(promptText === undefined ? {} : { promptText }) };
    // "type 'Ada' into it" alone says what goes in, not yet which button: "and press OK" may follow.
    const answered = answer.button;
    return { kind: 'steps', steps: [{ ...step, description: describe(step, answered) }], criteria: [], assumptions: [], ...(pending !== undefined ? { replacesLast: true } : {}) };
  }
  if (!browser) return undefined;

  for (const pattern of MENTIONS) {
    const match = matchOutsideQuotes(text, pattern);
    const said = match?.[1] === undefined ? undefined : unquote(match[1]);
    if (said === undefined || said.trim() === '') continue;
    // The same dialog said again ("the confirm box says 'X'" after "a confirm box opens"): its text, no new dialog.
    if (pending !== undefined && pending.text === undefined) {
      const step: DialogStep = { ...pending, text: said, criterion: pending.criterion ?? slugKey(text) };
      return { kind: 'steps', steps: [{ ...step, description: describe(step, false) }], criteria: pending.criterion === undefined ? [{ key: step.criterion!, description: text }] : [], assumptions: [], replacesLast: true };
    }
    if (pending !== undefined && sameText(pending.text, said)) return { kind: 'steps', steps: [], criteria: [], assumptions: [`Reads "${clause}" as the dialog already expected to say ${JSON.stringify(said)}.`] };
    const key = slugKey(text.replace(/^(?:check|verify|confirm|make sure|ensure|expect|assert|see)(?:\s+that)?\s+/i, ''));
    const step: DialogStep = { action: 'dialog', description: '', accept: true, text: said, criterion: key };
    return { kind: 'steps', steps: [{ ...step, description: describe(step, false) }], criteria: [{ key, description: text }], assumptions: [] };
  }
  if (matchOutsideQuotes(text, BARE_MENTION) !== undefined) {
    // "Check the alert's text" right after the mention that said it: nothing new to check.
    if (pending !== undefined) return { kind: 'steps', steps: [], criteria: [], assumptions: [`Reads "${clause}" as the dialog already expected.`] };
    const step: DialogStep = { action: 'dialog', description: '', accept: true };
    return { kind: 'steps', steps: [{ ...step, description: describe(step, false) }], criteria: [], assumptions: [] };
  }
  return undefined;
}

interface Answer {
  accept: boolean;
  promptText?: string;
  /** OK or Cancel was said (not only the text to type). */
  button: boolean;
  /** The clause names the dialog ("accept the alert"), not only "it" or a button. */
  namesDialog: boolean;
}

function readAnswer(text: string): Answer | undefined {
  const namesDialog = new RegExp(NOUN, 'i').test(text.replace(/["'][^"']*["']/g, ''));
  if (ACCEPTS.some((pattern) => matchOutsideQuotes(text, pattern) !== undefined)) return { accept: true, button: true, namesDialog };
  if (DISMISSES.some((pattern) => matchOutsideQuotes(text, pattern) !== undefined)) return { accept: false, button: true, namesDialog };
  const typed = matchOutsideQuotes(text, PROMPT_TEXT);
  const value = typed === undefined ? undefined : unquote((typed[1] ?? typed[2])!);
  if (value !== undefined) {
    const answers = /^(?:answer|reply|respond)\b/i.test(text);
    return { accept: true, promptText: value, button: answers, namesDialog };
  }
  return undefined;
}

function sameText(a: string | undefined, b: string): boolean {
  return a !== undefined && a.replace(/\s+/g, ' ').trim().toLowerCase() === b.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** `Expect a dialog saying "X", then type "Ada" and press OK`. */
function describe(step: DialogStep, answered: boolean): string {
  const what = step.text === undefined ? 'Expect a dialog' : `Expect a dialog saying ${JSON.stringify(step.text)}`;
  const typed = step.promptText === undefined ? '' : `type ${JSON.stringify(step.promptText)} and `;
  if (!answered) return step.promptText === undefined ? `${what} and accept it` : `${what}, type ${JSON.stringify(step.promptText)} into it and accept it`;
  return `${what}, then ${typed}press ${step.accept ? 'OK' : 'Cancel'}`;
}
