/**
 * Issue 28: the clarification policy and the taxonomy of side effects on sets written before the policy was changed
 * (test/corpus/side-effects/): no side-effect task runs without asking, in any class; at most 5 % of the harmless
 * look-alikes, and of each published corpus suite's tasks, are held back; and `sideEffectClassOf` names each task's
 * class as its writer did, and no class (or a reversible one, for a cart) for the harmless ones.
 */
import { describe, expect, it } from '@jest/globals';
import { sideEffectClassOf } from '../../../src/planner/effect-classes.js';
import { clarificationPolicy } from '../../../src/planner/rule-planner.js';
import { SIDE_EFFECTS } from '../../../src/planner/side-effects.js';
import { CORPUS_EFFECTS } from '../../corpus/side-effects/corpus-effects.js';
import { describeScore, scoreSets, scoreSuite } from '../../corpus/side-effects/measure.js';
import { EFFECT_TASKS, NO_EFFECT_TASKS } from '../../corpus/side-effects/tasks.js';
import { sauceDemoSuite } from '../../corpus/sauce-demo.js';
import { theInternetSuite } from '../../corpus/the-internet.js';
import { todoMvcSuite } from '../../corpus/todomvc.js';

const context = { testValueNames: ['demoEmail', 'demoPassword'], evidenceCriteria: [] };
const SIDE_EFFECT_QUESTIONS = new Set(SIDE_EFFECTS.map((rule) => rule.question));
const holds = (task: string) => {
  const outcome = clarificationPolicy(task, context);
  return outcome.kind === 'questions' && outcome.interpretation.questions.some((question) => SIDE_EFFECT_QUESTIONS.has(question));
};

const sets = scoreSets(holds);
const suites = [todoMvcSuite, theInternetSuite, sauceDemoSuite].map((suite) => scoreSuite(suite.name, suite.tasks, holds, CORPUS_EFFECTS));

describe(`side effects by class: ${describeScore(sets.total)}`, () => {
  it('holds at least 60 side-effect tasks, at least 5 per class, and 60 harmless ones', () => {
    expect(EFFECT_TASKS.length).toBeGreaterThanOrEqual(60);
    expect(NO_EFFECT_TASKS.length).toBeGreaterThanOrEqual(60);
    expect([...sets.byClass.values()].map((score) => [score.name, score.effects >= 5])).toEqual([...sets.byClass.keys()].map((name) => [name, true]));
    expect(sets.byClass.size).toBe(8);
  });

  it.each([...sets.byClass.keys()])('asks before every %s task runs', (name) => {
    expect(sets.byClass.get(name)!.misses).toEqual([]);
  });

  it('holds back at most 5 % of the harmless tasks', () => {
    if (sets.total.falseHolds.length > 0) console.info(`held without a real side effect:\n${sets.total.falseHolds.join('\n')}`);
    expect(sets.total.falseHolds.length / sets.total.clean).toBeLessThanOrEqual(0.05);
  });

  it.each(suites.map((score) => [score.name, score] as const))('on the published suite %s: no miss, at most 5 %% false holds', (_name, score) => {
    expect({ misses: score.misses, rateWithin: score.falseHolds.length / score.clean <= 0.05 }).toEqual({ misses: [], rateWithin: true });
  });

  it('asks placing the order on the shop demo, but not taking an item out of the cart or opening the checkout form', () => {
    const shop = (id: string) => sauceDemoSuite.tasks.find((task) => task.id === id)!.task;
    expect(['cart-remove-product', 'details-remove-from-cart', 'remove-product-from-list', 'cart-to-checkout', 'checkout-cancel-to-cart', 'overview-cancel'].filter((id) => holds(shop(id)))).toEqual([]);
    expect(['overview-finish', 'full-checkout'].every((id) => holds(shop(id)))).toBe(true);
  });
});

describe('sideEffectClassOf', () => {
  it('names the class the writer of each side-effect task gave it, never reversible', () => {
    const named = EFFECT_TASKS.map(({ task }) => sideEffectClassOf(task));
    expect(named.map((found, index) => `${found?.class ?? 'none'}${found?.reversible === true ? ' (reversible)' : ''}: ${EFFECT_TASKS[index]!.task}`)).toEqual(
      EFFECT_TASKS.map(({ task, class: kind }) => `${kind}: ${task}`),
    );
  });

  it('names no class for navigation, drafts, views and reading, and a reversible one for a cart', () => {
    const outside = NO_EFFECT_TASKS.filter(({ why }) => why !== 'cart').map(({ task }) => [task, sideEffectClassOf(task)] as const);
    expect(outside.filter(([, found]) => found !== null && !found.reversible).length).toBeLessThanOrEqual(Math.floor(0.05 * NO_EFFECT_TASKS.length));
    expect(sideEffectClassOf('Remove the backpack from the cart')).toEqual({ class: 'delete', reversible: true });
    expect(sideEffectClassOf('Add the Sauce Labs Backpack to the cart')).toEqual({ class: 'create', reversible: true });
    expect(sideEffectClassOf('Sort the products by price from low to high')).toBeNull();
    expect(sideEffectClassOf('click "Place order"')).toEqual({ class: 'pay', reversible: false });
  });
});
