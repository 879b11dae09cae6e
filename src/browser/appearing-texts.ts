/**
 * A text the task expects to appear right after an action ("click Start and check that 'Loading...' appears") may
 * show only briefly: by the time the step after the click runs (a screenshot, an audit, a commit later), it can be
 * gone again, though it did appear. So before such an action the run watches the page for those texts (a
 * MutationObserver in the page), and the expectation passes when the page shows the text now or showed it since the
 * action began. Nothing else passes this way: a text that never appeared still fails, with what the page shows.
 */
import type { Page } from 'playwright';
import type { PlanStep } from '../core/plan.js';

const ACTING: ReadonlySet<PlanStep['action']> = new Set(['click', 'dblclick', 'rightClick', 'press', 'check', 'select', 'fill', 'hover', 'dragTo', 'upload']);
/** The page's record of what appeared; a name no app uses. */
const RECORD = '__qaAppearedTexts';

/**
 * The texts the expectations right after step `index` expect to appear: a text said to appear or show (an
 * `expectState` visible of a text). Other expectations wait for what stays; only these are watched, at no cost to the
 * rest.
 */
export function appearingTextsAfter(steps: readonly PlanStep[], index: number): string[] {
  if (!ACTING.has(steps[index]?.action ?? 'navigate')) return [];
  const texts: string[] = [];
  for (const step of steps.slice(index + 1)) {
    if (step.action === 'expectState' && step.state === 'visible' && step.target.by === 'text' && step.target.within === undefined) texts.push(step.target.name);
    else if (!step.action.startsWith('expect') && step.action !== 'waitFor') break;
  }
  return texts.filter((text) => text.trim() !== '').slice(0, 20);
}

/** Starts watching the page for `texts` (a new watch replaces the last one). */
export async function watchAppearing(page: Page, texts: readonly string[]): Promise<void> {
  if (texts.length === 0) return;
  await page
    .evaluate(
      ({ wanted, record }) => {
        // Runs in the page; the project compiles without the DOM library, so the page is typed by hand.
        const scope = globalThis as unknown as Record<string, unknown> & { document: { body: { innerText: string; textContent: string | null } | null; documentElement: unknown } };
        const previous = scope[record] as { observer?: { disconnect(): void } } | undefined;
        previous?.observer?.disconnect();
        const seen: string[] = [];
        // No named inner functions: esbuild (tsx, the benches) wraps those in a `__name` helper the page does not have.
        const handlers = [
          () => {
            const body = scope.document.body;
            if (body === null) return;
            const shown = body.innerText.replace(/\s+/g, ' ').trim();
            const source = (body.textContent ?? '').replace(/\s+/g, ' ').trim();
            for (const text of wanted) {
              const plain = text.replace(/\s+/g, ' ').trim();
              if (seen.includes(text) || !shown.toLowerCase().includes(plain.toLowerCase())) continue;
              // A text in mixed case, letter for letter (src/core/text-case.ts).
              if (/\p{Lu}/u.test(plain) && /\p{Ll}/u.test(plain) && !shown.includes(plain) && !source.includes(plain)) continue;
              seen.push(text);
            }
          },
        ];
        const Observer = (globalThis as unknown as { MutationObserver: new (callback: () => void) => { observe(node: unknown, options: object): void; disconnect(): void } }).MutationObserver;
        const observer = new Observer(handlers[0]!);
        observer.observe(scope.document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
        handlers[0]!();
        scope[record] = { seen, observer };
      },
      { wanted: [...texts], record: RECORD },
    )
    .catch(() => undefined);
}

/** Whether the page showed `text` since the watch began (false when nothing watched it, or the page is another). */
export async function appeared(page: Page, text: string): Promise<boolean> {
  return page
    .evaluate(({ wanted, record }) => ((globalThis as unknown as Record<string, { seen?: string[] } | undefined>)[record]?.seen ?? []).includes(wanted), { wanted: text, record: RECORD })
    .catch(() => false);
}
