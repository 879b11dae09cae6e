/**
 * The edge cases of a form flow, each a task the rule planner runs as written. What the app answers is unknown
 * before a run (its error text is the app's own), so each case checks what must hold whatever the words: the form
 * was refused and is still there, or a field kept no more than it allows, or a page behind sign-in shows the
 * sign-in form to a visitor who has not signed in.
 */
import type { EdgeCase, IndexedField } from '../model.js';
import { fieldWords, isIdentity, isPassword, type FormFacts, type FormKind } from './form-kinds.js';
import { fieldLabel, fieldsToFill, fillSentences, stillShownSentence, submitSentence } from './form-steps.js';

/** At most this many cases of one kind per flow: one per field would drown a long form's flow. */
const MAX_PER_KIND = 3;

export interface FormPlace {
  /** The steps that bring a run to the form's page ("Open /login."). */
  opening: string[];
  form: FormFacts;
  kind: FormKind;
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'field';

function refusedTask(place: FormPlace, overrides: Map<IndexedField, string>): string {
  return [...place.opening, ...fillSentences(place.form, overrides), submitSentence(place.form), stillShownSentence(place.form)].join(' ');
}

/** A sign-in's identity and password are required whatever the markup says (many apps check them in script). */
function requiredFields(place: FormPlace): IndexedField[] {
  const fields = fieldsToFill(place.form).filter((field) => field.type !== 'checkbox');
  const signIn = place.kind === 'sign_in';
  return fields.filter((field) => field.required || (signIn && (isIdentity(field) || isPassword(field))));
}

function requiredEmpty(place: FormPlace): EdgeCase[] {
  return requiredFields(place)
    .slice(0, MAX_PER_KIND)
    .map((field) => ({
      key: `required-empty-${slug(fieldLabel(field))}`,
      kind: 'required_empty',
      name: `${fieldLabel(field)} left empty`,
      task: refusedTask(place, new Map([[field, '']])),
    }));
}

/** A value of the wrong shape for fields whose type states a shape the browser can hold as text. */
function invalidValue(field: IndexedField): string | undefined {
  if (field.type === 'email' || (/\be ?mail\b/.test(fieldWords(field)) && !isPassword(field))) return 'not-an-email';
  if (field.type === 'url') return 'not a web address';
  if (field.type === 'tel') return 'not a phone';
  return undefined;
}

function invalidFormat(place: FormPlace): EdgeCase[] {
  return fieldsToFill(place.form)
    .flatMap((field) => {
      const value = invalidValue(field);
      return value === undefined ? [] : [{ field, value }];
    })
    .slice(0, MAX_PER_KIND)
    .map(({ field, value }) => ({
      key: `invalid-format-${slug(fieldLabel(field))}`,
      kind: 'invalid_format',
      name: `${fieldLabel(field)} with an invalid value`,
      task: refusedTask(place, new Map([[field, value]])),
    }));
}

function wrongCredentials(place: FormPlace): EdgeCase[] {
  if (place.kind !== 'sign_in') return [];
  const fields = fieldsToFill(place.form);
  const identity = fields.find(isIdentity);
  const password = fields.find(isPassword);
  if (password === undefined) return [];
  const overrides = new Map<IndexedField, string>([[password, 'Wrong-Pass-987']]);
  if (identity !== undefined) overrides.set(identity, invalidValue(identity) === undefined ? 'no_such_user_qa' : 'no-such-user@example.com');
  return [{ key: 'wrong-credentials', kind: 'wrong_credentials', name: 'Wrong credentials', task: refusedTask(place, overrides) }];
}

/**
 * A field's bounds, tried one step past them: text longer than `maxlength` is cut to it as it is typed, and a
 * number outside `min`/`max` keeps the form from being sent.
 */
function boundaries(place: FormPlace): EdgeCase[] {
  const cases: EdgeCase[] = [];
  for (const field of fieldsToFill(place.form)) {
    const label = fieldLabel(field);
    if (field.maxLength !== undefined && field.maxLength > 0 && field.maxLength <= 500 && field.type !== 'number') {
      const longest = 'x'.repeat(field.maxLength);
      cases.push({
        key: `boundary-max-length-${slug(label)}`,
        kind: 'boundary',
        name: `${label} longer than ${field.maxLength} characters`,
        task: [...place.opening, `Fill in the "${label}" field with "${longest}x".`, `Check that the "${label}" field has the value "${longest}".`].join(' '),
      });
    }
    if (field.type === 'number' && field.max !== undefined) {
      cases.push({ key: `boundary-above-max-${slug(label)}`, kind: 'boundary', name: `${label} above ${field.max}`, task: refusedTask(place, new Map([[field, String(field.max + 1)]])) });
    }
    if (field.type === 'number' && field.min !== undefined) {
      cases.push({ key: `boundary-below-min-${slug(label)}`, kind: 'boundary', name: `${label} below ${field.min}`, task: refusedTask(place, new Map([[field, String(field.min - 1)]])) });
    }
  }
  return cases.slice(0, MAX_PER_KIND);
}

/** The edge cases of a form; a search has none that matter (any words are a valid search). */
export function formEdgeCases(place: FormPlace): EdgeCase[] {
  if (place.kind === 'search') return boundaries(place);
  return [...requiredEmpty(place), ...invalidFormat(place), ...wrongCredentials(place), ...boundaries(place)];
}

/** A page behind sign-in, opened by a visitor who has not signed in: the sign-in form is what it must show. */
export function signedOutAccess(entryPath: string, signInForm: FormFacts): EdgeCase {
  return {
    key: 'signed-out-access',
    kind: 'signed_out_access',
    name: `${entryPath} without signing in`,
    task: [`Open ${entryPath}.`, stillShownSentence(signInForm).replace(' still ', ' ')].join(' '),
  };
}
