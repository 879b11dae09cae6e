/**
 * The rules of a schedule's timing: a 5-field cron expression or an interval in minutes, in an IANA time zone.
 * Agenda computes the runs with `cron-parser` (agenda 6.2's own dependency, nodejs/cron-parser), so an expression
 * is checked with that same parser: what passes here is what Agenda will fire on. The parser alone is lenient (it
 * takes 4 or 6 fields, `@daily` and the random `H`), so the shape is checked strictly first.
 */
import { CronExpressionParser } from 'cron-parser';

export const MIN_INTERVAL_MINUTES = 5;
/** One week. */
export const MAX_INTERVAL_MINUTES = 10_080;
export const DEFAULT_TIME_ZONE = 'UTC';

/** One item of a field: `*`, `?`, a number or a 3-letter name, a range, a step, or the day forms `L`, `5L`, `1#2`. */
const VALUE = String.raw`(?:\d{1,2}|[A-Za-z]{3})`;
const ITEM = String.raw`(?:(?:\*|\?|${VALUE}(?:-${VALUE})?)(?:/\d{1,2})?|L|\d{1,2}L|\d#\d)`;
const FIELD = new RegExp(`^${ITEM}(?:,${ITEM})*$`);
const FIELD_NAMES = ['minute', 'hour', 'day of month', 'month', 'day of week'] as const;

/**
 * Why `expression` is not a usable 5-field cron expression (minute hour day-of-month month day-of-week), or
 * undefined when it is. `from` is when its runs would start: an expression that can never fire (30 February) fails.
 */
export function cronProblem(expression: string, from: Date): string | undefined {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) {
    return `must have 5 fields (minute hour day-of-month month day-of-week), got ${fields[0] === '' ? 0 : fields.length}`;
  }
  const bad = fields.findIndex((field) => !FIELD.test(field));
  if (bad !== -1) return `the ${FIELD_NAMES[bad]} field "${fields[bad]}" is not a cron field`;
  // cron-parser reads `?` as `*` anywhere; cron means it only for "no specific day".
  const question = fields.findIndex((field, index) => field.includes('?') && index !== 2 && index !== 4);
  if (question !== -1) return `"?" is allowed only in the day-of-month and day-of-week fields, not in the ${FIELD_NAMES[question]} field`;
  try {
    CronExpressionParser.parse(fields.join(' '), { currentDate: from, tz: DEFAULT_TIME_ZONE }).next();
  } catch (error) {
    return `is not a valid cron expression: ${error instanceof Error ? error.message : String(error)}`;
  }
  return undefined;
}

/** The expression as stored and shown: trimmed, single spaces between fields. */
export function normalizeCron(expression: string): string {
  return expression.trim().split(/\s+/).join(' ');
}

/** An IANA zone name's shape (`Europe/Berlin`, `UTC`, `Etc/GMT+5`); offsets such as `+02:00` are not zones. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/**
 * The canonical name of an IANA time zone (as the runtime's ICU data spells it: `utc` → `UTC`), or undefined for
 * anything the runtime does not know. Agenda resolves zones through the same Intl data (via luxon).
 */
export function canonicalTimeZone(name: string): string | undefined {
  if (name.length > 64 || !ZONE_NAME.test(name)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}
