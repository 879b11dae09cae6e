import { describe, expect, it } from '@jest/globals';
import { createScrubber, SECRET_MASK } from '../../../src/core/secrets.js';

describe('secret scrubber', () => {
  const scrubber = createScrubber(['hunter2-pass', 'hunter2', 'tok_ABC123', '', 'ab']);

  it('masks every occurrence, the longest secret first', () => {
    expect(scrubber.text('pw=hunter2-pass and hunter2, again hunter2')).toBe(`pw=${SECRET_MASK} and ${SECRET_MASK}, again ${SECRET_MASK}`);
    expect(scrubber.text('Bearer tok_ABC123')).toBe(`Bearer ${SECRET_MASK}`);
  });

  it('ignores empty and too-short values, which would mask ordinary text', () => {
    expect(scrubber.text('about a cab')).toBe('about a cab');
  });

  it('scrubs nested values and keys, leaving other types alone', () => {
    const at = new Date(0);
    expect(scrubber.value({ typed: ['x', 'hunter2'], hunter2: 1, n: 3, ok: true, none: null, at })).toEqual({
      typed: ['x', SECRET_MASK], [SECRET_MASK]: 1, n: 3, ok: true, none: null, at,
    });
  });

  it('tells whether text holds a secret', () => {
    expect(scrubber.holds('xx tok_ABC123 yy')).toBe(true);
    expect(scrubber.holds('nothing here')).toBe(false);
  });
});
