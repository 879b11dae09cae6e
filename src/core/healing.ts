/**
 * Healing a replay with evidence: when a compiled step's stored locator finds nothing, the other ways that found its
 * target at compile time vote, and the step is healed only when those that match agree on one element that still
 * looks like the recorded one. The rules are here, pure; src/browser/heal.ts asks the page.
 */
import { z } from 'zod';

/** What the target looked like when the check was compiled (Playwright's role and accessible name). */
export const elementDescriptionSchema = z.strictObject({
  tag: z.string().min(1).max(40),
  /** '' when the element has no role. */
  role: z.string().max(40),
  name: z.string().max(300),
  /** The start of its visible text. */
  text: z.string().max(120),
  /** An input's `type`. */
  type: z.string().max(40).optional(),
  placeholder: z.string().max(300).optional(),
});
export type ElementDescription = z.infer<typeof elementDescriptionSchema>;

/** One independent way to find the element; each matches exactly (`css` is a short selector path). */
export const alternativeSchema = z.strictObject({
  strategy: z.enum(['role', 'label', 'placeholder', 'testId', 'text', 'css']),
  role: z.string().max(40).optional(),
  value: z.string().min(1).max(300),
});
export type Alternative = z.infer<typeof alternativeSchema>;

export const healingRecordSchema = z.strictObject({
  element: elementDescriptionSchema,
  /** Only ways that found exactly this element when it was recorded. */
  alternatives: z.array(alternativeSchema).max(8),
});
export type HealingRecord = z.infer<typeof healingRecordSchema>;

/** How one alternative fared on the page now: how many visible elements it matches, and which (when one). */
export interface AlternativeVote {
  alternative: Alternative;
  matches: number;
  /** The same number for the same element across votes (set when `matches` is 1). */
  element?: number;
}

export type HealVerdict = { healed: true; element: number; agreeing: Alternative[] } | { healed: false; reason: string };

/** Roles of fields: one whose placeholder an author kept is the same field under a new label. */
const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);

/** Words of a name, case, accents and in-word hyphens aside ("E-mail" and "email" are one word). */
export function wordsOf(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}-]+/u)
    .map((word) => word.replace(/-/g, ''))
    .filter((word) => word !== '');
}

/**
 * The element now is the one recorded: the same tag, role and input type, and either it keeps at least half of the
 * recorded name's words (a reworded button) or, for a field, the placeholder its author set. A different control
 * that happens to sit where the old one was ("Delete account" in place of "Sign in") is not.
 */
export function describesSame(recorded: ElementDescription, now: ElementDescription): boolean {
  if (recorded.tag !== now.tag || recorded.role !== now.role || (recorded.type ?? '') !== (now.type ?? '')) return false;
  const was = new Set(wordsOf(recorded.name || recorded.text));
  if (was.size === 0) return true;
  const is = new Set([...wordsOf(now.name), ...wordsOf(now.text)]);
  const kept = [...was].filter((word) => is.has(word)).length;
  if (kept * 2 >= was.size) return true;
  return FIELD_ROLES.has(recorded.role) && recorded.placeholder !== undefined && recorded.placeholder !== '' && recorded.placeholder === now.placeholder;
}

export function describeAlternative(alternative: Alternative): string {
  const value = JSON.stringify(alternative.value);
  return alternative.strategy === 'role' ? `role ${alternative.role ?? '?'} named ${value}` : `${alternative.strategy} ${value}`;
}

export function describeElement(element: ElementDescription): string {
  return `${element.role || element.tag} ${JSON.stringify(element.name || element.text)}`;
}

/**
 * Weighs the votes. Healed when at least one alternative matches exactly one element, every such one matches the
 * same element, not only the CSS path does (structure alone is no evidence: a reordered list puts another product
 * in the old place), and `described(element)` still fits the record. Otherwise the reason, for the finding.
 */
export function judgeVotes(record: HealingRecord, votes: readonly AlternativeVote[], described: (element: number) => ElementDescription | undefined): HealVerdict {
  const voting = votes.filter((vote) => vote.matches === 1 && vote.element !== undefined);
  if (voting.length === 0) {
    return { healed: false, reason: `none of the ${votes.length} other recorded ways to find it matches exactly one element now` };
  }
  const elements = new Set(voting.map((vote) => vote.element));
  if (elements.size > 1) {
    const which = voting.map((vote) => `${describeAlternative(vote.alternative)} finds element ${vote.element! + 1}`).join(', ');
    return { healed: false, reason: `the other recorded ways to find it disagree (${which})` };
  }
  if (voting.every((vote) => vote.alternative.strategy === 'css')) {
    return { healed: false, reason: 'only its CSS path still matches, and the page structure alone is no evidence' };
  }
  const element = voting[0]!.element!;
  const now = described(element);
  if (now === undefined || !describesSame(record.element, now)) {
    return {
      healed: false,
      reason: `the element they agree on no longer looks like the recorded one (was ${describeElement(record.element)}, now ${now === undefined ? 'unreadable' : describeElement(now)})`,
    };
  }
  return { healed: true, element, agreeing: voting.map((vote) => vote.alternative) };
}

/** Strategies a compiled step's locator can have (the replayer's and the generated source's), best first per kind. */
const PRIMARY_ORDER: Record<'field' | 'other', Alternative['strategy'][]> = {
  field: ['label', 'placeholder', 'role', 'text'],
  other: ['role', 'label', 'text', 'placeholder'],
};

/**
 * The locator a healed step proposes: from the ways that find the element now, the kind the old locator was if
 * there is one, else the best for its kind of element. Test ids and CSS paths stay alternatives: the replayer and
 * the generated source speak in roles, labels, placeholders and text. Undefined when none of those finds it alone.
 */
export function proposedLocator(
  old: { strategy: string },
  element: ElementDescription,
  alternatives: readonly Alternative[],
): { strategy: 'role' | 'label' | 'text' | 'placeholder'; role?: string; name: string; exact: boolean } | undefined {
  const order = PRIMARY_ORDER[FIELD_ROLES.has(element.role) ? 'field' : 'other'];
  const ranked = [...order].sort((a, b) => Number(b === old.strategy) - Number(a === old.strategy));
  for (const strategy of ranked) {
    const found = alternatives.find((alternative) => alternative.strategy === strategy);
    if (found === undefined || found.strategy === 'testId' || found.strategy === 'css') continue;
    return { strategy: found.strategy, ...(found.role !== undefined ? { role: found.role } : {}), name: found.value, exact: true };
  }
  return undefined;
}
