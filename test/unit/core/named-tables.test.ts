import { describe, expect, it } from '@jest/globals';
import { flattenSnapshot, groundTarget, type SnapshotNode } from '../../../src/core/grounding.js';
import { tablesNamed } from '../../../src/core/named-tables.js';
import type { Target } from '../../../src/core/plan.js';

/** Two tables of the same people, each under its heading, as an invoicing page might show current and archived. */
const row = (ref: string, name: string, prefix: string): SnapshotNode => ({
  role: 'row',
  ref: `${prefix}${ref}`,
  children: [
    { role: 'cell', name, ref: `${prefix}${ref}c` },
    { role: 'cell', ref: `${prefix}${ref}a`, children: [{ role: 'link', name: 'open', ref: `${prefix}${ref}o` }, { role: 'link', name: 'remove', ref: `${prefix}${ref}r` }] },
  ],
});
const PAGE: SnapshotNode[] = [
  { role: 'heading', name: 'Invoices', level: 1, ref: 'h1' },
  { role: 'heading', name: 'Current', level: 3, ref: 'h2' },
  { role: 'table', ref: 't1', children: [row('1', 'Ada', 'a'), row('2', 'Grace', 'a')] },
  { role: 'heading', name: 'Archive 2023', level: 3, ref: 'h3' },
  { role: 'table', ref: 't2', children: [row('1', 'Ada', 'b'), row('2', 'Grace', 'b')] },
  { role: 'table', name: 'Totals', ref: 't3', children: [row('1', 'Ada', 'c')] },
];
const nodes = flattenSnapshot(PAGE);
const inRow = (name: string, text: string, table?: string): Target => ({ by: 'role', role: 'button', name, exact: true, within: { text, ...(table === undefined ? {} : { table }) } });

describe('a table named by a person', () => {
  it('is the table whose own name says it, else the one under a heading that says it', () => {
    expect(tablesNamed(nodes, 'Totals').map((table) => table.ref)).toEqual(['t3']);
    expect(tablesNamed(nodes, 'current').map((table) => table.ref)).toEqual(['t1']);
    expect(tablesNamed(nodes, 'Archive 2023').map((table) => table.ref)).toEqual(['t2']);
    expect(tablesNamed(nodes, 'Archive 20')).toEqual([]);
  });

  it('grounds a control in a row of that table only', () => {
    const archived = groundTarget(nodes, 'click', inRow('remove', 'Ada', 'Archive 2023'));
    expect(archived.kind === 'one' ? archived.node.ref : archived).toBe('b1r');
    const current = groundTarget(nodes, 'click', inRow('open', 'Grace', 'Current'));
    expect(current.kind === 'one' ? current.node.ref : current).toBe('a2o');
  });

  it('refuses a table the page does not have, and a row shown by several tables when no table is named', () => {
    expect(groundTarget(nodes, 'click', inRow('remove', 'Ada', 'Drafts'))).toMatchObject({ kind: 'none', message: expect.stringContaining('No table on the page is named "Drafts"') });
    expect(groundTarget(nodes, 'click', inRow('remove', 'Ada')).kind).toBe('several');
  });
});
