/**
 * A compiled check: the steps of a passing run with every target as it was resolved on the live page, so a replay
 * needs no planner and no guessing. Values stay semantic (`testValue` names), never secret values.
 */
import { z } from 'zod';
import { criterionSchema, sideEffectsSchema, stepSchema } from './plan.js';

/** How the runner found an element: a Playwright locator strategy and its arguments. */
export const resolvedLocatorSchema = z.strictObject({
  strategy: z.enum(['role', 'label', 'text', 'placeholder']),
  role: z.string().max(40).optional(),
  name: z.string().min(1).max(300),
  exact: z.boolean(),
  /**
   * Looked up inside the form that holds a password field (`form:has(input[type="password"])`): the sign-in submit
   * resolved by its purpose, when its name alone also matches another visible button (a header "Sign in").
   */
  within: z.enum(['passwordForm']).optional(),
});
export type ResolvedLocator = z.infer<typeof resolvedLocatorSchema>;

export const compiledStepSchema = z.strictObject({
  step: stepSchema,
  /** Set for steps with a target; the replay uses it as is. */
  locator: resolvedLocatorSchema.optional(),
});
export type CompiledStep = z.infer<typeof compiledStepSchema>;

export const compiledCheckSchema = z.strictObject({
  steps: z.array(compiledStepSchema).min(1).max(100),
  successCriteria: z.array(criterionSchema).max(50),
  sideEffects: sideEffectsSchema,
});
export type CompiledCheck = z.infer<typeof compiledCheckSchema>;
