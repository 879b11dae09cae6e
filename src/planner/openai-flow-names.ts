/**
 * Naming onboarding's flows with a model (issue 28: "the model planner, when configured, may name and describe flows
 * better, never decide what runs"). The model is shown each flow's key, rule name, entry path, steps and controls,
 * and answers a name and a one-sentence description per key. It can change nothing else: the flows' keys, tasks,
 * steps, side effects and values stay discovery's (src/onboarding/discover/flow-names.ts takes only the names).
 * Three gates, as for a plan: JSON, the wire schema, then each entry on its own: a key it was not shown, a second
 * answer for a key, an empty or over-long name, or a name another flow already has is left out, and that flow keeps
 * its rule name.
 */
import { z } from 'zod';
import type { Reading } from './openai-ask.js';
import { firstIssue, parseAnswerJson, structuredRequest, type ChatMessage } from './openai-structured.js';
import type { FlowName, FlowToName } from './planner.js';

export const FLOW_NAMES_SCHEMA_NAME = 'qa_flow_names';
/** The longest name taken: it heads a coverage list and a pull request's comment. */
export const MAX_FLOW_NAME = 60;
/** The longest description kept; a longer one is cut at a word. */
export const MAX_FLOW_DESCRIPTION = 200;
/** Flows shown in one request, most valuable first (discovery's order); the rest keep their rule names. */
export const MAX_FLOWS_NAMED = 60;
/** Each step and control as shown, and how many of each: a flow's words, not a page's. */
const MAX_SHOWN_TEXT = 160;
const MAX_SHOWN_ITEMS = 12;

export const flowNamesAnswerSchema = z.strictObject({
  flows: z
    .array(
      z.strictObject({
        key: z.string().describe('The key of a flow you were shown, exactly as given.'),
        name: z.string().describe(`What a user does in this flow, as a short title in the app's own words (at most ${MAX_FLOW_NAME} characters): "Add a product to the cart", "Reset your password".`),
        description: z.string().describe('One sentence: what the user does and what they get.'),
      }),
    )
    .describe('One entry per flow you can name; leave out a flow you cannot.'),
});

const FLOW_NAMES_JSON_SCHEMA = (() => {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(flowNamesAnswerSchema, { target: 'draft-2020-12' }) as Record<string, unknown>;
  return schema;
})();

const SYSTEM_PROMPT = [
  'You name the user journeys (flows) of a web application for its QA team.',
  'Each flow was found in the application\'s source and pages: its key, a name given by rules, the page it starts on,',
  'its steps and the controls it uses. Give each flow a short title saying what the user does, in the words the app',
  'uses, and one sentence describing it. Name only what the steps show; do not invent features. You cannot change what',
  'a flow does: only its name and description. Answer with JSON that follows the schema.',
].join(' ');

const clip = (text: string) => (text.length > MAX_SHOWN_TEXT ? `${text.slice(0, MAX_SHOWN_TEXT - 1)}…` : text);

/** What the model is shown of the flows: bounded in count and size. */
export function shownFlows(flows: readonly FlowToName[]): FlowToName[] {
  return flows.slice(0, MAX_FLOWS_NAMED).map((flow) => ({
    key: flow.key,
    name: clip(flow.name),
    entryPath: clip(flow.entryPath),
    steps: flow.steps.slice(0, MAX_SHOWN_ITEMS).map(clip),
    controls: flow.controls.slice(0, MAX_SHOWN_ITEMS).map(clip),
    sideEffect: flow.sideEffect,
  }));
}

export function flowNamesRequest(model: string, flows: readonly FlowToName[], retryHint?: string): Record<string, unknown> {
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: JSON.stringify({ flows: shownFlows(flows) }) },
  ];
  return structuredRequest(model, messages, { name: FLOW_NAMES_SCHEMA_NAME, schema: FLOW_NAMES_JSON_SCHEMA }, retryHint);
}

/** Control and format characters (line breaks, bidirectional overrides, zero-width) out, runs of spaces as one. */
export function plainLine(text: string): string {
  return text
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The answer's text → the names it gives to flows it was shown (possibly none), or the problem that makes it unusable. */
export function readFlowNames(content: string, asked: readonly FlowToName[]): Reading<FlowName[]> {
  const answered = parseAnswerJson(content);
  if (!answered.ok) return answered;
  const wire = flowNamesAnswerSchema.safeParse(answered.json);
  if (!wire.success) return { ok: false, problem: `the answer did not follow the schema: ${firstIssue(wire.error)}` };
  const shown = new Set(shownFlows(asked).map((flow) => flow.key));
  const named = new Set<string>();
  const taken = new Set<string>();
  const names: FlowName[] = [];
  for (const entry of wire.data.flows) {
    if (!shown.has(entry.key) || named.has(entry.key)) continue;
    const name = plainLine(entry.name);
    if (name === '' || name.length > MAX_FLOW_NAME || taken.has(name.toLowerCase())) continue;
    named.add(entry.key);
    taken.add(name.toLowerCase());
    names.push({ key: entry.key, name, description: cutAtWord(plainLine(entry.description), MAX_FLOW_DESCRIPTION) });
  }
  return { ok: true, value: names };
}
