/**
 * A compiled check: the steps of a passing run with every target as it was resolved on the live page, so a replay
 * needs no planner and no guessing. Values stay semantic (`testValue` names), never secret values.
 */
import { z } from 'zod';
import { healingRecordSchema } from './healing.js';
import { allowedSideEffectsSchema, criterionSchema, sideEffectsSchema, stepSchema } from './plan.js';

/** How the runner found an element: a Playwright locator strategy and its arguments. */
export const resolvedLocatorSchema = z.strictObject({
  /** `css`: a CSS selector (`name`), only for an element named by its look, which has no role, label or text to find it by. */
  strategy: z.enum(['role', 'label', 'text', 'placeholder', 'css']),
  role: z.string().max(40).optional(),
  /** Empty: any element of `role` (one with no name of its own, picked by `scope` or `nth`). */
  name: z.string().max(300),
  exact: z.boolean(),
  /**
   * Looked up inside the form that holds a password field (`form:has(input[type="password"])`): the sign-in submit
   * resolved by its purpose, when its name alone also matches another visible button (a header "Sign in").
   */
  within: z.enum(['passwordForm']).optional(),
  /**
   * Looked up inside the one container of `role` (a list item, row, article, dialog, …) that holds `text` as a whole
   * text node (`getByRole(role).filter({ has: getByText(text, { exact: true }) })`): an element that is one of many
   * alike, told apart by its row ("the checkbox of Pay rent").
   */
  scope: z.strictObject({ role: z.string().min(1).max(40), text: z.string().min(1).max(300) }).optional(),
  /** Which match, from 0 in page order, -1 for the last: only when the task itself said which ("the second row"). */
  nth: z.number().int().min(-1).max(1_000).optional(),
});
export type ResolvedLocator = z.infer<typeof resolvedLocatorSchema>;

export const compiledStepSchema = z.strictObject({
  step: stepSchema,
  /** Set for steps with a target; the replay uses it as is. */
  locator: resolvedLocatorSchema.optional(),
  /**
   * What the target looked like when the check was compiled, and other ways that found it then: the evidence a
   * replay weighs when `locator` finds nothing (src/core/healing.ts). Absent in versions compiled before healing.
   */
  healing: healingRecordSchema.optional(),
  /** A `dragTo` step's drop target (`to`), as it resolved; the replay uses it as is. */
  toLocator: resolvedLocatorSchema.optional(),
  /** What the drop target looked like, as `healing` is for `locator`. */
  toHealing: healingRecordSchema.optional(),
});
export type CompiledStep = z.infer<typeof compiledStepSchema>;

export const compiledCheckSchema = z.strictObject({
  steps: z.array(compiledStepSchema).min(1).max(100),
  successCriteria: z.array(criterionSchema).max(50),
  sideEffects: sideEffectsSchema,
  allowedSideEffects: allowedSideEffectsSchema,
});
export type CompiledCheck = z.infer<typeof compiledCheckSchema>;

/**
 * Where a version came from and whether it may be replayed. `compiled`: made by a passing natural-language run.
 * `proposed`: made by a replay that healed a step; a person accepts it (`accepted`) before any replay uses it.
 * `superseded`: a proposal overtaken by another version becoming the replayed one before anyone accepted it.
 * Which version replays is the check's `version` (always a `compiled` or `accepted` one), never simply the latest.
 */
export const CHECK_VERSION_STATES = ['compiled', 'proposed', 'accepted', 'superseded'] as const;
export type CheckVersionState = (typeof CHECK_VERSION_STATES)[number];
