import { describe, expect, it } from '@jest/globals';
import { INJECTED_SCRIPT_MIN_CHARS, leaveOutInjectedScripts } from '../../../src/browser/trace.js';
import type { ZipEntry } from '../../../src/browser/zip.js';

const LIBRARY = `/*! axe v4.14.1\n * Copyright (c) 2015 - 2025 Deque Systems, Inc. */\n${'var a=1;'.repeat(INJECTED_SCRIPT_MIN_CHARS / 8)}`;
const entry = (name: string, lines: object[]): ZipEntry => ({ name, data: Buffer.from(lines.map((line) => JSON.stringify(line)).join('\n'), 'utf8') });
const eventsOf = (data: Buffer) => data.toString('utf8').split('\n').map((line) => JSON.parse(line) as { type: string; params?: { expression?: string } });

describe('leaveOutInjectedScripts', () => {
  it("keeps an injected library's evaluate action with the start of its script and its size, not the script", () => {
    const events = [
      { type: 'before', callId: 'c1', class: 'Frame', method: 'goto', params: { url: 'http://shop.test/' } },
      { type: 'before', callId: 'c2', class: 'Frame', method: 'evaluateExpression', params: { expression: `${LIBRARY}\naxe.run(document)`, isFunction: false } },
      { type: 'after', callId: 'c2', endTime: 3 },
    ];
    const [trace, other] = leaveOutInjectedScripts([entry('trace.trace', events), entry('trace.network', [{ type: 'resource-snapshot', body: LIBRARY }])]);
    const kept = eventsOf(trace!.data);
    expect(kept).toHaveLength(3);
    expect(kept[0]).toEqual(events[0]);
    expect(kept[1]).toMatchObject({ type: 'before', callId: 'c2', method: 'evaluateExpression', params: { isFunction: false } });
    expect(kept[1]!.params!.expression).toMatch(/^\/\*! axe v4\.14\.1\n \* Copyright .*… \[a 64 kB script the service injected, left out of the trace\]$/s);
    expect(trace!.data.length).toBeLessThan(1_000);
    // Only the actions' script is left out: a page resource is the page's.
    expect(other!.data.toString('utf8')).toContain(LIBRARY.slice(-100));
  });

  it('leaves short scripts, other files and text that is not JSON lines as they are', () => {
    const short = entry('trace.trace', [{ type: 'before', callId: 'c1', method: 'evaluateExpression', params: { expression: '() => document.title' } }]);
    const binary: ZipEntry = { name: 'resources/0123.trace', data: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.alloc(INJECTED_SCRIPT_MIN_CHARS)]) };
    const broken: ZipEntry = { name: 'x.trace', data: Buffer.from(`{"type":"before","params":{"expression":"${'x'.repeat(INJECTED_SCRIPT_MIN_CHARS)}"`, 'utf8') };
    const input = [short, binary, broken];
    const output = leaveOutInjectedScripts(input);
    output.forEach((kept, index) => expect(kept).toBe(input[index]));
  });
});
