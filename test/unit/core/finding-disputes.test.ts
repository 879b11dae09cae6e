import { describe, expect, it } from '@jest/globals';
import { findingFingerprint, normalizedFindingTitle, settleDisputed } from '../../../src/core/finding-disputes.js';
import type { FindingDraft } from '../../../src/core/findings.js';

const FAILED: FindingDraft = { kind: 'assertion_failed', severity: 'error', stepIndex: 8, title: 'Step 9 failed: Expect the page to show "$90"', detail: 'Expected "$90"' };

describe('finding fingerprints', () => {
  it('read a title Unicode-normalized, lowercased, with white space runs as one space', () => {
    expect(normalizedFindingTitle('  Step 9\tFAILED:\n the  ﬁle  ')).toBe('step 9 failed: the file');
  });

  it('are the same for the same kind, step and title however spaced or cased, whatever the detail', () => {
    const fingerprint = findingFingerprint(FAILED);
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(findingFingerprint({ ...FAILED, title: ' step 9 failed:  EXPECT the page to show "$90"' })).toBe(fingerprint);
  });

  it('differ for another kind, another step, no step, or another title', () => {
    const fingerprint = findingFingerprint(FAILED);
    for (const other of [{ ...FAILED, kind: 'step_unresolvable' }, { ...FAILED, stepIndex: 7 }, { ...FAILED, stepIndex: null }, { ...FAILED, title: 'Step 9 failed: Expect the page to show "$80"' }]) {
      expect(findingFingerprint(other)).not.toBe(fingerprint);
    }
  });
});

describe('settling a finding against the disputes', () => {
  const disputes = new Map([[findingFingerprint(FAILED), { by: 'U123', reason: 'The coupon is 20% off this week' }]]);

  it('makes a disputed error a warning whose detail says who and why before its own', () => {
    expect(settleDisputed(FAILED, disputes)).toEqual({ ...FAILED, severity: 'warning', detail: 'Disputed by U123: The coupon is 20% off this week\n\nExpected "$90"' });
  });

  it('leaves an error of another fingerprint, and a warning of the disputed one, as they are', () => {
    const other = { ...FAILED, stepIndex: 2 };
    expect(settleDisputed(other, disputes)).toBe(other);
    const warning = { ...FAILED, severity: 'warning' as const };
    expect(settleDisputed(warning, disputes)).toBe(warning);
    expect(settleDisputed(FAILED, new Map())).toBe(FAILED);
  });

  it('never settles a time limit: a run stopped before its last step cannot pass', () => {
    const stopped: FindingDraft = { kind: 'time_limit', severity: 'error', stepIndex: 3, title: 'The run took longer than its time limit (60 s) and was stopped', detail: 'It stopped during step 4 of 9.' };
    expect(settleDisputed(stopped, new Map([[findingFingerprint(stopped), { by: 'U1', reason: 'slow staging' }]]))).toBe(stopped);
  });
});
