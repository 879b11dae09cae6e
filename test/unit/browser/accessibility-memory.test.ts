import { describe, expect, it } from '@jest/globals';
import { createAccessibilityMemory } from '../../../src/browser/accessibility-memory.js';
import type { AxeViolation } from '../../../src/browser/accessibility-findings.js';

const violation = (id: string): AxeViolation => ({ id, impact: 'critical', help: id, helpUrl: `https://example.test/${id}`, nodes: [{ target: ['img'], html: '<img>' }] });

describe('accessibility memory', () => {
  it('gives back the violations of a page only for the digest they were found with, in the same scope', () => {
    const memory = createAccessibilityMemory();
    memory.remember('check@1', 'https://shop.test/a', 'digest-1', [violation('image-alt')]);
    expect(memory.recall('check@1', 'https://shop.test/a', 'digest-1')).toEqual([violation('image-alt')]);
    expect(memory.recall('check@1', 'https://shop.test/a', 'digest-2')).toBeUndefined();
    expect(memory.recall('check@2', 'https://shop.test/a', 'digest-1')).toBeUndefined();
    expect(memory.recall('check@1', 'https://shop.test/b', 'digest-1')).toBeUndefined();
  });

  it('keeps only the latest audit of a page: a page changed back is audited again', () => {
    const memory = createAccessibilityMemory();
    memory.remember('check@1', 'https://shop.test/a', 'digest-1', [violation('image-alt')]);
    memory.remember('check@1', 'https://shop.test/a', 'digest-2', []);
    expect(memory.recall('check@1', 'https://shop.test/a', 'digest-2')).toEqual([]);
    expect(memory.recall('check@1', 'https://shop.test/a', 'digest-1')).toBeUndefined();
  });

  it('forgets the least recently used page beyond its bound', () => {
    const memory = createAccessibilityMemory({ maxPages: 2 });
    memory.remember('check@1', 'a', 'd', []);
    memory.remember('check@1', 'b', 'd', []);
    expect(memory.recall('check@1', 'a', 'd')).toEqual([]); // a is now the most recently used
    memory.remember('check@1', 'c', 'd', []);
    expect(memory.recall('check@1', 'b', 'd')).toBeUndefined();
    expect(memory.recall('check@1', 'a', 'd')).toEqual([]);
    expect(memory.recall('check@1', 'c', 'd')).toEqual([]);
  });

  it('tells scopes and pages apart whatever characters they contain', () => {
    const memory = createAccessibilityMemory();
    memory.remember('a\nb', 'c', 'd', [violation('label')]);
    expect(memory.recall('a', 'b\nc', 'd')).toBeUndefined();
  });
});
