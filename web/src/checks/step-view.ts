/**
 * A compiled step as a person reads it: the action, the element it acts on (the locator the replay uses, written as
 * Playwright would) and the value. The API passes steps on as plain objects (versions stored by older releases must
 * still read), so every field is read defensively and anything unexpected reads as blank rather than failing.
 */

export interface StepView {
  action: string;
  description: string;
  /** The element, as the replay finds it (`getByRole('button', { name: 'Save' })`), or '' for a step without one. */
  target: string;
  /** A drag's drop target, or ''. */
  to: string;
  /** What is typed, chosen, pressed or expected; a secret is only its test-value name (`secret: PASSWORD`), never a value. */
  value: string;
}

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '');
const quote = (value: string) => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

function nameOption(name: string, exact: unknown): string {
  if (name === '') return '';
  return exact === true ? `{ name: ${quote(name)}, exact: true }` : `{ name: ${quote(name)} }`;
}

/** A resolved locator (src/core/check.ts `resolvedLocatorSchema`) in Playwright's words. */
export function locatorText(locator: unknown): string {
  if (!isObject(locator)) return '';
  const name = text(locator.name);
  const exact = locator.exact === true ? ', { exact: true }' : '';
  let base: string;
  switch (locator.strategy) {
    case 'role': {
      const options = nameOption(name, locator.exact);
      base = `getByRole(${quote(text(locator.role))}${options ? `, ${options}` : ''})`;
      break;
    }
    case 'label':
      base = `getByLabel(${quote(name)}${exact})`;
      break;
    case 'text':
      base = `getByText(${quote(name)}${exact})`;
      break;
    case 'placeholder':
      base = `getByPlaceholder(${quote(name)}${exact})`;
      break;
    case 'css':
      base = `locator(${quote(name)})`;
      break;
    default:
      return '';
  }
  const parts: string[] = [];
  if (locator.within === 'passwordForm') parts.push(`locator('form:has(input[type="password"])')`);
  if (isObject(locator.scope)) parts.push(`getByRole(${quote(text(locator.scope.role))}).filter({ hasText: ${quote(text(locator.scope.text))} })`);
  parts.push(base);
  const nth = locator.nth;
  if (typeof nth === 'number') parts.push(nth === -1 ? 'last()' : `nth(${nth})`);
  return parts.join('.');
}

/** A planned target (no locator resolved yet): how the task described it. */
function targetText(target: unknown): string {
  if (!isObject(target)) return '';
  const kind = target.by === 'role' ? text(target.role) || 'element' : text(target.by);
  const name = text(target.name);
  const within = isObject(target.within) ? ` in "${text(target.within.text)}"` : '';
  return `${kind}${name ? ` "${name}"` : ''}${within}`;
}

function valueText(step: Loose): string {
  const value = step.value;
  if (isObject(value)) {
    if (value.kind === 'testValue') return `secret: ${text(value.name)}`;
    return `"${text(value.text)}"`;
  }
  if (typeof step.url === 'string') return step.url;
  if (typeof step.key === 'string') return step.key;
  if (typeof step.text === 'string') return `"${step.text}"`;
  if (Array.isArray(step.texts)) return step.texts.map((item) => `"${text(item)}"`).join(', ');
  if (typeof step.fileName === 'string') return step.fileName;
  if (typeof step.count === 'number') return `${step.count}`;
  if (typeof step.checked === 'boolean') return step.checked ? 'checked' : 'unchecked';
  return '';
}

/** One compiled step (`{ step, locator?, toLocator? }`) as a person reads it. */
export function stepView(compiled: Record<string, unknown>): StepView {
  const step = isObject(compiled.step) ? compiled.step : {};
  return {
    action: text(step.action) || '?',
    description: text(step.description),
    target: locatorText(compiled.locator) || targetText(step.target),
    to: locatorText(compiled.toLocator) || targetText(step.to),
    value: valueText(step),
  };
}
