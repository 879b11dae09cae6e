import { describe, expect, it } from '@jest/globals';
import { evidencePolicyOf, FIRST_RUN_EVIDENCE, keepsStepScreenshot, REPLAY_EVIDENCE } from '../../../src/workflows/qa-run/evidence.js';

const plan = { steps: [], sideEffects: false } as never;

describe('what a run keeps as evidence', () => {
  it('keeps everything for a natural-language run (a person reviews it before trusting the check), less for a replay', () => {
    expect(evidencePolicyOf({ plan, checkId: 'c1' })).toBe(FIRST_RUN_EVIDENCE);
    expect(evidencePolicyOf({ plan, checkId: null })).toBe(FIRST_RUN_EVIDENCE);
    expect(evidencePolicyOf({ plan: null, checkId: 'c1' })).toBe(REPLAY_EVIDENCE);
  });

  it('screenshots every step of a first run; a replay only a failed step and the page it ended on', () => {
    expect([0, 1, 2].map((index) => keepsStepScreenshot(FIRST_RUN_EVIDENCE, index, 3, false))).toEqual([true, true, true]);
    expect([0, 1, 2].map((index) => keepsStepScreenshot(REPLAY_EVIDENCE, index, 3, false))).toEqual([false, false, true]);
    expect(keepsStepScreenshot(REPLAY_EVIDENCE, 0, 3, true)).toBe(true);
  });
});
