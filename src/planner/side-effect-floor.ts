/**
 * The side-effect policy applied to a plan someone else wrote (a model), step by step: the floor under a
 * model-backed planner that does not depend on the model behaving. A click or key press whose description or
 * target reads as a side effect (findSideEffects: "Place order", "Delete", "Send") runs only if an answer in the
 * task's Clarifications blocks allowed that kind of side effect. Not answered: the plan does not run and the
 * policy's question is asked instead. Declined ("no, stop before paying"): the plan ends before that step, as the
 * rule planner ends a task before the clause the answer declined.
 */
import type { ClarificationRound } from '../core/interpretation.js';
import type { Plan, PlanStep } from '../core/plan.js';
import { answeredAssumption, decidingAnswer, declines, shorten } from './rule-planner.js';
import { findSideEffects, SIDE_EFFECTS, type SideEffectKind, type SideEffectRule } from './side-effects.js';

export type FloorResult =
  | {
      kind: 'plan';
      plan: Plan;
      /** One per side-effect answer the plan relies on, and how the plan was cut if it was. */
      assumptions: string[];
      /** Whether the plan keeps a step with a side effect an answer allowed. */
      authorised: boolean;
      /** The kinds of those steps, which an answer allowed. */
      allowedKinds: SideEffectKind[];
    }
  | { kind: 'questions'; questions: string[]; ambiguities: string[] };

/** Steps that act on the page in a way that can have an effect beyond it. */
function actingText(step: PlanStep): string[] {
  if (step.action === 'click') return [step.description, `click "${step.target.name}"`];
  if (step.action === 'press') return step.target === undefined ? [step.description] : [step.description, `press "${step.target.name}"`];
  return [];
}

/**
 * The side-effect kinds a click on a control labelled `label` would cause, as the policy reads a task's words; with
 * where the control is on the live page (side-effect-guard.ts): "Remove" in a shop with a cart takes an item out of
 * it, and "Finish" at a checkout places the order.
 */
export function kindsNamedByLabel(label: string, place?: 'cart' | 'checkout'): SideEffectKind[] {
  const clicked = `click "${label.replace(/"/g, "'")}"`;
  const said = place === 'cart' ? `${clicked} in the cart` : place === 'checkout' ? `on the checkout page ${clicked}` : clicked;
  return [...new Set(findSideEffects(said).map((hit) => hit.kind))];
}

function rulesOf(step: PlanStep): SideEffectRule[] {
  const kinds = new Set(actingText(step).flatMap((text) => findSideEffects(text).map((hit) => hit.kind)));
  return SIDE_EFFECTS.filter((rule) => kinds.has(rule.kind));
}

export function applySideEffectFloor(plan: Plan, rounds: ClarificationRound[]): FloorResult {
  const open = new Map<SideEffectRule, string>();
  const allowed: string[] = [];
  const allowedKinds: SideEffectKind[] = [];
  let stop: { index: number; answer: string } | undefined;

  for (const [index, step] of plan.steps.entries()) {
    for (const rule of rulesOf(step)) {
      const decision = decidingAnswer(rounds, rule.question);
      if (decision === undefined) {
        if (!open.has(rule)) open.set(rule, `${rule.risk}: step ${index + 1} of the plan, "${shorten(step.description)}", would do that, and no answer allows it.`);
      } else if (declines(decision)) {
        stop ??= { index, answer: decision };
      } else {
        const assumption = answeredAssumption(rule.question, decision);
        if (!allowed.includes(assumption)) allowed.push(assumption);
        if (!allowedKinds.includes(rule.kind)) allowedKinds.push(rule.kind);
      }
    }
    // Nothing after a declined step runs, so nothing after it needs asking about.
    if (stop !== undefined) break;
  }

  if (open.size > 0) return { kind: 'questions', questions: [...open.keys()].map((rule) => rule.question), ambiguities: [...open.values()] };
  if (stop === undefined) return { kind: 'plan', plan, assumptions: allowed, authorised: allowed.length > 0, allowedKinds };

  const cut = plan.steps[stop.index]!;
  const kept = plan.steps.slice(0, stop.index);
  const stopped = `Stops before "${shorten(cut.description)}", as answered (${JSON.stringify(stop.answer)}): nothing from there on runs.`;
  if (kept.length === 0) {
    return {
      kind: 'plan',
      plan: { steps: [{ action: 'navigate', description: 'Go to /', url: '/' }], successCriteria: [] },
      assumptions: [...allowed, stopped, 'Nothing in the task is left to do in the browser, so the run only opens the start page.'],
      authorised: allowed.length > 0,
      allowedKinds,
    };
  }
  const verified = new Set(kept.flatMap((step) => ('criterion' in step && step.criterion !== undefined ? [step.criterion] : [])));
  const droppedOnly = new Set(
    plan.steps.slice(stop.index).flatMap((step) => ('criterion' in step && step.criterion !== undefined && !verified.has(step.criterion) ? [step.criterion] : [])),
  );
  return {
    kind: 'plan',
    plan: { steps: kept, successCriteria: plan.successCriteria.filter((criterion) => !droppedOnly.has(criterion.key)) },
    assumptions: [...allowed, stopped],
    authorised: allowed.length > 0,
    allowedKinds,
  };
}
