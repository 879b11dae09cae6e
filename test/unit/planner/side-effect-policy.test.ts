/**
 * The clarification policy measured on whole classes of side effect (issue 13, part 3): every task of
 * SIDE_EFFECT_TASKS must be asked about (false negatives: 0), and at most 5 % of BENIGN_TASKS may be (false
 * positives). The counts are printed with the tasks they concern, so a regression says which phrasing broke.
 */
import { describe, expect, it } from '@jest/globals';
import { clarificationPolicy } from '../../../src/planner/rule-planner.js';
import { SIDE_EFFECTS } from '../../../src/planner/side-effects.js';
import { BENIGN_TASKS, SIDE_EFFECT_TASKS } from './side-effect-corpus.js';

const context = { testValueNames: ['demoEmail', 'demoPassword'], evidenceCriteria: [] };
const SIDE_EFFECT_QUESTIONS = new Set(SIDE_EFFECTS.map((rule) => rule.question));

/** Whether the policy stops `task` with a side-effect question (a vague-task question does not count). */
function asksAboutSideEffect(task: string): boolean {
  const outcome = clarificationPolicy(task, context);
  return outcome.kind === 'questions' && outcome.interpretation.questions.some((question) => SIDE_EFFECT_QUESTIONS.has(question));
}

const sideEffectTasks = Object.entries(SIDE_EFFECT_TASKS).flatMap(([group, tasks]) => tasks.map((task) => ({ group, task })));
const falseNegatives = sideEffectTasks.filter(({ task }) => !asksAboutSideEffect(task));
const falsePositives = BENIGN_TASKS.filter((task) => asksAboutSideEffect(task));
const total = sideEffectTasks.length + BENIGN_TASKS.length;
const rate = falsePositives.length / BENIGN_TASKS.length;
const summary =
  `${total} tasks (${sideEffectTasks.length} side effects, ${BENIGN_TASKS.length} benign): ` +
  `${falseNegatives.length} false negatives, ${falsePositives.length} false positives (${(rate * 100).toFixed(1)} %)`;

describe(`side-effect policy on the task set: ${summary}`, () => {
  it('holds at least 150 tasks, every one distinct', () => {
    // The counts go to the test log too, where a reviewer reads them.
    console.info(`side-effect policy: ${summary}`);
    expect(total).toBeGreaterThanOrEqual(150);
    expect(new Set([...sideEffectTasks.map(({ task }) => task), ...BENIGN_TASKS]).size).toBe(total);
  });

  it('asks about every side effect, however it is phrased (no false negatives)', () => {
    expect(falseNegatives.map(({ group, task }) => `${group}: ${task}`)).toEqual([]);
  });

  it('lets at most 5 % of the benign tasks run without a side-effect question', () => {
    if (falsePositives.length > 0) console.info(`side-effect policy false positives:\n${falsePositives.join('\n')}`);
    expect(rate).toBeLessThanOrEqual(0.05);
  });

  it.each(Object.keys(SIDE_EFFECT_TASKS))('covers the class %s with several phrasings', (group) => {
    expect(SIDE_EFFECT_TASKS[group]!.length).toBeGreaterThanOrEqual(3);
  });
});
