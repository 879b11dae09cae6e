/**
 * `npm run bench:side-effects`: the clarification policy scored on issue 28's side-effect sets
 * (test/corpus/side-effects/) and on the published corpus suites' tasks: misses per class, false holds per kind of
 * harmless task and per suite, with the tasks concerned. Pure and fast (no browser, no store); exits 0 (the counts
 * are the figure).
 */
import { clarificationPolicy } from '../src/planner/rule-planner.js';
import { SIDE_EFFECTS } from '../src/planner/side-effects.js';
import { CORPUS_EFFECTS } from '../test/corpus/side-effects/corpus-effects.js';
import { describeScore, scoreSets, scoreSuite } from '../test/corpus/side-effects/measure.js';

import { sauceDemoSuite } from '../test/corpus/sauce-demo.js';
import { theInternetSuite } from '../test/corpus/the-internet.js';
import { todoMvcSuite } from '../test/corpus/todomvc.js';

const questions = new Set(SIDE_EFFECTS.map((rule) => rule.question));
const context = { testValueNames: ['demoEmail', 'demoPassword'], evidenceCriteria: [] };
const holds = (task: string) => {
  const outcome = clarificationPolicy(task, context);
  return outcome.kind === 'questions' && outcome.interpretation.questions.some((question) => questions.has(question));
};

const started = performance.now();
const sets = scoreSets(holds);
const suites = [todoMvcSuite, theInternetSuite, sauceDemoSuite].map((suite) => scoreSuite(suite.name, suite.tasks, holds, CORPUS_EFFECTS));
const ms = performance.now() - started;
for (const score of sets.byClass.values()) console.log(`class ${describeScore(score)}${score.misses.length > 0 ? `\n  missed: ${score.misses.join('\n          ')}` : ''}`);
for (const score of sets.byWhy.values()) console.log(`no effect, ${describeScore(score)}${score.falseHolds.length > 0 ? `\n  held: ${score.falseHolds.join('\n        ')}` : ''}`);
console.log(describeScore(sets.total));
for (const score of suites) console.log(`corpus ${describeScore(score)}${score.misses.length > 0 ? ` missed: ${score.misses.join(', ')}` : ''}${score.falseHolds.length > 0 ? ` held: ${score.falseHolds.join(', ')}` : ''}`);
console.log(`${effectCount()} tasks scored in ${ms.toFixed(0)} ms`);

function effectCount(): number {
  return sets.total.effects + sets.total.clean + suites.reduce((sum, score) => sum + score.effects + score.clean, 0);
}
