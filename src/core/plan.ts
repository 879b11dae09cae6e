/**
 * A plan: what a run does, step by step, and what must hold for it to pass. The planner writes it from a task; the
 * runner resolves each target against the live page; a passing run's resolved plan is compiled into a check. Plans
 * are data (zod-checked wherever they cross a boundary: a planner's answer, a stored check, a queue payload).
 */
import { z } from 'zod';

/**
 * A page element described the way a person would: "the Sign in button", "the Email field", "the Pricing link",
 * "the Plans heading". The runner maps `by` to Playwright's role, label, text and placeholder locators.
 */
export const targetSchema = z
  .strictObject({
    /**
     * `role` with an accessible role (button, link, heading, textbox, checkbox, combobox, …), or a label/text/placeholder
     * match. `description`: the person's own words for it ("the field for new items"), resolved on the live page by
     * grounding (src/browser/ground.ts) against what the page offers, with `role` as the kind of element when known.
     */
    by: z.enum(['role', 'label', 'text', 'placeholder', 'description']),
    role: z.string().min(1).max(40).optional(),
    /**
     * The visible name, label or text, as the task said it. Empty for an element that has no name of its own and is
     * picked by its kind with `within` or `nth` ("the checkbox of Pay rent", "the second checkbox").
     */
    name: z.string().max(300),
    /** Exact match (quoted in the task) or case-insensitive substring. */
    exact: z.boolean().default(false),
    /**
     * `signIn`: the control that submits the page's sign-in form, whatever the page calls it (Sign in, Log in,
     * Continue…); `name` is then the task's word for it. Resolved at run time (src/core/sign-in-submit.ts), never a
     * sign-up, a forgotten-password or (unless nothing else submits) a "with Google" button.
     */
    purpose: z.enum(['signIn']).optional(),
    /**
     * The container (a list item, table row, card, dialog or section) that shows this text, and the element is the one
     * inside it: "the checkbox of Pay rent", "the Backpack's Add to cart button", "Delete in the row of Ada".
     */
    within: z
      .strictObject({
        text: z.string().min(1).max(300),
        /** The table the row is in, when the page has several ("Bach's row of the Example 1 table"): by its name, caption or the heading before it. */
        table: z.string().min(1).max(300).optional(),
      })
      .optional(),
    /** Which of several matches, counted from 1 in page order; -1 is the last ("the second product", "the last row"). */
    nth: z.number().int().min(-1).max(1_000).refine((n) => n !== 0, 'nth counts from 1 (or -1 for the last)').optional(),
  })
  .refine((target) => target.name !== '' || target.within !== undefined || target.nth !== undefined || target.role !== undefined, {
    message: 'a target without a name needs a role, a container (within) or a position (nth)',
  });
export type Target = z.infer<typeof targetSchema>;

/**
 * A value typed or selected: written in the task (`literal`) or a test value by semantic name (`testValue`, a key
 * of the repository's `testValueSecretRefs`), read from the named environment secret at run time only.
 */
export const valueSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('literal'), text: z.string().max(2_000) }),
  z.strictObject({ kind: z.literal('testValue'), name: z.string().min(1).max(100) }),
]);
export type PlanValue = z.infer<typeof valueSchema>;

const description = z.string().min(1).max(500);

/**
 * The `page` of the navigation a sign-in starts with: its `/login` is a guess, and the run stays where it is when the
 * page already has a password field (src/browser/step-runner.ts).
 */
export const SIGN_IN_PAGE = 'sign-in';

export const stepSchema = z.discriminatedUnion('action', [
  /** A path on the target (`/pricing`) or a full URL on an allowed host. */
  /**
   * `page`: the page as the task named it ("the Dropdown List page"), when it gave no path: `url` is then a guess from
   * its words, and the run first looks at the live page (already there? a link of that name?) before going to it.
   * A compiled check keeps the address the run reached, without `page`.
   */
  z.strictObject({ action: z.literal('navigate'), description, url: z.string().min(1).max(2_048), page: z.string().min(1).max(200).optional() }),
  z.strictObject({ action: z.literal('click'), description, target: targetSchema }),
  z.strictObject({ action: z.literal('fill'), description, target: targetSchema, value: valueSchema }),
  z.strictObject({ action: z.literal('select'), description, target: targetSchema, value: valueSchema }),
  z.strictObject({ action: z.literal('check'), description, target: targetSchema, checked: z.boolean().default(true) }),
  /** A key such as `Enter`, on the target or the page. */
  z.strictObject({ action: z.literal('press'), description, key: z.string().min(1).max(40), target: targetSchema.optional() }),
  z.strictObject({ action: z.literal('waitFor'), description, target: targetSchema }),
  z.strictObject({ action: z.literal('dblclick'), description, target: targetSchema }),
  /** A right click (the context click that opens a page's context menu). */
  z.strictObject({ action: z.literal('rightClick'), description, target: targetSchema }),
  z.strictObject({ action: z.literal('hover'), description, target: targetSchema }),
  /** Empties a field (`fill('')`). */
  z.strictObject({ action: z.literal('clear'), description, target: targetSchema }),
  z.strictObject({ action: z.literal('scrollTo'), description, target: targetSchema }),
  /** Drags `target` onto `to`. */
  z.strictObject({ action: z.literal('dragTo'), description, target: targetSchema, to: targetSchema }),
  /**
   * Sets a file input to a small file the runner makes (`fileName`, content by its extension: src/core/upload-file.ts).
   * Uploading is a side effect unless the task or its answers allow it.
   */
  z.strictObject({ action: z.literal('upload'), description, target: targetSchema, fileName: z.string().regex(/^[\w][\w .()-]{0,99}$/, 'a file name is letters, digits, spaces and . ( ) - _') }),
  z.strictObject({ action: z.literal('reload'), description }),
  /**
   * The JavaScript dialog (alert, confirm or prompt) the step before opens: its message contains `text` (as
   * expectText compares), and it is accepted (OK; `promptText` typed into a prompt first) or dismissed (Cancel). The
   * runner answers it as it opens, so the step that opens it never stalls (src/browser/dialogs.ts); a dialog that opens
   * when no dialog step follows fails that step.
   */
  z.strictObject({
    action: z.literal('dialog'),
    description,
    accept: z.boolean(),
    promptText: z.string().max(2_000).optional(),
    text: z.string().min(1).max(500).optional(),
    criterion: z.string().optional(),
  }),
  z.strictObject({ action: z.literal('goBack'), description }),
  z.strictObject({ action: z.literal('goForward'), description }),
  /**
   * The page (or the target) shows `text`. With `role` and no target: one of the page's elements of that role shows
   * it ("the heading says 'Pricing'": one of the headings), and a failure lists what they show instead.
   */
  z.strictObject({
    action: z.literal('expectText'),
    description,
    text: z.string().min(1).max(500),
    /** Other texts any one of which will do instead ("it says either 'Saved' or 'Try again'"). */
    orText: z.array(z.string().min(1).max(500)).min(1).max(10).optional(),
    target: targetSchema.optional(),
    role: z.string().min(1).max(40).optional(),
    criterion: z.string().optional(),
  }),
  /** The document's title contains `text` (case-insensitive, white space collapsed, as expectText). */
  z.strictObject({ action: z.literal('expectTitle'), description, text: z.string().min(1).max(500), criterion: z.string().optional() }),
  /** The field's current value is exactly `text` (empty for "the Coupon field is empty"). */
  z.strictObject({ action: z.literal('expectValue'), description, target: targetSchema, text: z.string().max(2_000), criterion: z.string().optional() }),
  /**
   * The URL contains `contains`. With `page` (a page the task named, whose path `contains` only guesses): or the page
   * shows that name, in its title or its text ("you land on the Products page").
   */
  z.strictObject({
    action: z.literal('expectUrl'),
    description,
    contains: z.string().min(1).max(2_048),
    page: z.string().min(1).max(200).optional(),
    /**
     * A page said by how it was reached, not by its name (src/browser/page-history.ts): `back`, the page before the one
     * just left ("back on the product list"); `new`, a page other than the one before the last action ("its details
     * page opens"). Run so, it is compiled as the address reached.
     */
    reached: z.enum(['back', 'new']).optional(),
    criterion: z.string().optional(),
  }),
  z.strictObject({
    action: z.literal('expectState'),
    description,
    target: targetSchema,
    /** `valid` / `invalid`: a field passes or fails its own validation (constraint validation or `aria-invalid`). */
    /**
     * `selected` / `unselected`: chosen among its siblings: `aria-selected`, `aria-current`, `aria-pressed`, a checked
     * radio or a selected option, or (pages that say it only by styling) a class `selected`, `active` or `current`.
     * `focused`: it has the keyboard focus.
     */
    state: z.enum(['visible', 'hidden', 'enabled', 'disabled', 'checked', 'unchecked', 'valid', 'invalid', 'selected', 'unselected', 'focused']),
    criterion: z.string().optional(),
  }),
  /**
   * `target` matches `count` elements; with `itemRole`, `target` is a container ("the Plans list") and the elements
   * of that role inside it are counted ("three plans": the list items of the list named "Plans").
   */
  z.strictObject({
    action: z.literal('expectCount'),
    description,
    target: targetSchema,
    itemRole: z.string().min(1).max(40).optional(),
    count: z.number().int().min(0).max(10_000),
    criterion: z.string().optional(),
  }),
  /**
   * The items of a list show `texts`: the elements of `itemRole` (list items by default) inside `target` (a list, a
   * table, a section), or on the whole page without a target. Each text is matched by containment (case and white
   * space ignored), one item each. `only`: no other item is shown. `ordered`: the matched items appear in this order.
   */
  z.strictObject({
    action: z.literal('expectItems'),
    description,
    target: targetSchema.optional(),
    itemRole: z.string().min(1).max(40).default('listitem'),
    texts: z.array(z.string().min(1).max(500)).min(1).max(100),
    only: z.boolean().default(false),
    ordered: z.boolean().default(false),
    criterion: z.string().optional(),
  }),
  /**
   * What the page keeps in the browser's local storage ("saved in local storage"): src/core/storage-check.ts. Under
   * `key`, or any key: every text stored as a value; with `count`, the stored list has that many entries (`where`:
   * that many with that property set).
   */
  z.strictObject({
    action: z.literal('expectStorage'),
    description,
    key: z.string().min(1).max(200).optional(),
    texts: z.array(z.string().min(1).max(500)).max(50).default([]),
    count: z.number().int().min(0).max(10_000).optional(),
    where: z.string().regex(/^[A-Za-z_$][\w$]{0,60}$/).optional(),
    criterion: z.string().optional(),
  }),
  /** Calls the evidence probe configured for success criterion `criterion` (`evidenceProbeRefs`). */
  z.strictObject({ action: z.literal('probe'), description, criterion: z.string().min(1).max(100) }),
]);
export type PlanStep = z.infer<typeof stepSchema>;
export type StepAction = PlanStep['action'];

/** What must hold for the run to pass; assertion and probe steps name the criterion they verify by `key`. */
export const criterionSchema = z.strictObject({
  key: z.string().regex(/^[a-z0-9][a-z0-9_.-]{0,99}$/i, 'a criterion key is letters, digits, _ . -'),
  description,
});
export type SuccessCriterion = z.infer<typeof criterionSchema>;

/**
 * True when the task's answers allowed a real side effect (an order, a message, a deletion): a run of it that
 * stopped after its first step started is not repeated automatically (see workflows/qa-run.ts).
 */
export const sideEffectsSchema = z.boolean().optional();

/**
 * The side-effect kinds (planner/side-effects.ts: `purchase`, `delete`, …) the task's answers allowed. At run time a
 * click whose target names any other side effect stops the run (`side_effect_blocked`). Absent on plans written
 * before it existed: then `sideEffects: true` allows every kind and anything else allows none.
 */
export const allowedSideEffectsSchema = z.array(z.string().regex(/^[a-z_]{1,40}$/)).max(20).optional();

/** The kinds a plan or check allows, or 'all' for one written before the list existed that allowed side effects. */
export function allowedSideEffectsOf(plan: { sideEffects?: boolean; allowedSideEffects?: string[] }): readonly string[] | 'all' {
  if (plan.allowedSideEffects !== undefined) return plan.allowedSideEffects;
  return plan.sideEffects === true ? 'all' : [];
}

export const planSchema = z.strictObject({
  steps: z.array(stepSchema).min(1).max(100),
  successCriteria: z.array(criterionSchema).max(50),
  sideEffects: sideEffectsSchema,
  allowedSideEffects: allowedSideEffectsSchema,
});
export type Plan = z.infer<typeof planSchema>;

/** The test values a plan needs, by semantic name, in first-use order. */
export function testValuesOf(plan: Plan): string[] {
  const names: string[] = [];
  for (const step of plan.steps) {
    if ((step.action === 'fill' || step.action === 'select') && step.value.kind === 'testValue' && !names.includes(step.value.name)) {
      names.push(step.value.name);
    }
  }
  return names;
}
