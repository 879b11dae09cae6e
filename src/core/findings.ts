/**
 * Findings (Set A) / reports (Set B): what a run noticed. Kinds and severities are stable strings that clients
 * match on; the browser issue adds steps, accessibility and probes to the same list.
 */
export const FINDING_KINDS = [
  'assertion_failed',
  'console_error',
  'page_error',
  'http_error',
  'request_blocked',
  'accessibility',
  'probe_failed',
  'step_unresolvable',
  'navigation_failed',
  // A navigation that ended outside the run's allowed origins (a redirect elsewhere): an error, the step failed.
  'navigation_blocked',
  // A click or key press whose target names a side effect (by its accessible name or its form's action) that no
  // answer allowed: the run stopped before it, so nothing happened; an error, never settled by a dispute.
  'side_effect_blocked',
  'time_limit',
  // A replay step whose stored locator found nothing passed on agreeing evidence (a warning; a new version is
  // proposed). Named as issue 13 names it, in the namespace of the check's events (`check.compiled`, `check.proposed`).
  'check.healed',
] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

/** `error` fails the run; `warning` is reported and does not. */
export const FINDING_SEVERITIES = ['error', 'warning'] as const;
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];

/** A finding as a collector reports it, before it is stored with an id. */
export interface FindingDraft {
  kind: FindingKind;
  severity: FindingSeverity;
  title: string;
  detail: string;
  /** The plan step it belongs to; null for the run as a whole (the first cut has no steps). */
  stepIndex: number | null;
  /**
   * A failed expectation about an element that is there: what the step expected (a text, a title, a value, "3
   * items", a state) and what the page shows instead, the nearest candidates first when there are several (the
   * page's headings when a heading's text differs). Absent for every other finding.
   */
  expected?: string;
  actual?: string[];
}

/** What a failed expectation compared: `FindingDraft.expected` and `.actual`. */
export interface Comparison {
  expected: string;
  actual: string[];
}

/** Titles and details are bounded: a page can log megabytes, and a finding must stay readable. */
export const FINDING_TITLE_MAX = 300;
export const FINDING_DETAIL_MAX = 4_000;

export function boundedText(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - 1;
  // Never keep half of a surrogate pair (an emoji, say): stored text stays valid UTF-16.
  if (/[\uD800-\uDBFF]/.test(text.charAt(cut - 1))) cut -= 1;
  return `${text.slice(0, cut)}…`;
}

/** Bounds of a comparison: the expected text, how many candidates are kept, and each candidate's length. */
export const FINDING_EXPECTED_MAX = 500;
export const FINDING_ACTUAL_ITEMS_MAX = 10;
export const FINDING_ACTUAL_ITEM_MAX = 300;

/** A comparison as it is stored: each text bounded, at most FINDING_ACTUAL_ITEMS_MAX candidates (the nearest). */
export function boundedComparison(comparison: Comparison): Comparison {
  return {
    expected: boundedText(comparison.expected, FINDING_EXPECTED_MAX),
    actual: comparison.actual.slice(0, FINDING_ACTUAL_ITEMS_MAX).map((text) => boundedText(text, FINDING_ACTUAL_ITEM_MAX)),
  };
}

/** A run passes when nothing it found is an error. */
export function verdictOf(findings: readonly Pick<FindingDraft, 'severity'>[]): 'passed' | 'failed' {
  return findings.some((finding) => finding.severity === 'error') ? 'failed' : 'passed';
}

/**
 * How a response status is judged. The main document failing is always an error. A subresource answering 5xx is
 * a broken page (error); a 4xx subresource is often a probe for something optional (a favicon, a source map), so it
 * is reported as a warning.
 */
export function severityOfHttpStatus(status: number, isMainDocument: boolean): FindingSeverity | null {
  if (status < 400) return null;
  if (isMainDocument || status >= 500) return 'error';
  return 'warning';
}
