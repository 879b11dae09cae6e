/**
 * Sentences that fill and send a form, one step per sentence, in the words the rule planner reads as they are
 * ("Fill in the "Email" field with "qa@example.com"."): labels and values quoted, so a label with "and" in it never
 * splits a clause. Values are literals of the field's shape, never secrets: the flow that needs real credentials
 * says "Sign in", which the planner fills from the repository's configured test values.
 */
import type { IndexedField } from '../model.js';
import { fieldWords, isPassword, isTyped, type FormFacts } from './form-kinds.js';
import { cleanLabel } from './words.js';

/** At most this many fields filled by one flow: a form longer than that is filled in its required fields only. */
export const MAX_FILLED_FIELDS = 8;

/** What a person sees a field called, safe to quote; '' when it has no words at all. */
export function fieldLabel(field: IndexedField): string {
  return cleanLabel(field.label) || cleanLabel(field.name?.replace(/[_-]+/g, ' '));
}

/** A value of the field's shape that passes its own checks (within its bounds). */
export function sampleValue(field: IndexedField): string {
  const words = fieldWords(field);
  if (isPassword(field)) return 'Secret-Pass-123';
  if (field.type === 'email' || /e ?mail/.test(words)) return 'qa@example.com';
  if (field.type === 'number' || field.type === 'range') return String(field.min ?? (field.max !== undefined && field.max < 1 ? field.max : 1));
  if (field.type === 'tel' || /\bphone\b/.test(words)) return '5550100123';
  if (field.type === 'url' || /\b(?:website|url)\b/.test(words)) return 'https://example.com';
  if (field.type === 'date') return '2030-01-15';
  if (/\b(?:zip|postal|postcode)\b/.test(words)) return '12345';
  if (/\bfirst ?name\b/.test(words)) return 'Ada';
  if (/\b(?:last ?name|surname)\b/.test(words)) return 'Lovelace';
  if (/\bsearch\b|^q\b/.test(words) || field.type === 'search') return 'test';
  if (field.type === 'textarea' || /\b(?:message|comment)\b/.test(words)) return 'Hello from a QA check';
  const text = /\bname\b/.test(words) ? 'Ada Lovelace' : 'Test';
  return field.maxLength !== undefined && field.maxLength > 0 ? text.slice(0, field.maxLength) : text;
}

/** The fields a flow fills: the typed ones (required ones first when there are too many) and required ticks. */
export function fieldsToFill(form: FormFacts): IndexedField[] {
  const usable = form.fields.filter((field) => fieldLabel(field) !== '' && (isTyped(field) || (field.type === 'checkbox' && field.required)));
  if (usable.length <= MAX_FILLED_FIELDS) return usable;
  const required = usable.filter((field) => field.required);
  return (required.length > 0 ? required : usable).slice(0, MAX_FILLED_FIELDS);
}

export function fillSentence(field: IndexedField, value: string): string {
  const label = fieldLabel(field);
  if (field.type === 'checkbox') return `Tick the "${label}" checkbox.`;
  return value === '' ? `Leave the "${label}" field empty.` : `Fill in the "${label}" field with "${value}".`;
}

/** The sentence that sends the form: its button by its words, else Enter in its last typed field. */
export function submitSentence(form: FormFacts): string {
  const submit = cleanLabel(form.submitLabel);
  if (submit !== '') return `Click the "${submit}" button.`;
  const last = form.fields.filter((field) => isTyped(field) && fieldLabel(field) !== '').at(-1);
  return last === undefined ? 'Press Enter.' : `Click the "${fieldLabel(last)}" field and press Enter.`;
}

/** How a run tells the form was refused: it is still there (its button, else its last field). */
export function stillShownSentence(form: FormFacts): string {
  const submit = cleanLabel(form.submitLabel);
  if (submit !== '') return `Check that the "${submit}" button is still shown.`;
  const last = form.fields.filter((field) => fieldLabel(field) !== '').at(-1);
  return last === undefined ? 'Check that the page still shows the form.' : `Check that the "${fieldLabel(last)}" field is still shown.`;
}

/** Fills every field to fill, `overrides` (by field) replacing the sample value. */
export function fillSentences(form: FormFacts, overrides: ReadonlyMap<IndexedField, string> = new Map()): string[] {
  return fieldsToFill(form).map((field) => fillSentence(field, overrides.get(field) ?? sampleValue(field)));
}

/** The words of the controls a form flow uses: its fields' labels, then its button. */
export function formControls(form: FormFacts): string[] {
  const labels = fieldsToFill(form).map(fieldLabel);
  const submit = cleanLabel(form.submitLabel);
  return [...new Set(submit === '' ? labels : [...labels, submit])];
}
