import type { Comparison, FindingKind } from '../core/findings.js';

/**
 * Why a step failed, thrown inside the runner and turned into its result. A failed expectation about an element
 * that is there carries what it expected and what the page shows (`comparison`), which its finding keeps.
 */
export class StepFailure extends Error {
  constructor(
    readonly kind: FindingKind,
    message: string,
    readonly comparison?: Comparison,
  ) {
    super(message);
  }
}
