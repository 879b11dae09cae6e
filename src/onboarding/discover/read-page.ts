/**
 * What the crawl reads of one loaded page, without acting on it: its title, its links, its forms with their fields
 * and submit words, its controls by role and accessible name (Playwright's AI-mode snapshot, as grounding reads it),
 * and its test ids. The page is untrusted: the script's answer is bounded in the page and checked again here, and a
 * page that will not answer in time is given up.
 */
import type { Page } from 'playwright';
import { z } from 'zod';
import { flattenSnapshot, type SnapshotNode } from '../../core/grounding.js';
import type { IndexedField } from '../model.js';

/** Bounds of what one page may contribute, however large it is. */
export const PAGE_BOUNDS = { links: 1_000, forms: 20, fields: 50, controls: 200, testIds: 300, text: 200 } as const;

const CONTROL_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'combobox', 'textbox', 'searchbox', 'spinbutton', 'slider', 'option']);

const text = z.string().max(PAGE_BOUNDS.text * 2);
const bound = z.number().finite().optional();
const fieldSchema = z.object({ name: text.nullable(), label: text.nullable(), type: text, required: z.boolean(), maxLength: bound, minLength: bound, min: bound, max: bound });
const readSchema = z.object({
  title: text,
  links: z.array(z.object({ href: z.string().max(4_096), text })).max(PAGE_BOUNDS.links),
  forms: z.array(z.object({ fields: z.array(fieldSchema).max(PAGE_BOUNDS.fields), submitLabel: text.nullable(), method: text, action: z.string().max(4_096).nullable() })).max(PAGE_BOUNDS.forms + 1),
  testIds: z.array(text).max(PAGE_BOUNDS.testIds),
  buttons: z.array(z.object({ role: text, name: text })).max(PAGE_BOUNDS.controls),
});
export type PageRead = z.infer<typeof readSchema>;

/**
 * Runs in the page. Fields outside any <form> (a script-driven sign-in) make one form of their own, sent by the
 * first button after them. Hidden inputs and buttons are not fields.
 */
const READ_SCRIPT = `((bounds) => {
  const clip = (value) => String(value == null ? '' : value).replace(/\\s+/g, ' ').trim().slice(0, bounds.text);
  const byIds = (ids) => clip((ids || '').split(/\\s+/).map((id) => { const el = id && document.getElementById(id); return el ? el.textContent : ''; }).join(' '));
  const labelOf = (el) => clip(el.getAttribute('aria-label')) || byIds(el.getAttribute('aria-labelledby')) || clip(el.labels && el.labels[0] ? el.labels[0].textContent : '') || clip(el.getAttribute('placeholder')) || clip(el.getAttribute('title')) || null;
  const numberOf = (el, name) => { const raw = el.getAttribute(name); if (raw === null || raw.trim() === '') return undefined; const n = Number(raw); return Number.isFinite(n) ? n : undefined; };
  const NOT_FIELDS = ['hidden', 'submit', 'button', 'image', 'reset'];
  const isField = (el) => (el.tagName === 'SELECT' || el.tagName === 'TEXTAREA' || (el.tagName === 'INPUT' && !NOT_FIELDS.includes((el.getAttribute('type') || 'text').toLowerCase())));
  const fieldOf = (el) => {
    const type = el.tagName === 'SELECT' ? 'select' : el.tagName === 'TEXTAREA' ? 'textarea' : clip((el.getAttribute('type') || 'text').toLowerCase());
    const field = { name: clip(el.getAttribute('name')) || null, label: labelOf(el), type, required: el.hasAttribute('required') || el.getAttribute('aria-required') === 'true' };
    for (const [key, attr] of [['maxLength', 'maxlength'], ['minLength', 'minlength'], ['min', 'min'], ['max', 'max']]) { const n = numberOf(el, attr); if (n !== undefined) field[key] = n; }
    return field;
  };
  const buttonWords = (el) => el ? (clip(el.tagName === 'INPUT' ? el.value : el.textContent) || clip(el.getAttribute('aria-label')) || null) : null;
  const SUBMITS = 'button:not([type=button]):not([type=reset]), input[type=submit], input[type=image]';
  const forms = Array.from(document.forms).slice(0, bounds.forms).map((form) => {
    const action = form.getAttribute('action');
    return {
      fields: Array.from(form.elements).filter(isField).slice(0, bounds.fields).map(fieldOf),
      submitLabel: buttonWords(form.querySelector(SUBMITS)),
      method: clip((form.getAttribute('method') || 'GET').toUpperCase()),
      action: action === null ? null : String(new URL(action, document.baseURI).href).slice(0, 4096),
    };
  }).filter((form) => form.fields.length > 0);
  const loose = Array.from(document.querySelectorAll('input, select, textarea')).filter((el) => isField(el) && !el.form).slice(0, bounds.fields);
  if (loose.length > 0) {
    const last = loose[loose.length - 1];
    const after = Array.from(document.querySelectorAll('button, input[type=submit], [role=button]')).find((b) => !b.closest('form') && (last.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING));
    forms.push({ fields: loose.map(fieldOf), submitLabel: buttonWords(after), method: 'GET', action: null });
  }
  const links = Array.from(document.querySelectorAll('a[href], area[href]')).filter((a) => !a.hasAttribute('download')).slice(0, bounds.links).map((a) => ({ href: String(a.href).slice(0, 4096), text: clip(a.textContent || a.getAttribute('aria-label')) }));
  const testIds = Array.from(new Set(Array.from(document.querySelectorAll('[data-testid], [data-test], [data-test-id], [data-cy]')).slice(0, bounds.testIds * 4).map((el) => clip(el.getAttribute('data-testid') || el.getAttribute('data-test') || el.getAttribute('data-test-id') || el.getAttribute('data-cy'))).filter(Boolean))).slice(0, bounds.testIds);
  const buttons = Array.from(document.querySelectorAll('button, [role=button], input[type=submit], input[type=button]')).slice(0, bounds.controls).map((b) => ({ role: 'button', name: buttonWords(b) || '' })).filter((b) => b.name !== '');
  return { title: clip(document.title), links, forms, testIds, buttons };
})`;

/** Gives up on a promise after `ms` (a page that loops for ever never answers `evaluate`). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function readPage(page: Page, timeoutMs: number): Promise<Omit<PageRead, 'buttons' | 'forms'> & { forms: Array<Omit<PageRead['forms'][number], 'fields'> & { fields: IndexedField[] }>; controls: { role: string; name: string }[] }> {
  const raw: unknown = await within(page.evaluate(`${READ_SCRIPT}(${JSON.stringify(PAGE_BOUNDS)})`), timeoutMs, 'reading the page');
  const read = readSchema.parse(raw);
  const controls = new Map<string, { role: string; name: string }>();
  const add = (role: string, name: string) => {
    if (name !== '' && controls.size < PAGE_BOUNDS.controls) controls.set(`${role}\n${name.slice(0, PAGE_BOUNDS.text)}`, { role, name: name.slice(0, PAGE_BOUNDS.text) });
  };
  const nodes = await snapshotNodes(page, timeoutMs);
  if (nodes !== undefined) for (const node of nodes) if (CONTROL_ROLES.has(node.role)) add(node.role, node.name);
  else {
    // A page too large to snapshot in time still names its buttons and links, as its markup writes them.
    for (const button of read.buttons) add('button', button.name);
    for (const link of read.links) add('link', link.text);
  }
  const { buttons: _buttons, ...rest } = read;
  return { ...rest, forms: read.forms.slice(0, PAGE_BOUNDS.forms).map((form) => ({ ...form, fields: form.fields.map(withoutUndefined) })), controls: [...controls.values()] };
}

async function snapshotNodes(page: Page, timeoutMs: number) {
  try {
    const tree: unknown = await within(page.ariaSnapshotJSON({ mode: 'ai' }), timeoutMs, 'the accessibility snapshot');
    return flattenSnapshot(Array.isArray(tree) ? (tree as SnapshotNode[]) : [tree as SnapshotNode]);
  } catch {
    return undefined;
  }
}

function withoutUndefined(field: z.infer<typeof fieldSchema>): IndexedField {
  return Object.fromEntries(Object.entries(field).filter(([, value]) => value !== undefined)) as unknown as IndexedField;
}
