/**
 * The answer a model must give, as a zod schema written for OpenAI's strict structured outputs, and the JSON Schema
 * generated from it (`z.toJSONSchema`) that goes into `response_format`.
 *
 * Why not `planSchema` itself: strict mode accepts only a subset of JSON Schema
 * (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas). Every property must be required
 * (optional ones are nullable instead), every object closed, no `oneOf` (zod emits it for discriminated unions), no
 * `default`, no string lengths, and the root must be a plain object. So this schema says the same shapes in that
 * subset, and openai-answer.ts checks the limits it cannot say by converting the plan and parsing it with
 * `planSchema`. test/unit/planner/openai-answer.test.ts holds the two schemas to the same actions and fields.
 */
import { z } from 'zod';

/** Bounds the answer (and so the tokens it costs); a task that needs more steps is better split into checks. */
export const MAX_MODEL_STEPS = 50;
export const MAX_MODEL_QUESTIONS = 5;
export const MAX_MODEL_ASSUMPTIONS = 10;
export const MAX_MODEL_CRITERIA = 20;

const target = z
  .strictObject({
    by: z
      .enum(['role', 'label', 'text', 'placeholder', 'description'])
      .describe('How the page names it; "description" when the task describes it in its own words ("the field for new items") and the runner finds it on the page.'),
    role: z.string().nullable().describe('The ARIA role when by is "role" (button, link, heading, textbox, checkbox, combobox, list, …), or the kind of element a description means when known; else null.'),
    name: z
      .string()
      .describe('The accessible name, label, visible text or placeholder, as the page shows it; for "description", the task\'s words; "" for an element with no name of its own picked by within or nth.'),
    exact: z.boolean().describe('true to match the name exactly, false for a case-insensitive substring.'),
    // Required in the schema sent (strict mode), but an answer without it reads as null: a server that does not
    // enforce the schema, or a model answering an older one, still plans as before.
    purpose: z
      .enum(['signIn'])
      .nullable()
      .prefault(null)
      .describe('"signIn" on the click that submits a sign-in form: the runner finds that form\'s submit button whatever the page calls it (Sign in, Log in, Continue, …); else null.'),
    within: z
      .strictObject({ text: z.string().describe('Text the container shows as its own ("Pay rent").') })
      .nullable()
      .prefault(null)
      .describe('The list item, row, card or dialog the element is inside, by a text it shows ("the checkbox of Pay rent"); else null.'),
    nth: z
      .number()
      .int()
      .min(-1)
      .max(1_000)
      .nullable()
      .prefault(null)
      .describe('Which of several matches, from 1 in page order, -1 for the last, only when the task says which ("the second row"); else null.'),
  })
  .describe('A page element described the way a person would.');

const value = z.union([
  z.strictObject({ kind: z.enum(['literal']), text: z.string().describe('Text written in the task itself.') }),
  z.strictObject({ kind: z.enum(['testValue']), name: z.string().describe('One of the configured test value names, never a value.') }),
]);

const description = z.string().describe('What the step does, in a short sentence.');
const criterion = z.string().nullable().describe('The key of the success criterion this step verifies, or null.');

function step<A extends string, S extends z.ZodRawShape>(action: A, shape: S) {
  return z.strictObject({ action: z.enum([action]), description, ...shape });
}

const stepSchema = z.union([
  step('navigate', {
    url: z.string().describe('A path on the site under test ("/pricing"), or a full URL on an allowed host.'),
    page: z.string().nullable().prefault(null).describe('The page as the task names it ("Dropdown List") when the task gives no path; url is then a guess and the run looks for the page first; else null.'),
  }),
  step('click', { target }),
  step('fill', { target, value }),
  step('select', { target, value }),
  step('check', { target, checked: z.boolean() }),
  step('press', { key: z.string().describe('A key such as "Enter".'), target: target.nullable() }),
  step('waitFor', { target }),
  step('dblclick', { target }),
  step('rightClick', { target }),
  step('hover', { target }),
  step('clear', { target }),
  step('scrollTo', { target }),
  step('dragTo', { target, to: target.describe('Where the target is dropped.') }),
  step('upload', { target, fileName: z.string().describe('The name of the file to upload ("receipt.pdf"); the runner makes a small valid file of that kind.') }),
  step('reload', {}),
  step('dialog', {
    accept: z.boolean().describe('true to press OK (accept), false to press Cancel (dismiss).'),
    promptText: z.string().nullable().describe('For a prompt accepted with text typed into it: that text; else null.'),
    text: z.string().nullable().describe('Text the dialog\'s message contains, when the task says what it says; else null.'),
    criterion,
  }),
  step('goBack', {}),
  step('goForward', {}),
  step('expectText', {
    text: z.string(),
    orText: z.array(z.string()).nullable().prefault(null).describe('Other texts any one of which will do instead ("either A or B": text A, orText [B]); else null.'),
    target: target.nullable(),
    role: z.string().nullable().describe('Without a target: the role of the page elements one of which shows the text ("heading" for "the heading says …"); else null.'),
    criterion,
  }),
  step('expectTitle', { text: z.string().describe('Text the page title contains.'), criterion }),
  step('expectValue', { target, text: z.string().describe('The exact value the field holds; "" for an empty field.'), criterion }),
  step('expectUrl', {
    contains: z.string(),
    page: z.string().nullable().prefault(null).describe('The page as the task names it ("Products") when contains only guesses its path; else null.'),
    reached: z.enum(['back', 'new']).nullable().prefault(null).describe('"back" for the page before the one just left ("back on the list"), "new" for the page the last action opened ("its details page opens"); else null.'),
    criterion,
  }),
  step('expectState', {
    target,
    state: z.enum(['visible', 'hidden', 'enabled', 'disabled', 'checked', 'unchecked', 'valid', 'invalid', 'selected', 'unselected', 'focused']),
    criterion,
  }),
  step('expectCount', {
    target,
    itemRole: z.string().nullable().describe('With a container target: the role of the elements inside it to count; else null.'),
    count: z.number().int().min(0).max(10_000),
    criterion,
  }),
  step('expectItems', {
    target: target.nullable().describe('The list, table or section the items are in; null for the whole page.'),
    itemRole: z.string().nullable().describe('The role of the items (listitem, row, option, article, …); null for listitem.'),
    texts: z.array(z.string()).min(1).max(100).describe('Texts the items show, one item each (contained, case ignored).'),
    only: z.boolean().describe('true when no other item may be shown.'),
    ordered: z.boolean().describe('true when the items must appear in this order.'),
    criterion,
  }),
  step('expectStorage', {
    key: z.string().nullable().describe("The local storage key the app keeps its data under, when the task names it; else null."),
    texts: z.array(z.string()).max(50).describe('Texts that must be stored as values (a todo\'s title); may be empty.'),
    count: z.number().int().min(0).max(10_000).nullable().describe('How many entries the stored list has; else null.'),
    where: z.string().nullable().describe('With count: the property those entries have set ("completed"); else null.'),
    criterion,
  }),
  step('probe', { criterion: z.string().describe('An evidence criterion key from the request; calls its probe.') }),
]);

/** The model's answer as it arrives on the wire: `plan` for kind "plan", `questions` for kind "questions". */
export const wireAnswerSchema = z.strictObject({
  kind: z.enum(['plan', 'questions']).describe('"plan" when the task can run as written, "questions" when something must be asked first.'),
  plan: z
    .strictObject({
      steps: z.array(stepSchema).min(1).max(MAX_MODEL_STEPS),
      successCriteria: z
        .array(
          z.strictObject({
            key: z.string().describe('letters, digits, _ . - (for example "three_plans")'),
            description,
          }),
        )
        .max(MAX_MODEL_CRITERIA),
    })
    .nullable()
    .describe('The plan when kind is "plan"; else null.'),
  questions: z
    .array(z.strictObject({ question: z.string(), ambiguity: z.string().describe('Why the task cannot be planned without the answer.') }))
    .max(MAX_MODEL_QUESTIONS)
    .describe('The questions when kind is "questions"; else empty.'),
  assumptions: z.array(z.string()).max(MAX_MODEL_ASSUMPTIONS).describe('How the task was read where it left room.'),
});
export type WireAnswer = z.infer<typeof wireAnswerSchema>;
/** One step of the vocabulary as a model writes it (also the step of a page answer: openai-page-answer.ts). */
export const wireStepSchema = stepSchema;
export type WireStep = z.infer<typeof stepSchema>;

/** `response_format.json_schema.name` (a-z, A-Z, 0-9, _ and -). */
export const ANSWER_SCHEMA_NAME = 'qa_plan_answer';

/** The JSON Schema of `wireAnswerSchema`, without `$schema` (strict mode knows its own dialect). */
export function answerJsonSchema(): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(wireAnswerSchema, { target: 'draft-2020-12' }) as Record<string, unknown>;
  return schema;
}
