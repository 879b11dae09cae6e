/**
 * The page as a model is shown it: Playwright's AI-mode snapshot (the JSON `ariaSnapshotJSON` gives, as seen in
 * headless Chromium) written as Playwright writes it, with no field value, secrets masked, and bounded.
 */
import { describe, expect, it } from '@jest/globals';
import type { SnapshotNode } from '../../../src/core/grounding.js';
import { HIDDEN_VALUE, renderPageSnapshot, TRUNCATION_NOTE } from '../../../src/core/page-snapshot.js';
import { createScrubber } from '../../../src/core/secrets.js';

/** A sign-in form and a todo list, as Playwright 1.65 gave them after the user field was filled. */
const PAGE: SnapshotNode[] = [
  {
    role: 'generic',
    ref: 'e1',
    children: [
      { role: 'heading', name: 'Notes', level: 1, ref: 'e2' },
      { role: 'paragraph', ref: 'e3', children: ['Signed in as bob@example.com'] },
      { role: 'generic', ref: 'e4', children: ['User', { role: 'textbox', name: 'User', active: true, ref: 'e5', text: 'bob@example.com' }] },
      { role: 'generic', ref: 'e6', children: ['Pass', { role: 'textbox', name: 'Pass', ref: 'e7', text: 'hunter22' }] },
      { role: 'textbox', name: 'Title', placeholder: 'Title', ref: 'e8' },
      {
        role: 'list',
        ref: 'e11',
        children: [
          { role: 'listitem', ref: 'e12', children: [{ role: 'checkbox', ref: 'e13' }, 'Pay rent', { role: 'button', name: 'Delete', ref: 'e14' }] },
          { role: 'listitem', ref: 'e15', children: [{ role: 'checkbox', checked: true, ref: 'e16' }, 'Buy milk', { role: 'button', name: 'Delete', disabled: true, ref: 'e17' }] },
        ],
      },
      { role: 'link', name: 'Docs', ref: 'e18', cursor: 'pointer', url: 'https://example.org/x' },
    ],
  },
];

const noMask = (text: string) => text;

describe('renderPageSnapshot', () => {
  it("writes every element as Playwright's AI-mode YAML does, refs and states included", () => {
    const { text, truncated } = renderPageSnapshot(PAGE, { maxChars: 10_000, mask: noMask });

    expect(truncated).toBe(false);
    expect(text.split('\n')).toEqual([
      '- generic [ref=e1]',
      '  - heading "Notes" [level=1] [ref=e2]',
      '  - paragraph [ref=e3]',
      '    - text: Signed in as bob@example.com',
      '  - generic [ref=e4]',
      '    - text: User',
      `    - textbox "User" [active] [ref=e5]: ${HIDDEN_VALUE}`,
      '  - generic [ref=e6]',
      '    - text: Pass',
      `    - textbox "Pass" [ref=e7]: ${HIDDEN_VALUE}`,
      '  - textbox "Title" [placeholder="Title"] [ref=e8]',
      '  - list [ref=e11]',
      '    - listitem [ref=e12]',
      '      - checkbox [ref=e13]',
      '      - text: Pay rent',
      '      - button "Delete" [ref=e14]',
      '    - listitem [ref=e15]',
      '      - checkbox [checked] [ref=e16]',
      '      - text: Buy milk',
      '      - button "Delete" [disabled] [ref=e17]',
      '  - link "Docs" [ref=e18] [url=https://example.org/x]',
    ]);
  });

  it('never shows what a field holds: a typed test value and a password stay in the page', () => {
    const { text } = renderPageSnapshot(PAGE, { maxChars: 10_000, mask: noMask });

    expect(text).not.toContain('hunter22');
    expect(text.match(/bob@example\.com/g)).toHaveLength(1); // the page's own text, which the scrubber masks below
  });

  it("masks the run's secrets wherever the page shows them as text", () => {
    const scrubber = createScrubber(['bob@example.com']);

    const { text } = renderPageSnapshot(PAGE, { maxChars: 10_000, mask: scrubber.text });

    expect(text).not.toContain('bob@example.com');
    expect(text).toContain('- text: Signed in as [secret]');
  });

  it('keeps whole lines in page order within the bound and ends with a note saying how much more there is', () => {
    const long: SnapshotNode[] = [{ role: 'list', ref: 'e1', children: Array.from({ length: 500 }, (_, i) => ({ role: 'listitem', ref: `e${i + 2}`, text: `Item number ${i + 1}` })) }];

    const { text, truncated } = renderPageSnapshot(long, { maxChars: 2_000, mask: noMask });

    const lines = text.split('\n');
    expect(truncated).toBe(true);
    expect(text.length).toBeLessThanOrEqual(2_000);
    expect(lines[1]).toBe('  - listitem [ref=e2]: Item number 1');
    expect(lines.at(-2)).toMatch(/^ {2}- listitem \[ref=e\d+\]: Item number \d+$/);
    const shown = lines.length - 2;
    expect(lines.at(-1)).toBe(`${TRUNCATION_NOTE} ${501 - 1 - shown} more lines not shown (the snapshot is bounded to 2000 characters)`);
  });

  it('cuts a very long name or text to its first 200 characters', () => {
    const { text } = renderPageSnapshot([{ role: 'button', name: 'x'.repeat(1_000), ref: 'e1' }], { maxChars: 10_000, mask: noMask });

    expect(text).toBe(`- button "${'x'.repeat(199)}…" [ref=e1]`);
  });
});
