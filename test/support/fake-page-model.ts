/**
 * The model behind the fake chat-completions endpoint for page questions (issue 25): it answers by reading the
 * accessibility snapshot the request carries, as a model would, so a test that passes proves the page reached the
 * model. It knows what a few symbols on buttons mean ("+" is plus, add, new; "×" is close), which the rule
 * grounding does not: that is the world knowledge a real model brings. Anything else it matches by words, and it
 * answers "none" unless exactly one element fits. A test may override the choice (`pick`) to play a model that
 * chooses badly, and the policy and guard must still hold.
 */
import type { RecordedRequest, Responder, ScriptedAnswer } from './fake-chat-completions.js';

/** One element line of the snapshot the request carried. */
export interface SnapshotElement {
  role: string;
  name: string;
  ref: string;
  line: string;
}

export interface PageQuestion {
  task: string;
  step: Record<string, unknown> & { action: string };
  find: 'target' | 'to';
  failure: string;
  page: { url: string; title: string; snapshot: string; truncated: boolean };
}

export interface PageModelOptions {
  /** The ref to answer (undefined: "none"); default: the one element whose words the step's target says. */
  pick?: (elements: SnapshotElement[], question: PageQuestion) => string | undefined;
  /** Rewrites the step before it is sent back (a model that proposes another step). */
  rewrite?: (step: Record<string, unknown>, chosen: SnapshotElement) => Record<string, unknown>;
}

const SYMBOLS: Record<string, string> = {
  '+': 'plus add new create',
  '✚': 'plus add new create',
  '＋': 'plus add new create',
  '×': 'close remove delete',
  '✕': 'close remove delete',
  '✎': 'edit pencil rename',
  '⚙': 'settings preferences gear',
  '☰': 'menu navigation',
  '🗑': 'trash delete bin',
};
const STOP = new Set(['the', 'a', 'an', 'of', 'to', 'for', 'button', 'link', 'field', 'icon', 'that', 'with', 'on', 'in']);

/** The page question a request asks, or undefined when it is another kind of request (a plan). */
export function pageQuestionOf(body: RecordedRequest['body']): PageQuestion | undefined {
  if (body?.response_format?.json_schema?.name !== 'qa_page_step_answer') return undefined;
  const messages = body.messages as Array<{ role: string; content: string }>;
  return JSON.parse(messages[1]!.content) as PageQuestion;
}

/** Every element line with a ref: `- button "+" [ref=e7]`. */
export function snapshotElements(snapshot: string): SnapshotElement[] {
  const elements: SnapshotElement[] = [];
  for (const line of snapshot.split('\n')) {
    const match = /^\s*- ([a-z]+)(?: ("(?:[^"\\]|\\.)*"))?.*\[ref=([a-z0-9]+)\]/.exec(line);
    if (match) elements.push({ role: match[1]!, name: match[2] === undefined ? '' : (JSON.parse(match[2]) as string), ref: match[3]!, line });
  }
  return elements;
}

/** The one element whose name (or what its symbol means) holds every word of the step's target. */
export function wordsPick(elements: SnapshotElement[], question: PageQuestion): string | undefined {
  const target = question.step[question.find] as { role?: string; name: string } | undefined;
  if (target === undefined) return undefined;
  const wanted = words(target.name);
  const fits = elements.filter((element) => {
    if (target.role !== undefined && element.role !== target.role) return false;
    const said = new Set(words(`${element.name} ${SYMBOLS[element.name.trim()] ?? ''}`));
    return wanted.length > 0 && wanted.every((word) => said.has(word));
  });
  return fits.length === 1 ? fits[0]!.ref : undefined;
}

/** A responder for the fake endpoint that answers page questions (and only those) from the snapshot. */
export function pageModel(options: PageModelOptions = {}): Responder {
  return (body): ScriptedAnswer => {
    const question = pageQuestionOf(body);
    if (question === undefined) return { status: 500, errorCode: 'not_a_page_question' };
    const elements = snapshotElements(question.page.snapshot);
    const ref = (options.pick ?? wordsPick)(elements, question);
    const chosen = elements.find((element) => element.ref === ref);
    if (chosen === undefined) return { content: { kind: 'none', step: null, ref: null, reason: 'Nothing on the page is what the step says.' } };
    const target = { by: 'role', role: chosen.role, name: chosen.name, exact: true, purpose: null, within: null, nth: null };
    let step: Record<string, unknown> = { ...wire(question.step), [question.find]: target };
    if (options.rewrite) step = options.rewrite(step, chosen);
    return { content: { kind: 'step', step, ref: chosen.ref, reason: `The ${chosen.role} "${chosen.name}" is what the step means.` } };
  };
}

/** A plan step as the wire schema writes it: every target field present, null when not given. */
function wire(step: PageQuestion['step']): Record<string, unknown> {
  const target = (value: unknown) => {
    const given = value as Record<string, unknown>;
    return { by: given.by, role: given.role ?? null, name: given.name, exact: given.exact ?? false, purpose: given.purpose ?? null, within: given.within ?? null, nth: given.nth ?? null };
  };
  const out: Record<string, unknown> = { ...step };
  for (const key of ['target', 'to']) if (out[key] !== undefined) out[key] = target(out[key]);
  if (step.action === 'press' && out.target === undefined) out.target = null;
  return out;
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '' && !STOP.has(word));
}
