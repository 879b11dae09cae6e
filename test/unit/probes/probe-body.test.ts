import { describe, expect, it } from '@jest/globals';
import { isAppError } from '../../../src/core/errors.js';
import { MAX_EVIDENCE_CHARS, readProbeBody, truncate } from '../../../src/probes/probe-body.js';

const bytes = (text: string) => new TextEncoder().encode(text);

function problem(body: Uint8Array, contentType = 'application/json'): string {
  try {
    readProbeBody(body, contentType);
  } catch (error) {
    if (isAppError(error) && error.code === 'probe.invalid_body') return error.message;
    throw error;
  }
  throw new Error('expected the body to be refused');
}

describe('probe body', () => {
  it('reads passed and evidence and drops every other field', () => {
    expect(readProbeBody(bytes('{"passed":true,"evidence":"Order ORD-1001 exists","orderId":1,"debug":{"sql":"select"}}'), 'application/json')).toEqual({
      passed: true,
      evidence: 'Order ORD-1001 exists',
    });
    expect(readProbeBody(bytes('\n{"evidence":"","passed":false}\n'), undefined)).toEqual({ passed: false, evidence: '' });
  });

  it('cuts long evidence to the bound, without splitting a character', () => {
    const long = 'x'.repeat(MAX_EVIDENCE_CHARS + 500);
    const { evidence } = readProbeBody(bytes(JSON.stringify({ passed: true, evidence: long })), 'application/json');
    expect(evidence).toHaveLength(MAX_EVIDENCE_CHARS);
    expect(evidence.endsWith('x…')).toBe(true);
    expect(truncate('ab😀cd', 4)).toBe('ab…');
    expect(truncate('abc', 3)).toBe('abc');
  });

  it('masks a secret in the evidence before cutting it, so no part of it survives the cut', () => {
    const secret = 'tok-0123456789';
    const evidence = `${'e'.repeat(MAX_EVIDENCE_CHARS - 5)}${secret} and more`;
    const mask = (text: string) => text.split(secret).join('[token]');
    const read = readProbeBody(bytes(JSON.stringify({ passed: false, evidence })), 'application/json', mask);
    expect(read.evidence).toBe(`${'e'.repeat(MAX_EVIDENCE_CHARS - 5)}[token]`.slice(0, MAX_EVIDENCE_CHARS - 1) + '…');
    expect(read.evidence).not.toContain('tok-');
  });

  it.each([
    ['null', 'the probe answered null where JSON {"passed": boolean, "evidence": string} was expected'],
    ['[]', 'the probe answered an array where JSON {"passed": boolean, "evidence": string} was expected'],
    ['"passed"', 'the probe answered a string where JSON {"passed": boolean, "evidence": string} was expected'],
    ['true', 'the probe answered a boolean where JSON {"passed": boolean, "evidence": string} was expected'],
    ['{}', 'the probe\'s JSON is not {"passed": boolean, "evidence": string}: "passed" is missing; "evidence" is missing'],
    ['{"passed":"yes","evidence":"ok"}', 'the probe\'s JSON is not {"passed": boolean, "evidence": string}: "passed" must be a boolean (true or false) (got a string)'],
    ['{"passed":1,"evidence":null}', 'the probe\'s JSON is not {"passed": boolean, "evidence": string}: "passed" must be a boolean (true or false) (got a number); "evidence" must be a string (got null)'],
    ['{"passed":true,"evidence":["a"]}', 'the probe\'s JSON is not {"passed": boolean, "evidence": string}: "evidence" must be a string (got an array)'],
    ['{"passed":true}', 'the probe\'s JSON is not {"passed": boolean, "evidence": string}: "evidence" is missing'],
  ])('refuses %s, saying what was wrong', (body, message) => {
    expect(problem(bytes(body))).toBe(message);
  });

  it('refuses a body that is not JSON or not UTF-8, naming the content type but not echoing the body', () => {
    const message = problem(bytes('<html>secret-ish page</html>'), 'text/html; charset=utf-8');
    expect(message).toBe('the probe answered a body that is not JSON (Content-Type: text/html; charset=utf-8); it must be JSON {"passed": boolean, "evidence": string}');
    expect(problem(bytes(''))).toBe('the probe answered an empty body; it must be JSON {"passed": boolean, "evidence": string}');
    expect(problem(Uint8Array.from([0x7b, 0xff, 0xfe, 0x7d]))).toBe('the probe answered a body that is not UTF-8 text; it must be JSON {"passed": boolean, "evidence": string}');
  });
});
