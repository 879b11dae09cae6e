import { describe, expect, it } from '@jest/globals';
import { MAX_STORED_JSON_DEPTH, storableJson, TOO_DEEP, wellFormedText } from '../../../src/core/storable-json.js';

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

/** `depth` levels of nested arrays around 1. */
const nested = (depth: number): unknown => (depth === 0 ? 1 : [nested(depth - 1)]);

describe('storableJson', () => {
  it('fixes every string of a nested payload, keys included, and leaves other values alone', () => {
    const payload = { event: { text: 'hi \ud83d', blocks: [{ elements: ['\udc00', 1, true, null] }] }, ['k\ud800']: 2, ok: '😀' };
    expect(storableJson(payload)).toEqual({ event: { text: 'hi \ufffd', blocks: [{ elements: ['\ufffd', 1, true, null] }] }, ['k\ufffd']: 2, ok: '😀' });
    expect(JSON.stringify(storableJson(payload))).not.toMatch(/\\ud[89a-f]/i);
  });

  it('keeps a value nested as deep as MariaDB takes, and replaces only what lies deeper', () => {
    expect(storableJson(nested(MAX_STORED_JSON_DEPTH))).toEqual(nested(MAX_STORED_JSON_DEPTH));
    const deep = { text: 'kept', blocks: nested(MAX_STORED_JSON_DEPTH + 10) };
    const stored = storableJson(deep) as { text: string; blocks: unknown };
    expect(stored.text).toBe('kept');
    // The object is level 1, so its blocks keep 30 levels of arrays; the 31st level is the marker.
    expect(JSON.stringify(stored.blocks)).toBe(`${'['.repeat(MAX_STORED_JSON_DEPTH - 1)}"${TOO_DEEP}"${']'.repeat(MAX_STORED_JSON_DEPTH - 1)}`);
  });
});
