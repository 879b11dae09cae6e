/**
 * Page words made safe to put inside a task: a label or title comes from the app (or from an attacker's page), and a
 * task quotes it, so it loses what would end the quote or start a new sentence, and is kept short.
 */

export const MAX_LABEL = 60;

/** `Sign "in"\n now` → `Sign in now`; '' when nothing readable is left. */
export function cleanLabel(text: string | null | undefined, max = MAX_LABEL): string {
  if (text === null || text === undefined) return '';
  const plain = text
    .replace(/["“”„«»`]/g, '')
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, ' ')
    // A sentence end inside a quoted label would still split the task's clause there.
    .replace(/[.!?;]+(?=\s)/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s*:.,;!?-]+|[\s*:.,;!?-]+$/g, '')
    .trim();
  if (plain.length <= max) return plain;
  return plain.slice(0, max).replace(/\s+\S*$/, '').trim();
}

/** A stable, URL-safe key: `Sign in` + `/account/login` → `sign-in-account-login`; `/` → `home`. */
export function flowKey(what: string, path: string): string {
  const where = path === '/' ? 'home' : path;
  const slug = `${what}-${where}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.slice(0, 100).replace(/-+$/, '');
}
