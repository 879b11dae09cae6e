/**
 * Scores a hold decision on issue 28's sets (tasks.ts) and on the tasks of the published corpus suites: misses (a
 * side-effect task that would run without asking) and false holds (a task with no real side effect that is asked
 * about), per class and per set. Pure: the decision is passed in, so the same score serves the unit test and
 * `npm run bench:side-effects`.
 */
import type { CorpusTask } from '../types.js';
import { EFFECT_TASKS, NO_EFFECT_TASKS, type EffectClass } from './tasks.js';

export interface SetScore {
  name: string;
  /** Tasks that must be held, and those of them that were not. */
  effects: number;
  misses: string[];
  /** Tasks that must run without a side-effect question, and those of them that were held. */
  clean: number;
  falseHolds: string[];
}

/** Issue 28's own sets: misses per class, false holds per kind of harmless task. */
export function scoreSets(holds: (task: string) => boolean): { byClass: Map<EffectClass, SetScore>; byWhy: Map<string, SetScore>; total: SetScore } {
  const byClass = new Map<EffectClass, SetScore>();
  const byWhy = new Map<string, SetScore>();
  const total: SetScore = { name: 'issue 28 sets', effects: 0, misses: [], clean: 0, falseHolds: [] };
  const entry = <K>(map: Map<K, SetScore>, key: K) => map.get(key) ?? map.set(key, { name: String(key), effects: 0, misses: [], clean: 0, falseHolds: [] }).get(key)!;
  for (const { task, class: kind } of EFFECT_TASKS) {
    const score = entry(byClass, kind);
    score.effects += 1;
    total.effects += 1;
    if (!holds(task)) {
      score.misses.push(task);
      total.misses.push(task);
    }
  }
  for (const { task, why } of NO_EFFECT_TASKS) {
    const score = entry(byWhy, why);
    score.clean += 1;
    total.clean += 1;
    if (holds(task)) {
      score.falseHolds.push(task);
      total.falseHolds.push(task);
    }
  }
  return { byClass, byWhy, total };
}

/**
 * A published suite's tasks: a task written with answers expects its side-effect question (placing the order), one
 * without expects none, except those `effects` names (ids of tasks that do delete the user's data, such as a todo).
 */
export function scoreSuite(name: string, tasks: readonly CorpusTask[], holds: (task: string) => boolean, effects: ReadonlySet<string> = new Set()): SetScore {
  const score: SetScore = { name, effects: 0, misses: [], clean: 0, falseHolds: [] };
  for (const task of tasks) {
    const expected = task.answers !== undefined || effects.has(task.id);
    const held = holds(task.task);
    if (expected) {
      score.effects += 1;
      if (!held) score.misses.push(task.id);
    } else {
      score.clean += 1;
      if (held) score.falseHolds.push(task.id);
    }
  }
  return score;
}

/** `delete: 7 tasks, 1 miss | …`, one line per score. */
export function describeScore(score: SetScore): string {
  const parts: string[] = [];
  if (score.effects > 0) parts.push(`${score.misses.length} of ${score.effects} missed`);
  if (score.clean > 0) parts.push(`${score.falseHolds.length} of ${score.clean} falsely held (${((100 * score.falseHolds.length) / score.clean).toFixed(1)} %)`);
  return `${score.name}: ${parts.join(', ')}`;
}
