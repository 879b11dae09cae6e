/**
 * Flow names from a model (issue 28): what the model is shown, which of its answers are taken, and that taking them
 * changes only a flow's name and description, never what it runs. The planner's request goes to a real local HTTP
 * server that speaks the chat-completions wire format (test/support/fake-chat-completions.ts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { withModelNames, flowsToName } from '../../../src/onboarding/discover/flow-names.js';
import type { DiscoveredFlow } from '../../../src/onboarding/model.js';
import { FLOW_NAMES_SCHEMA_NAME, MAX_FLOW_DESCRIPTION, MAX_FLOW_NAME, MAX_FLOWS_NAMED, readFlowNames, shownFlows } from '../../../src/planner/openai-flow-names.js';
import { createOpenAiPlanner } from '../../../src/planner/openai-planner.js';
import type { FlowToName } from '../../../src/planner/planner.js';
import { startFakeChatCompletions, type FakeChatCompletions } from '../../support/fake-chat-completions.js';

const API_KEY = 'sk-test-Flow9Names2Key7';

function flow(key: string, name: string, more: Partial<DiscoveredFlow> = {}): DiscoveredFlow {
  return {
    key,
    name,
    entryPath: `/${key}`,
    task: `Go to /${key}. Click "Go".`,
    steps: [`Go to /${key}.`, 'Click "Go".'],
    controls: ['button Go'],
    files: [`src/${key}.tsx`],
    origin: 'both',
    sideEffect: null,
    value: 50,
    edgeCases: [{ key: `${key}-signed-out`, kind: 'signed_out_access', name: 'Signed out', task: `Go to /${key}.` }],
    ...more,
  };
}

const FLOWS = [
  flow('add-to-cart-inventory-html', 'Add to cart', { sideEffect: null, controls: ['button Add to cart'] }),
  flow('checkout-checkout-step-one-html', 'Checkout', { sideEffect: 'purchase', value: 90 }),
  flow('visit-about', 'About'),
];
const ASKED: FlowToName[] = flowsToName(FLOWS);
const answer = (flows: unknown) => JSON.stringify({ flows });

describe('reading a model\'s flow names', () => {
  it('takes a name and a description for each key it was shown', () => {
    const read = readFlowNames(answer([
      { key: 'add-to-cart-inventory-html', name: 'Add a product to the cart', description: 'Puts a product from the inventory into the cart.' },
      { key: 'visit-about', name: 'Read about the shop', description: 'Opens the About page.' },
    ]), ASKED);
    expect(read).toEqual({
      ok: true,
      value: [
        { key: 'add-to-cart-inventory-html', name: 'Add a product to the cart', description: 'Puts a product from the inventory into the cart.' },
        { key: 'visit-about', name: 'Read about the shop', description: 'Opens the About page.' },
      ],
    });
  });

  it('asks again when the answer is not JSON or not the schema', () => {
    expect(readFlowNames('', ASKED)).toEqual({ ok: false, problem: 'the answer was empty' });
    expect(readFlowNames('Sure! Here are names:', ASKED)).toEqual({ ok: false, problem: 'the answer was not JSON' });
    const extra = readFlowNames(JSON.stringify({ flows: [{ key: 'visit-about', name: 'About us', description: 'x', task: 'Delete every user.' }] }), ASKED);
    expect(extra.ok).toBe(false);
    expect(readFlowNames(JSON.stringify({ names: [] }), ASKED).ok).toBe(false);
  });

  it('leaves out keys it was not shown, second answers, empty, over-long and repeated names', () => {
    const read = readFlowNames(answer([
      { key: 'delete-account', name: 'Delete the account', description: 'A flow nobody found.' },
      { key: 'visit-about', name: '   ', description: 'Blank name.' },
      { key: 'visit-about', name: 'x'.repeat(MAX_FLOW_NAME + 1), description: 'Too long.' },
      { key: 'visit-about', name: 'About the shop', description: 'Taken.' },
      { key: 'visit-about', name: 'Second answer', description: 'Ignored.' },
      { key: 'add-to-cart-inventory-html', name: 'ABOUT THE SHOP', description: 'Same name as another flow.' },
    ]), ASKED);
    expect(read).toEqual({ ok: true, value: [{ key: 'visit-about', name: 'About the shop', description: 'Taken.' }] });
  });

  it('makes hostile text one plain line and cuts a long description at a word', () => {
    const read = readFlowNames(answer([
      { key: 'visit-about', name: 'About\n\u202Eus\u200B <img src=x onerror=alert(1)>', description: `${'word '.repeat(80)}end` },
    ]), ASKED);
    if (!read.ok) throw new Error(read.problem);
    const [named] = read.value;
    expect(named!.name).toBe('About us <img src=x onerror=alert(1)>');
    expect(named!.description.length).toBeLessThanOrEqual(MAX_FLOW_DESCRIPTION);
    expect(named!.description).toMatch(/^word( word)*…$/);
  });

  it('shows the model a bounded number of flows, each text clipped', () => {
    const many = Array.from({ length: MAX_FLOWS_NAMED + 5 }, (_, i) => flowsToName([flow(`visit-${i}`, `Page ${i}`, { steps: Array.from({ length: 30 }, () => 'y'.repeat(500)) })])[0]!);
    const shown = shownFlows(many);
    expect(shown).toHaveLength(MAX_FLOWS_NAMED);
    expect(shown[0]!.steps).toHaveLength(12);
    expect(shown[0]!.steps[0]!.length).toBeLessThanOrEqual(160);
    // A key beyond the bound was not shown, so its answer is not taken.
    expect(readFlowNames(answer([{ key: `visit-${MAX_FLOWS_NAMED + 1}`, name: 'Late', description: '' }]), many)).toEqual({ ok: true, value: [] });
  });
});

describe('taking the names into the flows', () => {
  it('changes the name and description only, and says the model named it', () => {
    const named = withModelNames(FLOWS, [{ key: 'checkout-checkout-step-one-html', name: 'Check out your cart', description: 'Enters shipping details and reviews the order.' }]);
    const before = FLOWS[1]!;
    expect(named[1]).toEqual({ ...before, name: 'Check out your cart', description: 'Enters shipping details and reviews the order.', namedBy: 'model' });
    // What runs is untouched: key, task, steps, side effect, value, edge cases.
    expect(named[1]).toMatchObject({ key: before.key, task: before.task, steps: before.steps, sideEffect: 'purchase', value: 90, edgeCases: before.edgeCases });
    expect(named[0]).toBe(FLOWS[0]);
    expect(named[2]).toBe(FLOWS[2]);
  });

  it('keeps the rule name when the model\'s is one another flow goes by', () => {
    const named = withModelNames(FLOWS, [{ key: 'visit-about', name: 'checkout', description: 'Collides with the Checkout flow.' }]);
    expect(named[2]).toBe(FLOWS[2]);
    // A renamed flow frees its rule name for another.
    const swapped = withModelNames(FLOWS, [
      { key: 'add-to-cart-inventory-html', name: 'Add a product', description: '' },
      { key: 'visit-about', name: 'Add to cart', description: '' },
    ]);
    expect(swapped.map((each) => each.name)).toEqual(['Add a product', 'Checkout', 'Add to cart']);
    expect(swapped[0]).not.toHaveProperty('description');
  });
});

describe('the OpenAI-compatible planner names flows', () => {
  let fake: FakeChatCompletions;
  const planner = () => createOpenAiPlanner({ url: fake.url, model: 'gpt-4o-mini', apiKey: API_KEY, timeoutMs: 5_000, sleep: () => Promise.resolve() });

  beforeAll(async () => {
    fake = await startFakeChatCompletions();
  });
  beforeEach(() => fake.reset());
  afterAll(async () => {
    await fake?.close();
  });

  it('sends the flows with a strict JSON schema and reads the names', async () => {
    fake.script({ content: { flows: [{ key: 'visit-about', name: 'Read about the shop', description: 'Opens the About page.' }] } });
    const naming = await planner().nameFlows!(ASKED);
    expect(naming).toMatchObject({ ok: true, names: [{ key: 'visit-about', name: 'Read about the shop', description: 'Opens the About page.' }] });
    expect(naming.calls).toEqual([expect.objectContaining({ outcome: 'ok', attempt: 1 })]);
    const [request] = fake.requests;
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: FLOW_NAMES_SCHEMA_NAME, strict: true } });
    const shown = JSON.parse(request!.body.messages[1].content as string) as { flows: FlowToName[] };
    expect(shown.flows.map((each) => each.key)).toEqual(FLOWS.map((each) => each.key));
    expect(shown.flows[1]).toEqual({ key: 'checkout-checkout-step-one-html', name: 'Checkout', entryPath: '/checkout-checkout-step-one-html', steps: FLOWS[1]!.steps, controls: FLOWS[1]!.controls, sideEffect: 'purchase' });
  });

  it('asks once more after an unusable answer, with what was wrong', async () => {
    fake.script({ content: 'not json' }, { content: { flows: [] } });
    const naming = await planner().nameFlows!(ASKED);
    expect(naming).toMatchObject({ ok: true, names: [] });
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.body.messages.at(-1).content).toContain('the answer was not JSON');
  });

  it('gives a reason, never the key, when the model fails twice', async () => {
    fake.script({ status: 500, errorCode: 'server_error', errorMessage: `boom ${API_KEY}` }, { status: 503, errorCode: 'overloaded' });
    const naming = await planner().nameFlows!(ASKED);
    expect(naming.ok).toBe(false);
    if (naming.ok) return;
    expect(naming.reason).not.toContain(API_KEY);
    expect(naming.calls.map((call) => call.outcome)).toEqual(['failed', 'failed']);
  });

  it('asks nothing for no flows', async () => {
    expect(await planner().nameFlows!([])).toEqual({ ok: true, names: [], calls: [] });
    expect(fake.requests).toHaveLength(0);
  });
});
