/**
 * A task's text → a Plan, clause by clause (step-clauses.ts, step-grammar.ts), or the questions to ask first. The
 * builder keeps what a clause reader may know (pages visited so far, the last step), keeps criterion keys unique,
 * and decides what to do with a clause no reader recognises: a clause that leaves out its verb borrows the previous
 * clause's ("add the Desk Lamp and the Blue Mug to the cart"); otherwise it is asked about, quoting the clause, and
 * the answer is read in its place ("skip it" drops it).
 */
import { planSchema, type Plan, type PlanStep, type SuccessCriterion } from '../core/plan.js';
import { pagePath } from './pages.js';
import type { Reading, ReadingContext } from './reading.js';
import { startsWithVerb } from './clause-verbs.js';
import { speaksOfBrowserDialogs } from './dialog-steps.js';
import { readItemClause } from './item-steps.js';
import { checkoutDetailsEnd, readCheckoutDetails } from './checkout-details.js';
import { readSubjectlessShows } from './subjectless-shows.js';
import { readContinuation, type LastAssertion } from './clause-continuations.js';
import { referToBusyText } from './earlier-texts.js';
import { busyWhile } from './likewise.js';
import { expandEachInTurn, expandEachToAddress } from './each-in-turn.js';
import { expandKeyLists } from './key-lists.js';
import { readSharedPredicate } from './shared-predicates.js';
import { clauseText, splitSteps, stripFiller, type StepClause } from './step-clauses.js';
import { leadingVerb, readClause } from './step-grammar.js';
import { excerpt, maskQuotes, slugKey } from './words.js';

/** The texts a clause quotes, in order. */
function* maskedQuotes(text: string): Generator<string> {
  for (const match of text.matchAll(/"([^"]+)"|(?<![\w])'([^']+)'(?![\w])/g)) yield (match[1] ?? match[2])!.trim();
}

export interface PlanRequest {
  /** What to plan: the task (or the answers that said what to check), without Clarifications blocks. */
  text: string;
  testValueNames: readonly string[];
  evidenceCriteria: readonly string[];
  /** An offset in `text`: the clause holding it and all after it are left out (a side effect answered "no"). */
  stopAt?: number;
  /** The latest deciding answer to a question asked in an earlier round. */
  answerTo(question: string): string | undefined;
}

export interface OpenQuestion {
  question: string;
  ambiguity: string;
  /** Offset in the text of the clause that needs it: questions are asked in this order. */
  index: number;
}

export type PlanResult = { kind: 'plan'; plan: Plan; assumptions: string[] } | { kind: 'questions'; open: OpenQuestion[] };

const MAX_STEPS = 100;
const MAX_ANSWER_DEPTH = 5;
/** Questions asked in one round: each wants an answer, and the API takes at most 20 answers. */
export const MAX_QUESTIONS = 10;
/** A clause that is only an object ("the Blue Mug to the cart", "Password with …", "/about"), not a verb of its own. */
const OBJECT_ONLY = /^(?:(?:the|a|an|my|your|our|this|that)\s|["'/]|https?:|[A-Z0-9])/;
/** A field and its quoted value, the next of a list after "enter" ("…, last name 'Bot' and zip code '94105'"). */
const FIELD_AND_VALUE = /^[a-z][\w/-]*(?:\s+[\w/-]+){0,3}\s+["'][^"']+["']$/i;
/** A clause that says something of its own ("the banner should then glow"), not the object of the verb before it. */
const STATEMENT = /\b(?:should|must|will|would|shall|is|are|was|were|has been|have been)\b/i;

/** Steps that act on an element: after one on something that is not an item, "it" is that element. */
const ACTING: ReadonlySet<PlanStep['action']> = new Set(['click', 'dblclick', 'check', 'fill', 'select', 'hover', 'clear']);

/** Verbs whose object is a statement ("check that … and that it is still there"). */
const ASSERTING = /^(?:check|verify|make sure|ensure|confirm|expect)\b/i;

/** An answer that only agrees ("yes", "go ahead", "sure, do it"), perhaps followed by what to do. */
const CONSENT = /^(?:yes|yeah|yep|ok|okay|sure|go ahead|please do|do it|proceed|that's fine|that is fine)\b[\s,.!]*/i;
const SKIP = /^(?:skip|ignore|drop|leave|omit|nothing|none|no step|never ?mind|forget)\b|\b(?:skip (?:it|that|this)|leave (?:it|that) out|ignore (?:it|that))\b/i;

export function unknownClauseQuestion(clause: string): string {
  return `I could not turn "${excerpt(clause)}" into a browser step; what should I do there?`;
}

export function planTask(asked: PlanRequest): PlanResult {
  // A list of keys, one a line with its checks, and one action on each of several in turn, written out as sentences
  // (key-lists.ts, each-in-turn.ts). Not when an answer stops the plan at an offset of the text as written.
  const request = asked.stopAt === undefined ? { ...asked, text: expandEachToAddress(expandEachInTurn(expandKeyLists(asked.text))) } : asked;
  const builder = new PlanBuilder(request);
  const text = clauseText(request.text);
  // "The loading message" is the busy text quoted before it ("Loading..."), read as that text (earlier-texts.ts).
  const clauses = splitSteps(request.text).map((clause) => ({ ...clause, text: referToBusyText(clause.text, text.slice(0, clause.start)) }));
  for (let index = 0; index < clauses.length; ) {
    const clause = clauses[index]!;
    if (request.stopAt !== undefined && clause.end > request.stopAt) break;
    // A clause and those that go on it without a verb of their own ("add 'a', 'b' and 'c'", "check that 'a' and 'b'
    // are done"): read whole first by the readers of lists; otherwise clause by clause, as before.
    let next = index + 1;
    while (next < clauses.length && continues(text, clauses[next - 1]!, clauses[next]!)) next += 1;
    // "check out with first name Jane, last name Roe and zip 10001": the details go on though "zip" looks like a verb.
    next = Math.max(next, checkoutDetailsEnd(text, clauses, index, request));
    // The longest run that a list reader takes whole: "the list shows 'a', 'b' and 'c', and 'b' is saved" is a list
    // and then a clause of its own, though nothing but a comma and "and" stands between them.
    let taken = false;
    for (let end = next; end > index + 1 && !taken; end -= 1) {
      const last = clauses[end - 1]!;
      if (request.stopAt !== undefined && last.end > request.stopAt) continue;
      const whole = { text: stripFiller(text.slice(clause.start, last.end)), start: clause.start, end: last.end };
      if (builder.addWhole(whole)) {
        index = end;
        taken = true;
      }
    }
    if (taken) continue;
    builder.add(clause);
    index += 1;
  }
  return builder.finish();
}

/** `next` goes on `before`: only a comma or "and" between them, no filler ("then") and no verb of its own. */
function continues(text: string, before: StepClause, next: StepClause): boolean {
  if (!/^\s*(?:,|,?\s*(?:and|&))\s*$/i.test(text.slice(before.end, next.start))) return false;
  if (text.slice(next.start, next.end).trim() !== next.text) return false;
  return !startsWithVerb(next.text);
}

class PlanBuilder {
  private readonly steps: PlanStep[] = [];
  private readonly criteria: SuccessCriterion[] = [];
  private readonly assumptions: string[] = [];
  private readonly open: OpenQuestion[] = [];
  private readonly visited: string[] = [];
  /** The list items the task created, and the one it spoke of last ("it"). */
  private readonly items: string[] = [];
  private lastItem: string | undefined;
  private lastVerb: string | undefined;
  /** The last clause read as assertions only: "…, and in local storage" repeats it there. */
  private lastAssertion: LastAssertion | undefined;

  private readonly browserDialogs: boolean;

  constructor(private readonly request: PlanRequest) {
    this.browserDialogs = speaksOfBrowserDialogs(request.text);
  }

  /** Reads clauses joined into one by a list; false (and nothing added) when no list reader takes it whole. */
  addWhole(clause: StepClause): boolean {
    const reading = readCheckoutDetails(clause.text, this.context()) ?? readItemClause(clause.text, this.context()) ?? readSubjectlessShows(clause.text) ?? readSharedPredicate(clause.text, (text) => readClause(text, this.context()));
    if (reading === undefined || reading.kind !== 'steps') return false;
    this.apply(reading, clause);
    return true;
  }

  /** `depth`: how many answers deep the clause is (an answer read in place of a clause may itself be asked about). */
  add(clause: StepClause, depth = 0): void {
    // "… should show while it works": the while-clause only says the page is busy (likewise.ts).
    const busy = busyWhile(clause.text, clauseText(this.request.text).slice(0, clause.start));
    if (busy !== undefined) {
      this.assumptions.push(busy);
      return;
    }
    let reading = readClause(clause.text, this.context());
    const objectOnly = OBJECT_ONLY.test(clause.text) || (FIELD_AND_VALUE.test(clause.text) && !startsWithVerb(clause.text));
    if (reading.kind === 'unknown' && this.lastVerb !== undefined && objectOnly && (!STATEMENT.test(maskQuotes(clause.text)) || ASSERTING.test(this.lastVerb))) {
      reading = readClause(`${this.lastVerb} ${clause.text}`, this.context());
    } else if (reading.kind === 'steps') {
      this.lastVerb = leadingVerb(clause.text);
    }
    if (reading.kind === 'unknown') {
      // A clause that means something beside the one before it: a place, a contrast, a condition, a summary.
      const continuation = readContinuation({
        clause: clause.text,
        before: clauseText(this.request.text).slice(0, clause.start),
        colon: clause.colon === true,
        last: this.lastAssertion,
        read: (text) => readClause(text, this.context()),
      });
      if (continuation?.kind === 'remark') this.assumptions.push(continuation.assumption);
      if (continuation?.kind === 'steps') this.apply(continuation.reading, clause);
      if (continuation !== undefined) return;
    }
    if (reading.kind === 'unknown') {
      this.unknown(clause, depth);
      return;
    }
    this.apply(reading, clause);
  }

  private unknown(clause: StepClause, depth: number): void {
    const question = unknownClauseQuestion(clause.text);
    const answer = depth >= MAX_ANSWER_DEPTH ? undefined : this.request.answerTo(question);
    if (answer === undefined) {
      this.open.push({
        question,
        ambiguity: `"${excerpt(clause.text)}" is not a step the rule planner knows (go to, click, fill, select, check, press, wait for, expect, probe).`,
        index: clause.start,
      });
      return;
    }
    if (SKIP.test(answer.trim())) {
      this.assumptions.push(`Leaves out "${excerpt(clause.text)}", as answered (${JSON.stringify(answer)}).`);
      return;
    }
    // "Yes, go ahead": do what the clause says as well as it can be read. What it quotes is what the page must show
    // ("the result should then read 'Saved'"); a clause with nothing to check or do is a remark, left out and said so.
    if (CONSENT.test(answer.trim())) {
      // "Yes, go ahead and click Pro": what follows the consent, when every part of it is a step; else the clause.
      let rest = answer.trim();
      while (CONSENT.test(rest)) rest = rest.replace(CONSENT, '').replace(/^[\s,.:;!-]*(?:and\s+)?/i, '');
      const parts = splitSteps(rest);
      if (parts.length > 0 && parts.every((part) => readClause(part.text, this.context()).kind === 'steps')) {
        for (const part of parts) this.add({ text: part.text, start: clause.start, end: clause.end }, depth + 1);
        return;
      }
      this.consented(clause, answer);
      return;
    }
    for (const part of splitSteps(answer)) this.add({ text: part.text, start: clause.start, end: clause.end }, depth + 1);
  }

  private consented(clause: StepClause, answer: string): void {
    const quoted = [...maskedQuotes(clause.text)];
    if (quoted.length > 0) {
      const key = this.uniqueKey(slugKey(clause.text));
      this.criteria.push({ key, description: excerpt(clause.text) });
      for (const text of quoted) {
        this.steps.push({ action: 'expectText', description: `Expect the page to show ${JSON.stringify(text)}`, text, criterion: key });
      }
      this.assumptions.push(`Reads "${excerpt(clause.text)}" as: the page shows ${quoted.map((text) => JSON.stringify(text)).join(' and ')}, as answered (${JSON.stringify(answer)}).`);
      return;
    }
    this.assumptions.push(`Leaves out "${excerpt(clause.text)}": no browser step says it, and the answer (${JSON.stringify(answer)}) asked for none.`);
  }

  private apply(reading: Reading, clause: StepClause): void {
    if (reading.kind === 'question') {
      this.open.push({ question: reading.question, ambiguity: reading.ambiguity, index: clause.start });
      return;
    }
    if (reading.kind !== 'steps') return;
    if (reading.replacesLast === true) this.steps.pop();
    const renamed = new Map<string, string>();
    for (const criterion of reading.criteria) {
      const probed = reading.steps.some((step) => step.action === 'probe' && step.criterion === criterion.key);
      if (probed && this.criteria.some((known) => known.key === criterion.key)) continue;
      const key = this.uniqueKey(criterion.key);
      if (key !== criterion.key) renamed.set(criterion.key, key);
      this.criteria.push({ key, description: criterion.description });
    }
    for (const step of reading.steps) {
      const renamedStep = 'criterion' in step && step.criterion !== undefined && renamed.has(step.criterion) ? { ...step, criterion: renamed.get(step.criterion)! } : step;
      this.steps.push(renamedStep);
      this.track(renamedStep);
    }
    for (const assumption of reading.assumptions) if (!this.assumptions.includes(assumption)) this.assumptions.push(assumption);
    if (reading.steps.length > 0 && reading.steps.every((step) => step.action.startsWith('expect'))) {
      this.lastAssertion = { text: clause.text, steps: reading.steps };
    }
    const edited = this.editedItem(reading.steps);
    const added = [...(reading.items ?? []), ...this.enteredItems(reading.steps)];
    for (const item of added) if (!this.items.includes(item)) this.items.push(item);
    this.lastItem = reading.subject ?? edited ?? added.at(-1) ?? this.spokenOf(reading.steps);
  }

  /**
   * What "it" means after these steps: the one item they are all about; nothing when they acted on something that is
   * not an item ("tick 'Mark all as complete' and verify that it is checked": the box); else as before.
   */
  private spokenOf(added: readonly PlanStep[]): string | undefined {
    const about = new Set(added.map((step) => this.itemOf(step)).filter((item) => item !== undefined));
    if (about.size === 1) return [...about][0];
    if (about.size > 1) return this.lastItem;
    const acted = added.findLast((step) => ACTING.has(step.action) && 'target' in step && step.target !== undefined);
    // Typing in or clearing the field being edited ("delete all of its text") is still about the item edited.
    const editing = acted !== undefined && 'target' in acted && acted.target?.role === 'textbox' && (acted.target.name === '' || acted.target.by === 'description');
    return acted === undefined || editing ? this.lastItem : undefined;
  }

  /**
   * A value typed over an item being edited (double-clicked, then filled): the item is called that from now on, and is
   * what "the new title" and "it" mean. Spaces around it are the app's to trim.
   */
  private editedItem(added: readonly PlanStep[]): string | undefined {
    let renamed: string | undefined;
    for (const [index, step] of this.steps.entries()) {
      if (!added.includes(step) || step.action !== 'fill' || step.value.kind !== 'literal' || index === 0) continue;
      const edited = this.steps.slice(0, index).findLast((before) => before.action !== 'clear' && before.action !== 'expectValue' && before.action !== 'expectState');
      const item = edited?.action === 'dblclick' ? this.itemOf(edited) : undefined;
      const value = step.value.text.trim();
      if (item === undefined || value === '') continue;
      this.items[this.items.indexOf(item)] = value;
      renamed = value;
    }
    return renamed;
  }

  /** Values typed into a field and entered with Enter ("type 'buy milk' into … and press Enter"): items added. */
  private enteredItems(added: readonly PlanStep[]): string[] {
    const entered: string[] = [];
    const all = [...this.steps];
    for (const [index, step] of all.entries()) {
      if (index === 0 || !added.includes(step) || step.action !== 'press' || step.key !== 'Enter') continue;
      const before = all[index - 1]!;
      const editing = all.slice(0, index - 1).findLast((earlier) => earlier.action !== 'clear')?.action === 'dblclick';
      if (before.action === 'fill' && before.value.kind === 'literal' && before.value.text.trim() !== '' && !editing) entered.push(before.value.text);
    }
    return entered;
  }

  /** The item a step acted on: the row it was inside, or the item text it double-clicked or hovered. */
  private itemOf(step: PlanStep | undefined): string | undefined {
    if (step === undefined || !('target' in step) || step.target === undefined) return undefined;
    // A list's items are counted or read in the list that shows the first of them: that is no item spoken of.
    if (step.action === 'expectItems' || step.action === 'expectCount') return undefined;
    if (step.target.within !== undefined) return step.target.within.text;
    return step.target.by === 'text' && this.items.some((item) => item.toLowerCase() === step.target!.name.toLowerCase()) ? step.target.name : undefined;
  }

  /** Where the plan is: a navigate goes there; a click on a link named like a place ("Cart") goes to that place. */
  private track(step: PlanStep): void {
    if (step.action === 'navigate') this.visited.push(step.url);
    if (step.action === 'click' && step.target.by === 'role' && step.target.role === 'link') {
      const place = pagePath(step.target.name);
      if (place === '/cart' || place === '/checkout' || place === '/login') this.visited.push(place);
    }
  }

  private uniqueKey(key: string): string {
    let candidate = key;
    for (let n = 2; this.criteria.some((known) => known.key === candidate); n += 1) candidate = `${key}_${n}`;
    return candidate;
  }

  private context(): ReadingContext {
    return {
      testValueNames: this.request.testValueNames,
      evidenceCriteria: this.request.evidenceCriteria,
      visited: [...this.visited],
      stepCount: this.steps.length,
      last: this.steps.at(-1),
      items: [...this.items],
      lastItem: this.lastItem,
      lastActed: this.steps.findLast((step) => ['click', 'dblclick', 'check', 'fill', 'select', 'hover'].includes(step.action) && 'target' in step && step.target !== undefined),
      lastCounted: this.steps.findLast((step) => step.action === 'expectCount'),
      browserDialogs: this.browserDialogs,
      answerTo: (question) => this.request.answerTo(question),
    };
  }

  finish(): PlanResult {
    // A round asks at most MAX_QUESTIONS, in task order (one answer each); the rest come in the next round.
    if (this.open.length > 0) return { kind: 'questions', open: this.open.sort((a, b) => a.index - b.index).slice(0, MAX_QUESTIONS) };
    const assumptions = [...this.assumptions];
    if (this.steps.length === 0) {
      this.steps.push({ action: 'navigate', description: 'Go to /', url: '/' });
      assumptions.push('Nothing in the task is left to do in the browser, so the run only opens the start page.');
    }
    if (this.steps.length > MAX_STEPS) {
      return {
        kind: 'questions',
        open: [
          {
            question: `The task makes ${this.steps.length} steps, more than the ${MAX_STEPS} a run may take; which part should this run cover?`,
            ambiguity: `A plan holds at most ${MAX_STEPS} steps.`,
            index: 0,
          },
        ],
      };
    }
    const parsed = planSchema.safeParse({ steps: this.steps, successCriteria: this.criteria });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return {
        kind: 'questions',
        open: [
          {
            question: 'Part of the task is too long to plan as written; could you say it in shorter steps?',
            ambiguity: `The plan did not fit its limits at ${issue?.path.join('.') ?? 'the plan'}: ${issue?.message ?? 'invalid'}.`,
            index: 0,
          },
        ],
      };
    }
    return { kind: 'plan', plan: parsed.data, assumptions };
  }
}
