/**
 * Playwright's demo suite for TodoMVC (the `demo-todo-app.spec.ts` that `npm init playwright` ships), one task per
 * published test, written as a QA person would type it into a chat. The tests' shared setup (the three default
 * todos) is part of each task's text, because every task starts on an empty list in a fresh browser.
 */
import { BUGS, startTodoMvc, type TodoMvcBug } from '../fixtures/todomvc/index.js';
import type { CorpusSuite, CorpusTask } from './types.js';

const SPEC = 'tests-examples/demo-todo-app.spec.ts';

function task(id: string, source: string, bug: TodoMvcBug, text: string): CorpusTask {
  return { id, source: `${SPEC} › ${source}`, task: text, expect: 'passed', bug };
}

export const todoMvcTasks: readonly CorpusTask[] = [
  task(
    'add-todo-items',
    'New Todo › should allow me to add todo items',
    'todos-not-saved',
    "Type 'buy some cheese' into the 'What needs to be done?' box and press Enter, and check that it is the only todo in the list. " +
      "Then add 'feed the cat' the same way and check that the list shows 'buy some cheese' and 'feed the cat', in that order. " +
      "Both todos should also be saved in the browser's local storage (the app keeps them under 'react-todos'), so there should be 2 todos stored.",
  ),
  task(
    'clear-input-after-adding',
    'New Todo › should clear text input field when an item is added',
    'input-not-cleared',
    "Add a todo called 'buy some cheese' by typing it into the 'What needs to be done?' field and pressing Enter. " +
      'Afterwards the field should be empty again, ready for the next todo, and the todo should have been saved to local storage.',
  ),
  task(
    'append-to-bottom',
    'New Todo › should append new items to the bottom of the list',
    'new-todos-prepended',
    "Add three todos, one after the other: 'buy some cheese', 'feed the cat' and 'book a doctors appointment'. " +
      "Check that the footer says '3 items left' and that the list shows the three todos in the order I added them, each new one at the bottom, " +
      'with all 3 saved in local storage.',
  ),
  task(
    'mark-all-completed',
    'Mark all as completed › should allow me to mark all items as completed',
    'toggle-all-skips-last',
    "Add the todos 'buy some cheese', 'feed the cat' and 'book a doctors appointment'. Then tick 'Mark all as complete' " +
      'and make sure each of the three todos is shown as completed, and that all three are saved as completed.',
  ),
  task(
    'clear-complete-state-of-all',
    'Mark all as completed › should allow me to clear the complete state of all items',
    'untoggle-all-keeps-first',
    "Create three todos: 'buy some cheese', 'feed the cat', 'book a doctors appointment'. Click 'Mark all as complete' to complete them all, " +
      'then click it again straight away to undo it. None of the three should be marked as completed any more.',
  ),
  task(
    'toggle-all-follows-items',
    'Mark all as completed › complete all checkbox should update state when items are completed / cleared',
    'toggle-all-state-stale',
    "With the todos 'buy some cheese', 'feed the cat' and 'book a doctors appointment' added, check the 'Mark all as complete' box " +
      'and verify that it is checked and that all three todos are saved as completed. Next, untick the first todo: the ' +
      "'Mark all as complete' checkbox should no longer be checked. Tick the first todo again, and it should be checked once more.",
  ),
  task(
    'mark-items-complete',
    'Item › should allow me to mark items as complete',
    'only-one-completed',
    "Add two todos, 'buy some cheese' and 'feed the cat'. Tick the first one and check that it's marked as completed while the second one isn't. " +
      'Then tick the second one as well, and check that both of them are now completed.',
  ),
  task(
    'unmark-item',
    'Item › should allow me to un-mark items as complete',
    'uncheck-ignored',
    "Add 'buy some cheese' and 'feed the cat' as todos. Mark the first one as complete and confirm that only it is completed, " +
      'with one completed todo in local storage. Then untick it again and confirm that neither todo is completed anymore, ' +
      'on the page and in local storage.',
  ),
  task(
    'edit-item',
    'Item › should allow me to edit an item',
    'enter-does-not-save-edit',
    "Add three todos: 'buy some cheese', 'feed the cat' and 'book a doctors appointment'. Double-click the second one to edit it; " +
      "the edit box should contain 'feed the cat'. Replace the text with 'buy some sausages' and press Enter. " +
      "The list should then read 'buy some cheese', 'buy some sausages', 'book a doctors appointment', and the new title should be saved in local storage.",
  ),
  task(
    'hide-controls-while-editing',
    'Editing › should hide other controls when editing',
    'edit-keeps-controls-visible',
    "Add the todos 'buy some cheese', 'feed the cat' and 'book a doctors appointment', then double-click 'feed the cat' to start editing it. " +
      "While it is being edited, its checkbox and its 'feed the cat' label must not be visible, only the edit field. " +
      'There should still be three todos saved.',
  ),
  task(
    'save-edit-on-blur',
    'Editing › should save edits on blur',
    'blur-discards-edit',
    "Add three todos ('buy some cheese', 'feed the cat', 'book a doctors appointment'). Double-click the second todo, change its text to " +
      "'buy some sausages', and then leave the edit field without pressing Enter, e.g. by clicking somewhere else. The change should be kept: " +
      "the list should show 'buy some cheese', 'buy some sausages' and 'book a doctors appointment', and 'buy some sausages' should be in local storage.",
  ),
  task(
    'trim-edited-text',
    'Editing › should trim entered text',
    'edits-not-trimmed',
    "Add the todos 'buy some cheese', 'feed the cat' and 'book a doctors appointment'. Edit the second one by double-clicking it, " +
      "enter '    buy some sausages    ' (four spaces before and after) and press Enter. The spaces should be trimmed off: the list should read " +
      "'buy some cheese', 'buy some sausages', 'book a doctors appointment', and the todo should be saved in local storage as exactly 'buy some sausages'.",
  ),
  task(
    'empty-edit-removes-item',
    'Editing › should remove the item if an empty text string was entered',
    'empty-edit-keeps-item',
    "Put 'buy some cheese', 'feed the cat' and 'book a doctors appointment' on the list. Double-click 'feed the cat', delete all of its text " +
      "and press Enter. That todo should be removed, leaving only 'buy some cheese' and 'book a doctors appointment'.",
  ),
  task(
    'escape-cancels-edit',
    'Editing › should cancel edits on escape',
    'escape-saves-edit',
    "Create the three todos 'buy some cheese', 'feed the cat' and 'book a doctors appointment'. Start editing the second one, " +
      "type 'buy some sausages' over it, then press Escape. The edit should be thrown away and the list should still be " +
      "'buy some cheese', 'feed the cat', 'book a doctors appointment'.",
  ),
  task(
    'counter',
    'Counter › should display the current number of todo items',
    'counter-off-by-one',
    "Add a todo 'buy some cheese' and check that the item counter at the bottom shows 1. Add a second todo, 'feed the cat', " +
      'and check that the counter now shows 2, with both todos saved in local storage.',
  ),
  task(
    'clear-completed-text',
    'Clear completed button › should display the correct text',
    'clear-completed-mislabelled',
    "Add the todos 'buy some cheese', 'feed the cat' and 'book a doctors appointment' and tick the first one. " +
      "A button labelled 'Clear completed' should appear.",
  ),
  task(
    'clear-completed-removes',
    'Clear completed button › should remove completed items when clicked',
    'clear-completed-does-nothing',
    "Add 'buy some cheese', 'feed the cat' and 'book a doctors appointment', mark the second todo as complete and click 'Clear completed'. " +
      "Only two todos should be left: 'buy some cheese' and 'book a doctors appointment'.",
  ),
  task(
    'clear-completed-hidden',
    'Clear completed button › should be hidden when there are no items that are completed',
    'clear-completed-always-shown',
    "Add three todos ('buy some cheese', 'feed the cat', 'book a doctors appointment'), complete the first one and press 'Clear completed'. " +
      "Now that nothing is completed any more, the 'Clear completed' button should be hidden.",
  ),
  task(
    'persist',
    'Persistence › should persist its data',
    'load-ignores-completed',
    "Add the todos 'buy some cheese' and 'feed the cat' and tick the first one. Check that the list shows both, in that order, " +
      'with the first one checked and completed and the second one not, and that one completed todo is saved in local storage. ' +
      "Then reload the page: both todos should still be there in the same order, and 'buy some cheese' should still be checked " +
      "and completed while 'feed the cat' is not.",
  ),
  task(
    'active-filter',
    'Routing › should allow me to display active items',
    'active-filter-shows-completed',
    "Add 'buy some cheese', 'feed the cat' and 'book a doctors appointment', and mark 'feed the cat' as complete. " +
      "Click the 'Active' filter: it should show exactly two todos, 'buy some cheese' and 'book a doctors appointment'.",
  ),
  task(
    'back-button',
    'Routing › should respect the back button',
    'back-button-ignored',
    "Add the todos 'buy some cheese', 'feed the cat' and 'book a doctors appointment' and complete the second one. " +
      "Click 'All' and check that all 3 are listed, then click 'Active', and then 'Completed', where only 1 todo should be listed. " +
      "Now go back in the browser: the list should show 2 todos. Go back once more and it should show all 3 again.",
  ),
  task(
    'completed-filter',
    'Routing › should allow me to display completed items',
    'completed-filter-inverted',
    "Add three todos: 'buy some cheese', 'feed the cat', 'book a doctors appointment'. Tick the second one, then open the 'Completed' view " +
      'and check that it lists just one todo.',
  ),
  task(
    'all-filter',
    'Routing › should allow me to display all items',
    'all-filter-keeps-previous',
    "Add the todos 'buy some cheese', 'feed the cat' and 'book a doctors appointment' and mark the second as complete. " +
      "Click 'Active', then 'Completed', then 'All'. All three todos should be listed again.",
  ),
  task(
    'highlight-filter',
    'Routing › should highlight the currently applied filter',
    'filter-highlight-stuck',
    "Add the todos 'buy some cheese', 'feed the cat' and 'book a doctors appointment'. The 'All' filter should be highlighted as the selected one. " +
      "Click 'Active' and check that it becomes the highlighted filter, then click 'Completed' and check that it is highlighted in turn.",
  ),
];

export const todoMvcSuite: CorpusSuite = {
  name: 'todomvc',
  app: 'https://demo.playwright.dev/todomvc (the React TodoMVC), copied in test/fixtures/todomvc',
  published: `microsoft/playwright ${SPEC} (the demo suite \`npm init playwright\` ships)`,
  bugs: BUGS,
  tasks: todoMvcTasks,
  start: (options) => startTodoMvc(options),
};
