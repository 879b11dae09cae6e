import { describe, expect, it } from '@jest/globals';
import { boundedComparison, FINDING_ACTUAL_ITEM_MAX, FINDING_ACTUAL_ITEMS_MAX, FINDING_EXPECTED_MAX } from '../../../src/core/findings.js';

describe('boundedComparison', () => {
  it('keeps a short comparison as it is', () => {
    expect(boundedComparison({ expected: 'Gadgets Galore', actual: ['Pricing', 'Starter'] })).toEqual({ expected: 'Gadgets Galore', actual: ['Pricing', 'Starter'] });
  });

  it('keeps the nearest candidates (the first ones) and cuts long texts with an ellipsis', () => {
    const bounded = boundedComparison({ expected: 'e'.repeat(FINDING_EXPECTED_MAX + 50), actual: Array.from({ length: 25 }, (_, i) => `${i}`.padEnd(FINDING_ACTUAL_ITEM_MAX + 10, '.')) });
    expect(bounded.expected).toHaveLength(FINDING_EXPECTED_MAX);
    expect(bounded.expected.endsWith('…')).toBe(true);
    expect(bounded.actual).toHaveLength(FINDING_ACTUAL_ITEMS_MAX);
    expect(bounded.actual.map((text) => text.split('.')[0])).toEqual(Array.from({ length: FINDING_ACTUAL_ITEMS_MAX }, (_, i) => `${i}`));
    for (const text of bounded.actual) expect(text).toHaveLength(FINDING_ACTUAL_ITEM_MAX);
  });
});
