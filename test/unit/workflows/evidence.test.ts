import { describe, expect, it } from '@jest/globals';
import { evidencePolicyOf, FIRST_RUN_EVIDENCE, keepsStepScreenshot, REPLAY_EVIDENCE } from '../../../src/workflows/qa-run/evidence.js';

const plan = { steps: [], sideEffects: false } as never;

describe('what a run keeps as evidence', () => {
  it('keeps everything for a natural-language run (a person reviews it before trusting the check), less for a replay', () => {
    expect(evidencePolicyOf({ plan, checkId: 'c1' })).toBe(FIRST_RUN_EVIDENCE);
    expect(evidencePolicyOf({ plan, checkId: null })).toBe(FIRST_RUN_EVIDENCE);
    expect(evidencePolicyOf({ plan: null, checkId: 'c1' })).toBe(REPLAY_EVIDENCE);
  });

  it('screenshots every step of a first run; a replay only a step that failed or passed only by healing', () => {
    expect(keepsStepScreenshot(FIRST_RUN_EVIDENCE, false)).toBe(true);
    expect(keepsStepScreenshot(FIRST_RUN_EVIDENCE, true)).toBe(true);
    expect(keepsStepScreenshot(REPLAY_EVIDENCE, false)).toBe(false);
    expect(keepsStepScreenshot(REPLAY_EVIDENCE, true)).toBe(true);
  });

  it("records a first run's trace with DOM snapshots and keeps it always; a replay's without them, kept only when it fails", () => {
    expect(FIRST_RUN_EVIDENCE).toMatchObject({ trace: 'always', traceSnapshots: true, traceScreencast: true });
    expect(REPLAY_EVIDENCE).toMatchObject({ trace: 'on-failure', traceSnapshots: false, traceScreencast: false });
  });
});
