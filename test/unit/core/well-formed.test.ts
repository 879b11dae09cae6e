import { describe, expect, it } from '@jest/globals';
import { wellFormedJson, wellFormedText } from '../../../src/core/well-formed.js';

describe('wellFormedText', () => {
  it('replaces lone surrogates (high at the end, low at the start, reversed pairs) with U+FFFD', () => {
    expect(wellFormedText('abc\ud83d')).toBe('abc\ufffd');
    expect(wellFormedText('\udc00x')).toBe('\ufffdx');
    expect(wellFormedText('\ude00\ud83d')).toBe('\ufffd\ufffd');
    expect(wellFormedText('a\ud800\ud800b')).toBe('a\ufffd\ufffdb');
  });

  it('keeps valid text, real surrogate pairs (emoji) and control characters as they are', () => {
    const text = 'Check the 😀 page: é, \u0000\u001b[31m';
    expect(wellFormedText(text)).toBe(text);
    expect(Buffer.from(wellFormedText('x\ud83dy'), 'utf8').toString('utf8')).toBe('x\ufffdy');
  });
});

describe('wellFormedJson', () => {
  it('fixes every string of a nested payload, keys included, and leaves other values alone', () => {
    const payload = { event: { text: 'hi \ud83d', blocks: [{ elements: ['\udc00', 1, true, null] }] }, ['k\ud800']: 2, ok: '😀' };
    expect(wellFormedJson(payload)).toEqual({ event: { text: 'hi \ufffd', blocks: [{ elements: ['\ufffd', 1, true, null] }] }, ['k\ufffd']: 2, ok: '😀' });
    expect(JSON.stringify(wellFormedJson(payload))).not.toMatch(/\\ud[89a-f]/i);
  });
});
