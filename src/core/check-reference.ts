/**
 * Which check words name (`replay <words>`), in every conversation (chat, pull-request comments): an exact task
 * (ignoring case) before a fragment of one; among the matches only active checks are candidates, since a check that
 * never passed has nothing to replay. So a fragment that fits one active check and some drafts replays the active
 * one, and a fragment that fits only drafts is told the check has not passed yet (naming the newest). Pure.
 */
export interface CheckCandidate {
  id: string;
  task: string;
  status: string;
}

export type CheckPick<C extends CheckCandidate> =
  | { kind: 'found'; check: C }
  | { kind: 'unknown' }
  /** Several active checks fit: the candidates, at most 10. */
  | { kind: 'ambiguous'; candidates: C[] }
  /** Only checks that never passed fit: the first of them. */
  | { kind: 'not_replayable'; check: C };

/** `checks` newest first, as the check service lists them. */
export function pickCheckByWords<C extends CheckCandidate>(checks: readonly C[], wanted: string): CheckPick<C> {
  const needle = wanted.trim().toLowerCase();
  const exact = checks.filter((check) => check.task.toLowerCase() === needle);
  const matches = exact.length > 0 ? exact : checks.filter((check) => check.task.toLowerCase().includes(needle));
  if (matches.length === 0) return { kind: 'unknown' };
  const active = matches.filter(isReplayable);
  if (active.length === 0) return { kind: 'not_replayable', check: matches[0]! };
  if (active.length > 1) return { kind: 'ambiguous', candidates: active.slice(0, 10) };
  return { kind: 'found', check: active[0]! };
}

/** A check named by its id: found, or one that never passed. */
export function pickCheckById<C extends CheckCandidate>(check: C): CheckPick<C> {
  return isReplayable(check) ? { kind: 'found', check } : { kind: 'not_replayable', check };
}

export function isReplayable(check: CheckCandidate): boolean {
  return check.status === 'active';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a person's text is an id (of a job or a check) rather than words. */
export function looksLikeId(text: string): boolean {
  return UUID.test(text.trim());
}
