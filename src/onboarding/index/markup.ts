/**
 * Markup as the indexer sees it, whatever it was written in (JSX, an HTML file, HTML inside a server's template
 * string): elements with their attributes, where a value the source computes is `null`, and their text. One
 * extraction of forms, links and test ids then serves every framework.
 */
import type { IndexedField } from '../model.js';
import type { FormFact, LinkFact, TestIdFact, UiFacts } from './facts.js';

export interface MarkupElement {
  tag: string;
  attrs: Record<string, string | null>;
  children: MarkupNode[];
  at: number;
}
export type MarkupNode = MarkupElement | string;

const TEST_ID_ATTRS = ['data-testid', 'data-test-id', 'data-test', 'data-cy', 'data-qa'];
const NOT_FIELDS = new Set(['hidden', 'submit', 'button', 'reset', 'image']);
const FIELD_COMPONENT_ENDINGS = ['Input', 'Field', 'Select', 'Textarea', 'TextArea', 'Checkbox', 'Radio', 'Switch', 'Picker', 'Combobox'];
/** Bounds per file, so one generated page cannot swell the index. */
const MAX_ITEMS = 2000;
const MAX_TEXT = 200;

const lastSegment = (tag: string): string => tag.slice(tag.lastIndexOf('.') + 1);
const isComponent = (tag: string): boolean => /^[A-Z]/.test(lastSegment(tag));

export function textOf(node: MarkupNode): string {
  const raw = typeof node === 'string' ? node : node.children.map(textOf).join(' ');
  return raw.replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT);
}

function* descendants(element: MarkupElement, stopAtForms = false): Generator<{ el: MarkupElement; labels: MarkupElement[] }> {
  const stack: { el: MarkupElement; labels: MarkupElement[] }[] = [{ el: element, labels: [] }];
  while (stack.length) {
    const { el, labels } = stack.pop()!;
    if (el !== element) yield { el, labels };
    if (el !== element && stopAtForms && isForm(el)) continue;
    const inner = el.tag === 'label' ? [...labels, el] : labels;
    for (let i = el.children.length - 1; i >= 0; i--) {
      const child = el.children[i];
      if (typeof child !== 'string') stack.push({ el: child, labels: inner });
    }
  }
}

function isForm(el: MarkupElement): boolean {
  return el.tag === 'form' || (isComponent(el.tag) && lastSegment(el.tag) === 'Form');
}

function fieldType(el: MarkupElement): string | null {
  const declared = el.attrs.type?.toLowerCase();
  if (el.tag === 'input') return NOT_FIELDS.has(declared ?? '') ? null : (declared ?? 'text');
  if (el.tag === 'select' || el.tag === 'textarea') return el.tag;
  if (!isComponent(el.tag)) return null;
  const name = lastSegment(el.tag);
  const ending = FIELD_COMPONENT_ENDINGS.find((end) => name.endsWith(end));
  if (!ending || (el.attrs.name === undefined && el.attrs.label === undefined)) return null;
  if (declared && !NOT_FIELDS.has(declared)) return declared;
  if (ending === 'Switch') return 'checkbox';
  return ['Select', 'Checkbox', 'Radio', 'Textarea'].includes(ending) ? ending.toLowerCase() : ending === 'TextArea' ? 'textarea' : 'text';
}

const present = (value: string | null | undefined): boolean => value !== undefined && value !== 'false';

function fieldOf(el: MarkupElement, type: string, labels: MarkupElement[], labelsById: Map<string, string>): IndexedField {
  const wrapping = labels.length ? textOf(labels[labels.length - 1]) : '';
  const byId = el.attrs.id ? labelsById.get(el.attrs.id) : undefined;
  const label = byId || wrapping || el.attrs['aria-label'] || el.attrs.label || el.attrs.placeholder || null;
  return {
    name: el.attrs.name ?? null,
    label,
    type,
    required: present(el.attrs.required) || el.attrs['aria-required'] === 'true',
  };
}

function submitLabelOf(form: MarkupElement): string | null {
  const buttons = [...descendants(form, true)].map(({ el }) => el);
  const explicit = buttons.find((el) => (el.tag === 'button' || el.tag === 'input' || isComponent(el.tag)) && el.attrs.type === 'submit');
  const implicit = buttons.find((el) => el.tag === 'button' && el.attrs.type === undefined);
  const component = buttons.find((el) => isComponent(el.tag) && lastSegment(el.tag).endsWith('Button') && el.attrs.type === undefined);
  const button = explicit ?? implicit ?? component;
  if (!button) return null;
  return textOf(button) || button.attrs['aria-label'] || button.attrs.value || null;
}

function linkOf(el: MarkupElement): string | null {
  const value = el.tag === 'a' || el.tag === 'area' ? el.attrs.href : isComponent(el.tag) ? (el.attrs.href ?? el.attrs.to) : undefined;
  if (!value) return null;
  const lower = value.toLowerCase();
  if (value.startsWith('#') || ['javascript:', 'mailto:', 'tel:', 'data:'].some((scheme) => lower.startsWith(scheme))) return null;
  return value;
}

/** Forms with their fields and submit words, links and test ids of a file's markup. */
export function uiFactsOf(roots: MarkupElement[]): UiFacts {
  const labelsById = new Map<string, string>();
  const all: { el: MarkupElement; labels: MarkupElement[] }[] = [];
  for (const root of roots) {
    all.push({ el: root, labels: [] }, ...descendants(root));
  }
  for (const { el } of all) {
    const target = el.attrs.htmlFor ?? el.attrs.for;
    if (el.tag === 'label' && target) labelsById.set(target, textOf(el));
  }
  const forms: FormFact[] = [];
  const links: LinkFact[] = [];
  const testIds: TestIdFact[] = [];
  for (const { el } of all) {
    if (isForm(el) && forms.length < MAX_ITEMS) {
      const fields: IndexedField[] = [];
      for (const inner of descendants(el, true)) {
        const type = fieldType(inner.el);
        if (type) fields.push(fieldOf(inner.el, type, inner.labels, labelsById));
      }
      const method = (el.attrs.method ?? 'get').toUpperCase();
      forms.push({ action: el.attrs.action ?? null, method, fields, submitLabel: submitLabelOf(el), at: el.at });
    }
    const link = linkOf(el);
    if (link && links.length < MAX_ITEMS) links.push({ to: link, at: el.at });
    for (const attr of TEST_ID_ATTRS) {
      const id = el.attrs[attr];
      if (id && testIds.length < MAX_ITEMS) testIds.push({ id, at: el.at });
    }
  }
  return { forms, links, testIds };
}
