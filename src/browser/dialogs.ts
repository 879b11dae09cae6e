/**
 * The page's JavaScript dialogs (alert, confirm, prompt, beforeunload) during a run. Playwright dismisses a dialog
 * nobody listens for, and the action that opened one stalls until it is answered
 * (https://playwright.dev/docs/dialogs), so the runner must know before a click how to answer what it opens: the plan
 * says it with the `dialog` steps that follow the click, and the watch is armed with their answers first. Every
 * dialog is answered by the one listener here: an expected one as its step says, any other dismissed and kept as
 * unexpected, for the step it opened during to fail with it (a leave-page dialog nobody expects is accepted, as
 * Playwright's default does).
 */
import type { Dialog, Page } from 'playwright';
import type { PlanStep } from '../core/plan.js';
import { normalizedText } from './nearest-texts.js';
import { StepFailure } from './step-failure.js';

export type DialogStep = Extract<PlanStep, { action: 'dialog' }>;

/** A dialog as it opened: `alert`, `confirm`, `prompt` or `beforeunload`, and its message. */
export interface SeenDialog {
  type: string;
  message: string;
}

export interface DialogWatch {
  /** The dialogs the next step opens, in order, each answered as its step says (replaces any not yet opened). */
  arm(steps: readonly DialogStep[]): void;
  /** The next expected dialog that opened, waiting up to `timeoutMs`; undefined when none opened by then. */
  next(timeoutMs: number): Promise<SeenDialog | undefined>;
  /** The dialogs that opened with no dialog step expecting them (each dismissed), since the last call. */
  unexpected(): SeenDialog[];
  /** Stops listening: Playwright's default (dismiss) again. */
  dispose(): void;
}

/** The `dialog` steps right after step `index`: the dialogs that step opens, in order. */
export function dialogStepsAfter(steps: readonly PlanStep[], index: number): DialogStep[] {
  const found: DialogStep[] = [];
  for (const step of steps.slice(index + 1)) {
    if (step.action !== 'dialog') break;
    found.push(step);
  }
  return found;
}

export function watchDialogs(page: Page): DialogWatch {
  let armed: DialogStep[] = [];
  const opened: SeenDialog[] = [];
  let strays: SeenDialog[] = [];
  let wake: (() => void) | undefined;

  const onDialog = (dialog: Dialog) => {
    const seen = { type: dialog.type(), message: dialog.message() };
    // A leave-page dialog nobody expects is accepted, as Playwright does: the navigation asked for goes ahead.
    const step = seen.type === 'beforeunload' && armed.length === 0 ? undefined : armed.shift();
    // (A dialog whose page closed meanwhile cannot be answered: nothing to do then.)
    if (step === undefined && seen.type === 'beforeunload') {
      dialog.accept().catch(() => undefined);
    } else if (step === undefined) {
      strays.push(seen);
      dialog.dismiss().catch(() => undefined);
    } else {
      opened.push(seen);
      // OK with nothing typed keeps what the prompt offered, as a person pressing OK would.
      (step.accept ? dialog.accept(step.promptText ?? dialog.defaultValue()) : dialog.dismiss()).catch(() => undefined);
    }
    wake?.();
  };
  page.on('dialog', onDialog);

  return {
    arm(steps) {
      armed = [...steps];
      opened.length = 0;
    },
    async next(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (opened.length === 0 && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
      }
      const seen = opened.shift();
      // Not opened in time: its answer must not go to a later dialog.
      if (seen === undefined) armed.shift();
      return seen;
    },
    unexpected() {
      const found = strays;
      strays = [];
      return found;
    },
    dispose() {
      page.off('dialog', onDialog);
    },
  };
}

/** `an alert saying "I am a JS Alert"`: how a message names a dialog that opened. */
export function describeDialog(seen: SeenDialog): string {
  const kind = seen.type === 'beforeunload' ? 'leave-page dialog' : seen.type;
  return seen.message === '' ? `a${/^[aeiou]/.test(kind) ? 'n' : ''} ${kind} with no message` : `a${/^[aeiou]/.test(kind) ? 'n' : ''} ${kind} saying ${JSON.stringify(seen.message)}`;
}

/**
 * A `dialog` step: the dialog the step before opened (waiting up to `timeoutMs` for one that opens late) shows the
 * step's text; the watch has already answered it as the step says. No dialog, or another message, fails the step
 * with what was expected and what opened.
 */
export async function expectDialog(watch: DialogWatch | undefined, step: DialogStep, timeoutMs: number): Promise<void> {
  const expected = step.text === undefined ? 'a dialog' : `a dialog saying ${JSON.stringify(step.text)}`;
  const seen = watch === undefined ? undefined : await watch.next(timeoutMs);
  if (seen === undefined) throw new StepFailure('assertion_failed', `No dialog opened; expected ${expected}`, { expected, actual: ['no dialog'] });
  if (step.text !== undefined && !normalizedText(seen.message).includes(normalizedText(step.text))) {
    throw new StepFailure('assertion_failed', `${capitalised(describeDialog(seen))} opened; expected ${expected}`, { expected: step.text, actual: [seen.message] });
  }
}

/**
 * The failure of a step during which dialogs opened that no dialog step expected (each was dismissed); undefined
 * when none did.
 */
export function unexpectedDialogs(watch: DialogWatch | undefined): StepFailure | undefined {
  const strays = watch?.unexpected() ?? [];
  if (strays.length === 0) return undefined;
  const described = strays.map(describeDialog);
  return new StepFailure('assertion_failed', `${capitalised(described.join(', then '))} opened, which the task did not expect (dismissed)`, { expected: 'no dialog', actual: described });
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
