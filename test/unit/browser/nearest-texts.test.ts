import { describe, expect, it } from '@jest/globals';
import { linesOf, nearestTexts, normalizedText, oneLine, similarity } from '../../../src/browser/nearest-texts.js';

describe('nearestTexts: what the page shows instead, nearest first', () => {
  it('puts the candidate most like the expected text first, and keeps page order among equals', () => {
    const headings = ['Welcome to Demo Shop', 'Featured gadgets', 'Pricing'];
    expect(nearestTexts('Gadgets Galore', headings)[0]).toBe('Featured gadgets');
    expect(nearestTexts('Gadgets Galore', headings)).toHaveLength(3);
    expect(nearestTexts('zzz', ['B', 'A'])).toEqual(['B', 'A']);
  });

  it('keeps at most `max`, drops empty texts and repeats that differ only in case or spacing', () => {
    expect(nearestTexts('Starter plan', ['Starter plan', '  starter   PLAN ', '', '   ', 'Pro plan', 'Team plan'])).toEqual(['Starter plan', 'Team plan', 'Pro plan']);
    expect(nearestTexts('Starter plan', ['Starter plan', 'Pro plan', 'Team plan'], { max: 2 })).toEqual(['Starter plan', 'Team plan']);
  });

  it('leaves out candidates below the threshold: lines of page text that are nothing like it', () => {
    const lines = linesOf('Demo Shop\nPricing\n\nOrder ORD-1001 confirmed\n  Total: $90  \nSign out');
    expect(lines).toEqual(['Demo Shop', 'Pricing', 'Order ORD-1001 confirmed', 'Total: $90', 'Sign out']);
    expect(nearestTexts('Order confirmed', lines, { threshold: 0.3 })).toEqual(['Order ORD-1001 confirmed']);
    expect(nearestTexts('Refund issued', lines, { threshold: 0.3 })).toEqual([]);
  });

  it('puts each candidate on one line, cut with an ellipsis', () => {
    expect(oneLine('Starter\n  $0 per month')).toBe('Starter $0 per month');
    expect(oneLine('x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('compares as expectations do: case and white space do not matter', () => {
    expect(normalizedText('  Gadgets \n GALORE ')).toBe('gadgets galore');
    expect(similarity('Gadgets Galore', 'gadgets   galore')).toBe(1);
    expect(similarity('abc', 'xyz')).toBe(0);
    expect(similarity('', '')).toBe(0);
  });
});
