/**
 * Whether an element is "selected" among its siblings (an `expectState` of `selected` / `unselected`): what the
 * runner reads off the element, judged here (pure), and repeated by the generated source's `isSelected` helper.
 */

/** Class names that mark the chosen one where a page says it by styling alone (filter links, tabs, menu entries). */
export const SELECTED_CLASSES: readonly string[] = ['selected', 'active', 'current', 'is-selected', 'is-active'];

export interface SelectionFacts {
  ariaSelected: string | null;
  ariaCurrent: string | null;
  ariaPressed: string | null;
  className: string | null;
  /** A checked radio or checkbox, or a selected `<option>` (CSS `:checked`). */
  checked: boolean;
}

export function isSelectedBy(facts: SelectionFacts): boolean {
  if (facts.ariaSelected === 'true' || facts.ariaPressed === 'true' || facts.checked) return true;
  if (facts.ariaCurrent !== null && facts.ariaCurrent !== 'false') return true;
  const classes = (facts.className ?? '').split(/\s+/);
  return classes.some((name) => SELECTED_CLASSES.includes(name));
}
