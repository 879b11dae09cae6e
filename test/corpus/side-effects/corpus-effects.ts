/**
 * Tasks of the published corpus suites (test/corpus/) written without answers that nonetheless do what the taxonomy
 * of tasks.ts calls a real side effect: they delete entries of the user's own list ("Clear completed" on TodoMVC),
 * or a row of a table by its Delete control. Decided from the taxonomy before the policy was changed.
 */
export const CORPUS_EFFECTS: ReadonlySet<string> = new Set(['clear-completed-removes', 'clear-completed-hidden', 'data-tables']);
