/**
 * Disputes ("not a bug"): a person says an error finding is no bug, with a reason. The finding keeps its severity
 * and is marked disputed; when its job replayed a compiled check, the dispute is also kept for the check under the
 * finding's fingerprint, and a later replay that finds the same thing records it as a warning that says who
 * disputed it and why, so it no longer fails the replay. Pure: the store and the recorder apply these rules.
 */
import { createHash } from 'node:crypto';
import type { FindingDraft, FindingKind } from './findings.js';

/** Bounds of the stored texts (columns `dispute_reason` and `disputed_by`). */
export const DISPUTE_REASON_MAX = 1_000;
export const DISPUTED_BY_MAX = 200;

/** Who disputed a finding and why, as a replay reads it back. */
export interface DisputeNote {
  by: string;
  reason: string;
}

/** The check's disputes of one run, by fingerprint: read once when the run starts. */
export type DisputedFingerprints = ReadonlyMap<string, DisputeNote>;

export const NO_DISPUTES: DisputedFingerprints = new Map();

/**
 * A title as the fingerprint reads it: Unicode-normalized, lowercase, runs of white space as one space, trimmed.
 * A replay's title differs from the disputed one only in such ways when it is the same failure.
 */
export function normalizedFindingTitle(title: string): string {
  return title.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * What makes two findings "the same reason": the same kind at the same step with the same (normalized) title. The
 * detail is left out on purpose: it carries what the page showed this time (a count, a time, an id). Lowercase hex
 * SHA-256, the `check_disputes.fingerprint` column.
 */
export function findingFingerprint(finding: { kind: FindingKind | string; stepIndex: number | null; title: string }): string {
  const step = finding.stepIndex === null ? '-' : String(finding.stepIndex);
  return createHash('sha256').update(`${finding.kind}\n${step}\n${normalizedFindingTitle(finding.title)}`, 'utf8').digest('hex');
}

/** The text a disputed replay finding starts its detail with, before the detail of this run. */
export function disputedDetail(note: DisputeNote, detail: string): string {
  return `Disputed by ${note.by}: ${note.reason}\n\n${detail}`;
}

/**
 * Kinds a dispute never turns into a warning: a run stopped by its time limit did not run its remaining steps, so it
 * cannot pass whatever was disputed (it fails either way, and its finding must say why). A blocked side effect is
 * not a bug to wave through: settled, the replay would go on past it and click the very thing no answer allowed.
 */
const NEVER_SETTLED: ReadonlySet<FindingKind> = new Set(['time_limit', 'side_effect_blocked']);

/**
 * An error finding whose fingerprint the check's disputes hold, as a warning that says who disputed it and why
 * (the original detail kept after it); any other finding, and a `time_limit` one, as it is. `title` must be the finding as it will be
 * stored (scrubbed and bounded), since the disputed fingerprint was taken from a stored finding.
 */
export function settleDisputed(draft: FindingDraft, disputes: DisputedFingerprints): FindingDraft {
  if (draft.severity !== 'error' || disputes.size === 0 || NEVER_SETTLED.has(draft.kind)) return draft;
  const note = disputes.get(findingFingerprint(draft));
  return note ? { ...draft, severity: 'warning', detail: disputedDetail(note, draft.detail) } : draft;
}
