/**
 * What a form is for, read from its fields, its submit words and where it is: the kind names the flow ("Sign in",
 * "Search") and decides its edge cases. Words, not markup: the same reading serves a crawled form and one the index
 * found in source.
 */
import type { IndexedField } from '../model.js';

export type FormKind = 'sign_in' | 'sign_up' | 'search' | 'checkout' | 'subscribe' | 'contact' | 'form';

/** The form as discovery reads it, wherever it was found. */
export interface FormFacts {
  fields: IndexedField[];
  submitLabel: string | null;
  method: string;
  action: string | null;
}

/** The words a field is known by: label, name and type, lower case. */
export function fieldWords(field: IndexedField): string {
  return [field.label, field.name, field.type].filter((part) => part !== null && part !== '').join(' ').toLowerCase().replace(/[_-]+/g, ' ');
}

export const isPassword = (field: IndexedField) => field.type === 'password' || /\b(?:password|passwort|passcode|pwd)\b/.test(fieldWords(field));
const isConfirmation = (field: IndexedField) => isPassword(field) && /\b(?:confirm|repeat|again|retype|verify)\b/.test(fieldWords(field));
export const isIdentity = (field: IndexedField) => !isPassword(field) && (field.type === 'email' || /\b(?:e ?mail|user ?name|user|login|account)\b/.test(fieldWords(field)));
const isSearch = (field: IndexedField) => field.type === 'search' || /^(?:q|s|query|search|keywords?)$/i.test(field.name ?? '') || /\bsearch\b/.test(fieldWords(field));
const isMessage = (field: IndexedField) => /\b(?:message|enquiry|inquiry)\b/.test(fieldWords(field));
const isCheckoutDetail = (field: IndexedField) => /\b(?:address|zip|postal|postcode|card|cvc|cvv|expir\w*|billing|shipping)\b/.test(fieldWords(field));
/** Fields a person types into (hidden and button-like inputs never reach FormFacts). */
export const isTyped = (field: IndexedField) => !['checkbox', 'radio', 'select', 'file', 'range', 'color'].includes(field.type);

const words = (text: string | null) => (text ?? '').toLowerCase();

export function formKind(form: FormFacts, path: string): FormKind {
  const submit = words(form.submitLabel);
  const where = path.toLowerCase();
  const passwords = form.fields.filter(isPassword);
  if (passwords.length > 0) {
    const signsUp =
      passwords.some(isConfirmation) || passwords.length > 1 || /\b(?:sign ?up|register|create|join|get started)\b/.test(submit) || /(?:register|sign-?up|join|new-account)/.test(where);
    return signsUp ? 'sign_up' : 'sign_in';
  }
  const typed = form.fields.filter(isTyped);
  if (typed.length >= 1 && typed.length <= 2 && typed.some(isSearch)) return 'search';
  if (form.fields.some(isCheckoutDetail) || /\b(?:checkout|check out|pay|place order)\b/.test(submit) || /checkout/.test(where)) return 'checkout';
  if (typed.length <= 2 && typed.some((field) => field.type === 'email' || /e ?mail/.test(fieldWords(field))) && /\b(?:subscribe|notify|join|sign ?up)\b/.test(submit)) return 'subscribe';
  if (form.fields.some(isMessage) || /\b(?:send|contact)\b/.test(submit) || /contact/.test(where)) return 'contact';
  return 'form';
}

/** The flow's name per kind; a plain form is named by its page or its button. */
export function kindName(kind: FormKind, title: string, submitLabel: string, path: string): string {
  switch (kind) {
    case 'sign_in':
      return 'Sign in';
    case 'sign_up':
      return 'Create an account';
    case 'search':
      return 'Search';
    case 'checkout':
      return 'Checkout';
    case 'subscribe':
      return 'Subscribe';
    case 'contact':
      // "Send invite" says more than "Send a message"; a bare "Send" or "Submit" says less.
      return /^(?:send|submit|contact|contact us|send message)$/i.test(submitLabel) || submitLabel === '' ? 'Send a message' : submitLabel;
    case 'form': {
      const what = (title !== '' ? title : submitLabel).replace(/^the\s+/i, '');
      return what === '' ? `Fill in the form on ${path}` : `Fill in the ${what} form`;
    }
  }
}
