/** Shared helpers of the planner's unit tests: plan a text with a standard context and look at its steps. */
import { expect } from '@jest/globals';
import { planSchema, type Plan, type PlanStep } from '../../../src/core/plan.js';
import { planTask, type PlanRequest, type PlanResult } from '../../../src/planner/plan-task.js';

export const NAMES = ['demoEmail', 'demoPassword', 'coupon_code'];
export const CRITERIA = ['order_created'];

/** A step without its description, per action (Omit on the union itself would keep only the shared fields). */
type WithoutDescription<Step> = Step extends unknown ? Omit<Step, 'description'> : never;
export type Bare = WithoutDescription<PlanStep>;

export function planOf(text: string, overrides: Partial<PlanRequest> = {}): PlanResult {
  return planTask({ text, testValueNames: NAMES, evidenceCriteria: CRITERIA, answerTo: () => undefined, ...overrides });
}

/** The plan of `text`; fails the test with the questions when there is none. */
export function planFor(text: string, overrides: Partial<PlanRequest> = {}): Plan {
  const result = planOf(text, overrides);
  if (result.kind !== 'plan') throw new Error(`expected a plan for ${JSON.stringify(text)}, got questions: ${result.open.map((item) => item.question).join(' | ')}`);
  expect(planSchema.safeParse(result.plan).success).toBe(true);
  for (const step of result.plan.steps) expect(step.description.length).toBeGreaterThan(0);
  return result.plan;
}

/** The steps of `text` without their descriptions (which tests check separately). */
export function stepsOf(text: string, overrides: Partial<PlanRequest> = {}): Bare[] {
  return planFor(text, overrides).steps.map(({ description: _description, ...step }) => step);
}

export function questionsOf(text: string, overrides: Partial<PlanRequest> = {}): string[] {
  const result = planOf(text, overrides);
  return result.kind === 'questions' ? result.open.map((item) => item.question) : [];
}

export const button = (name: string, exact = false) => ({ by: 'role', role: 'button', name, exact }) as const;
/** The control that adds `product` to `place`: the one named like the action, in the card that shows the product. */
export const addTo = (place: string, product: string) => ({ by: 'description', role: 'button', name: `Add to ${place}`, exact: false, within: { text: product } }) as const;
/** The submit control of a sign-in, found by purpose at run time; `name` is the task's word for it. */
export const signInButton = (name: string) => ({ by: 'role', role: 'button', name, exact: false, purpose: 'signIn' }) as const;
export const link = (name: string, exact = false) => ({ by: 'role', role: 'link', name, exact }) as const;
export const heading = (name: string, exact = false) => ({ by: 'role', role: 'heading', name, exact }) as const;
export const field = (name: string, exact = false) => ({ by: 'label', name, exact }) as const;
export const text = (name: string, exact = false) => ({ by: 'text', name, exact }) as const;
export const literal = (value: string) => ({ kind: 'literal', text: value }) as const;
export const testValue = (name: string) => ({ kind: 'testValue', name }) as const;
export const navigate = (url: string) => ({ action: 'navigate', url }) as const;
