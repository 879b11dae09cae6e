/**
 * JSON containment with PostgreSQL's `@>` semantics, which Agenda's `data` filters are defined by: an object
 * contains another when every key of the candidate is present with a contained value; an array contains
 * another when every candidate element is contained in some element; scalars compare by value. MySQL's
 * JSON_CONTAINS has the same rules; SQLite has no such function, so the backend registers this one there.
 */
export function jsonContains(target: unknown, candidate: unknown): boolean {
  if (Array.isArray(candidate)) {
    if (!Array.isArray(target)) return false;
    return candidate.every((wanted) => target.some((have) => jsonContains(have, wanted)));
  }
  if (candidate !== null && typeof candidate === 'object') {
    if (target === null || typeof target !== 'object' || Array.isArray(target)) return false;
    const have = target as Record<string, unknown>;
    return Object.entries(candidate).every(
      ([key, wanted]) => Object.prototype.hasOwnProperty.call(have, key) && jsonContains(have[key], wanted),
    );
  }
  return target === candidate;
}

/** The SQL-callable form: both sides are JSON text; NULL or malformed text never matches. */
export function jsonContainsText(targetJson: unknown, candidateJson: unknown): 0 | 1 {
  if (typeof targetJson !== 'string' || typeof candidateJson !== 'string') return 0;
  try {
    return jsonContains(JSON.parse(targetJson), JSON.parse(candidateJson)) ? 1 : 0;
  } catch {
    return 0;
  }
}
