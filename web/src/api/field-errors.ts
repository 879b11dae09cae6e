/**
 * The API's 400 (and a 404 of an id given in the body) names the offending fields (`details.field`, the first; `details.issues`, all of them as
 * `{ field, message }`, src/api/error-mapper.ts): a form shows each message next to its field instead of one line
 * at the top.
 */
export type FieldErrors = Record<string, string>;

interface WithDetails {
  status?: number;
  message?: string;
  details?: Record<string, unknown>;
}

const isIssue = (value: unknown): value is { field: string; message: string } =>
  typeof value === 'object' && value !== null && typeof (value as { field?: unknown }).field === 'string' && typeof (value as { message?: unknown }).message === 'string';

/**
 * The message for each field an error names, the first message per field; {} when it names none. An error without
 * `issues` (a use case's own 400, such as a wrong answer count, or the 404 of an unknown repository id) is given whole to its `details.field`.
 */
export function fieldErrorsOf(error: unknown): FieldErrors {
  if (typeof error !== 'object' || error === null) return {};
  const { status, message, details } = error as WithDetails;
  if (status === undefined || status < 400 || status >= 500 || details === undefined) return {};
  const errors: FieldErrors = {};
  const issues = Array.isArray(details.issues) ? details.issues.filter(isIssue) : [];
  for (const issue of issues) errors[issue.field] ??= issue.message;
  if (issues.length === 0 && typeof details.field === 'string' && message) errors[details.field] = message;
  return errors;
}

/** The errors of fields a form does not show (so they are not lost): `field: message`, one per line. */
export function otherFieldErrors(errors: FieldErrors, shown: (field: string) => boolean): string[] {
  return Object.entries(errors)
    .filter(([field]) => !shown(field))
    .map(([field, message]) => `${field}: ${message}`);
}

/**
 * The message for `field` or any field under it: `networkAllowlist.1` reads `entry 2: …`, `testValueSecretRefs.email`
 * reads `email: …`, so a list's message says which of its entries it is about.
 */
export function errorFor(errors: FieldErrors, field: string): string | undefined {
  if (errors[field] !== undefined) return errors[field];
  const nested = Object.keys(errors).find((key) => key.startsWith(`${field}.`));
  if (nested === undefined) return undefined;
  const [part] = nested.slice(field.length + 1).split('.');
  const which = /^[0-9]+$/.test(part!) ? `entry ${Number(part) + 1}` : part;
  return `${which}: ${errors[nested]}`;
}
