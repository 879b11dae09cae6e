/**
 * The field errors of a refused write: the API's 400 names each offending field in `details.issues`
 * (src/api/error-mapper.ts), so a form shows each message next to its field. The first message per field wins.
 */
import { ApiError } from './client.js';

export type FieldErrors = Record<string, string>;

export function fieldErrorsOf(error: unknown): FieldErrors {
  if (!(error instanceof ApiError) || error.details === undefined) return {};
  const issues = error.details.issues;
  const errors: FieldErrors = {};
  if (!Array.isArray(issues)) return errors;
  for (const issue of issues as unknown[]) {
    if (typeof issue !== 'object' || issue === null) continue;
    const { field, message } = issue as { field?: unknown; message?: unknown };
    if (typeof field === 'string' && typeof message === 'string' && !(field in errors)) errors[field] = message;
  }
  return errors;
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
