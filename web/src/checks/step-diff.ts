/**
 * What a proposed (healed) version changed against the accepted one, step by step: a healing replay keeps the steps
 * and swaps the locator of the ones it healed, so steps are compared by position. A step only one side has is
 * `added` or `removed`.
 */

export type StepChange = 'locator' | 'toLocator' | 'action' | 'value';

export interface StepComparison {
  index: number;
  before: Record<string, unknown> | undefined;
  after: Record<string, unknown> | undefined;
  /** What differs; empty for a step both have unchanged. */
  changes: StepChange[];
  added: boolean;
  removed: boolean;
}

/** JSON with object keys in order, so `{a, b}` and `{b, a}` compare equal. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);
const field = (step: Record<string, unknown>, key: string): unknown => step[key];
const planned = (step: Record<string, unknown>): Record<string, unknown> =>
  typeof step.step === 'object' && step.step !== null ? (step.step as Record<string, unknown>) : {};

/** The value-like fields of a planned step: everything but its action, its description and its targets. */
function valueOf(step: Record<string, unknown>): Record<string, unknown> {
  const { action: _action, description: _description, target: _target, to: _to, ...rest } = planned(step);
  return rest;
}

/** Each step of `before` (the accepted version) against the same position in `after` (the proposal). */
export function diffSteps(before: Record<string, unknown>[], after: Record<string, unknown>[]): StepComparison[] {
  const length = Math.max(before.length, after.length);
  const rows: StepComparison[] = [];
  for (let index = 0; index < length; index++) {
    const old = before[index];
    const next = after[index];
    const changes: StepChange[] = [];
    if (old !== undefined && next !== undefined) {
      if (!same(field(old, 'locator'), field(next, 'locator'))) changes.push('locator');
      if (!same(field(old, 'toLocator'), field(next, 'toLocator'))) changes.push('toLocator');
      if (!same(planned(old).action, planned(next).action)) changes.push('action');
      if (!same(valueOf(old), valueOf(next))) changes.push('value');
    }
    rows.push({ index, before: old, after: next, changes, added: old === undefined, removed: next === undefined });
  }
  return rows;
}

/** The positions whose locators the proposal changed (where the healing run's screenshots were taken). */
export function changedLocatorIndexes(rows: StepComparison[]): number[] {
  return rows.filter((row) => row.changes.includes('locator') || row.changes.includes('toLocator')).map((row) => row.index);
}
