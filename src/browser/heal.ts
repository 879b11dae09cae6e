import type { ElementHandle, Locator, Page } from 'playwright';
import { roleAndNameOf } from './aria-name.js';
import type { CompiledStep, ResolvedLocator } from '../core/check.js';
import { ErrorCode, operationalError } from '../core/errors.js';
import {
  describeAlternative,
  describeElement,
  judgeVotes,
  proposedLocator,
  type Alternative,
  type AlternativeVote,
  type ElementDescription,
  type HealingRecord,
} from '../core/healing.js';
import { describeLocator, locatorOf } from './locate.js';
import { runStep, type StepContext, type StepResult, type TargetRole } from './step-runner.js';

/** What the page function below reads; the project compiles without the DOM library, so it is typed by hand. */
interface DomElement {
  tagName: string;
  id: string;
  innerText?: string;
  textContent: string | null;
  classList: Iterable<string>;
  parentElement: DomElement | null;
  children: Iterable<DomElement>;
  labels?: Iterable<{ innerText: string }> | null;
  getAttribute(name: string): string | null;
}

interface ElementFacts {
  tag: string;
  text: string;
  type?: string;
  placeholder?: string;
  testId?: string;
  labels: string[];
  css: string;
}

/**
 * Read in the page: the element's own facts and a short CSS path (an id ends it; at most five levels). No named
 * inner functions: esbuild (tsx, the benches) wraps those in a `__name` helper the page does not have.
 */
function readFacts(node: unknown): ElementFacts {
  const element = node as DomElement;
  const css = (globalThis as unknown as { CSS: { escape(text: string): string } }).CSS;
  const tag = element.tagName.toLowerCase();
  const parts: string[] = [];
  let current: DomElement | null = element;
  while (current !== null && parts.length < 5) {
    if (current.id !== '') {
      parts.unshift(`#${css.escape(current.id)}`);
      break;
    }
    const name = current.tagName.toLowerCase();
    if (name === 'body' || name === 'main') {
      parts.unshift(name);
      break;
    }
    // Generated class names (with runs of digits) change with every build: no evidence.
    const stable = [...current.classList].find((name) => !/\d{3,}/.test(name));
    let part = stable === undefined ? name : `${name}.${css.escape(stable)}`;
    const parent: DomElement | null = current.parentElement;
    if (parent !== null) {
      const tagName = current.tagName;
      const same = [...parent.children].filter((child) => child.tagName === tagName);
      if (same.length > 1) part += `:nth-of-type(${same.indexOf(current) + 1})`;
    }
    parts.unshift(part);
    current = parent;
  }
  const placeholder = element.getAttribute('placeholder');
  const testId = element.getAttribute('data-testid');
  return {
    tag,
    text: (element.innerText ?? element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 120),
    ...(tag === 'input' ? { type: (element.getAttribute('type') ?? 'text').toLowerCase() } : {}),
    ...(placeholder !== null ? { placeholder } : {}),
    ...(testId !== null ? { testId } : {}),
    labels: element.labels ? [...element.labels].map((label) => label.innerText.replace(/\s+/g, ' ').trim()).filter((text) => text !== '') : [],
    css: parts.join(' > '),
  };
}

/** Playwright's role and accessible name of the element: the first line of its ARIA snapshot (`- button "Apply"`). */
async function roleAndName(element: Locator): Promise<{ role: string; name: string }> {
  const read = roleAndNameOf(await element.ariaSnapshot({ timeout: 2_000 }));
  return read === undefined || read.role === 'text' ? { role: '', name: '' } : read;
}

/**
 * What the element looks like: its facts read through `handle` and Playwright's role and name through `locator`
 * (which finds it alone). A handle's evaluate does not wait for the element the way a locator's does (a frame, about
 * 16 ms a call), so a step records in a few round trips.
 */
async function describe(handle: ElementHandle, locator: Locator, known?: { role: string; name: string }): Promise<{ description: ElementDescription; facts: ElementFacts }> {
  const [facts, { role, name }] = await Promise.all([handle.evaluate(readFacts), known ?? roleAndName(locator)]);
  const description: ElementDescription = {
    tag: facts.tag,
    role,
    name: name.slice(0, 300),
    text: facts.text,
    ...(facts.type !== undefined ? { type: facts.type } : {}),
    ...(facts.placeholder !== undefined ? { placeholder: facts.placeholder.slice(0, 300) } : {}),
  };
  return { description, facts };
}

/** The one element a locator finds now, or how many it finds; handles of a count other than one are let go. */
async function onlyElement(locator: Locator): Promise<{ matches: number; handle?: ElementHandle }> {
  const handles = await locator.elementHandles().catch((): ElementHandle[] => []);
  if (handles.length === 1) return { matches: 1, handle: handles[0]! };
  await Promise.all(handles.map((handle) => handle.dispose().catch(() => undefined)));
  return { matches: handles.length };
}

/** The Playwright locator of an alternative; every one matches exactly. */
export function alternativeLocator(page: Page, alternative: Alternative): Locator {
  const exact = { exact: true };
  switch (alternative.strategy) {
    case 'role':
      return page.getByRole(alternative.role as Parameters<Page['getByRole']>[0], { name: alternative.value, exact: true });
    case 'label':
      return page.getByLabel(alternative.value, exact);
    case 'placeholder':
      return page.getByPlaceholder(alternative.value, exact);
    case 'testId':
      return page.getByTestId(alternative.value);
    case 'text':
      return page.getByText(alternative.value, exact);
    case 'css':
      return page.locator(alternative.value);
  }
}

/**
 * Records what `element` looks like and every independent way that finds exactly it now (role and name, label,
 * placeholder, test id, text, a short CSS path). A way that matches several elements is no evidence and is left out.
 * The ways are checked at once (one round trip each, in parallel).
 */
export async function recordTarget(page: Page, element: Locator): Promise<HealingRecord> {
  const [only, roleName] = await Promise.all([onlyElement(element), roleAndName(element)]);
  if (only.handle === undefined) {
    throw operationalError(ErrorCode.BrowserTargetNotUnique, `the target matches ${only.matches} elements`, { details: { matches: only.matches } });
  }
  const target = only.handle;
  try {
    const { description, facts } = await describe(target, element, roleName);
    const candidates: Alternative[] = [];
    const add = (alternative: Omit<Alternative, 'value'> & { value: string | undefined }) => {
      const value = alternative.value?.trim();
      if (value !== undefined && value !== '' && value.length <= 300) candidates.push({ ...alternative, value } as Alternative);
    };
    if (description.role !== '') add({ strategy: 'role', role: description.role, value: description.name });
    add({ strategy: 'label', value: facts.labels[0] });
    add({ strategy: 'placeholder', value: facts.placeholder });
    add({ strategy: 'testId', value: facts.testId });
    if (!['input', 'select', 'textarea'].includes(facts.tag) && facts.text.length <= 80) add({ strategy: 'text', value: facts.text });
    add({ strategy: 'css', value: facts.css });
    const alone = await Promise.all(
      candidates.map((candidate) =>
        alternativeLocator(page, candidate)
          .filter({ visible: true })
          .evaluateAll((nodes, wanted) => nodes.length === 1 && nodes[0] === wanted, target)
          .catch(() => false),
      ),
    );
    return { element: description, alternatives: candidates.filter((_, index) => alone[index]) };
  } finally {
    await target.dispose().catch(() => undefined);
  }
}

export type HealAttempt =
  | { healed: true; locator: ResolvedLocator; record: HealingRecord; agreeing: Alternative[]; element: ElementDescription }
  | { healed: false; reason: string };

/**
 * After a stored locator found nothing: asks each recorded alternative which element it finds now, and heals only
 * when those that find one agree on it and it still looks like the recorded element (src/core/healing.ts). The
 * locator proposed is one the replayer and the generated source understand (role, label, placeholder or text).
 */
export async function healTarget(page: Page, stored: ResolvedLocator, record: HealingRecord): Promise<HealAttempt> {
  const primary = await locatorOf(page, stored).filter({ visible: true }).count().catch(() => 0);
  if (primary > 0) return { healed: false, reason: `the stored locator matches ${primary} element${primary === 1 ? '' : 's'}, and only a target that is gone is healed` };
  const found = await Promise.all(
    record.alternatives.map(async (alternative) => {
      const locator = alternativeLocator(page, alternative).filter({ visible: true });
      return { alternative, locator, ...(await onlyElement(locator)) };
    }),
  );
  const single = found.filter((vote) => vote.handle !== undefined);
  try {
    // The same element twice is the same node in the page: number each by the first alternative that found it.
    const first = single.length === 0 ? [] : await page.evaluate((nodes) => nodes.map((node) => nodes.indexOf(node)), single.map((vote) => vote.handle!));
    const distinct = [...new Set(first)];
    const votes: AlternativeVote[] = found.map((vote) => {
      const at = single.indexOf(vote);
      return at === -1 ? { alternative: vote.alternative, matches: vote.matches } : { alternative: vote.alternative, matches: 1, element: distinct.indexOf(first[at]!) };
    });
    const descriptions = await Promise.all(
      distinct.map((index) => describe(single[index]!.handle!, single[index]!.locator).then((read) => read.description, () => undefined)),
    );
    const verdict = judgeVotes(record, votes, (element) => descriptions[element]);
    if (!verdict.healed) return verdict;
    const fresh = await recordTarget(page, single[distinct[verdict.element]!]!.locator);
    const locator = proposedLocator(stored, fresh.element, fresh.alternatives);
    if (locator === undefined) {
      return { healed: false, reason: `no role, label, placeholder or text finds ${describeElement(fresh.element)} alone, so no locator can replace the stored one` };
    }
    return { healed: true, locator, record: fresh, agreeing: verdict.agreeing, element: fresh.element };
  } finally {
    await Promise.all(single.map((vote) => vote.handle!.dispose().catch(() => undefined)));
  }
}

/** A step's result with what healing adds: the record to compile, or the heal that made it pass. */
export type HealingStepResult = StepResult & {
  /** What the target looked like, to keep with the compiled step (recorded runs, and healed or passing replays). */
  healing?: HealingRecord;
  /** The same for a drag's drop target (`to`). */
  toHealing?: HealingRecord;
  /** `which`: `to` when the drop target of a drag was healed. */
  healed?: { from: ResolvedLocator; to: ResolvedLocator; agreeing: string[]; element: ElementDescription; which?: TargetRole };
};

/**
 * Runs a step with healing around it, the one place the runner calls. `record` (a natural-language run): the targets
 * it resolves (a drag's two) are described for the compiled check. Otherwise (a replay): when a stored locator finds
 * nothing and the step has a healing record for it, the alternatives are weighed; a heal they agree on runs the step
 * again with the proposed locator and says so, anything less fails the step as before, with the reason added.
 */
export async function runStepWithHealing(
  page: Page,
  compiled: CompiledStep,
  context: StepContext,
  options: {
    record: boolean;
    /**
     * Whether a record or a proposed locator may be stored: false when it shows a secret value (a heading that reads
     * "Signed in as <secret>"). Such a record is not kept, and such a heal is refused, since a check holds no secret.
     */
    storable: (value: object) => boolean;
  },
): Promise<HealingStepResult> {
  if (options.record) {
    const recorded: Partial<Record<TargetRole, Promise<HealingRecord | undefined>>> = {};
    const result = await runStep(page, compiled.step, {
      ...context,
      // Before the step acts on it: a click may take the page away.
      found: async (element, _locator, which) => {
        recorded[which] ??= recordTarget(page, element).catch(() => undefined);
        await recorded[which];
      },
    });
    if (result.status !== 'passed') return result;
    const [healing, toHealing] = await Promise.all([recorded.target, recorded.to]);
    return {
      ...result,
      ...(healing !== undefined && options.storable(healing) ? { healing } : {}),
      ...(toHealing !== undefined && options.storable(toHealing) ? { toHealing } : {}),
    };
  }
  const result = await runStep(page, compiled.step, context);
  const kept = { ...(compiled.healing !== undefined ? { healing: compiled.healing } : {}), ...(compiled.toHealing !== undefined ? { toHealing: compiled.toHealing } : {}) };
  const stored: Array<{ which: TargetRole; locator: ResolvedLocator; record: HealingRecord }> = [];
  if (compiled.locator !== undefined && compiled.healing !== undefined) stored.push({ which: 'target', locator: compiled.locator, record: compiled.healing });
  if (compiled.toLocator !== undefined && compiled.toHealing !== undefined) stored.push({ which: 'to', locator: compiled.toLocator, record: compiled.toHealing });
  if (result.status === 'passed' || result.kind !== 'step_unresolvable' || stored.length === 0) return { ...result, ...kept };
  // The target that is gone: the first whose stored locator finds nothing (a drag's source, else its drop target).
  let chosen: { attempt: HealAttempt; which: TargetRole; from: ResolvedLocator } | undefined;
  for (const candidate of stored) {
    const attempt = await healTarget(page, candidate.locator, candidate.record).catch((error: unknown) => ({
      healed: false as const,
      reason: `healing could not look (${error instanceof Error ? error.message.split('\n')[0]! : String(error)})`,
    }));
    // A reason about a locator that still matches says nothing when another target is the one that is gone.
    if (chosen === undefined || attempt.healed || !/^the stored locator matches/.test(attempt.reason)) chosen = { attempt, which: candidate.which, from: candidate.locator };
    if (attempt.healed) break;
  }
  if (chosen === undefined) return { ...result, ...kept };
  const { attempt, which, from } = chosen;
  if (attempt.healed && !options.storable({ locator: attempt.locator, record: attempt.record })) {
    return { ...result, message: `${result.message}. Not healed: the element it found shows a secret value, which a check never stores` };
  }
  if (!attempt.healed) return { ...result, message: `${result.message}. Not healed: ${attempt.reason}` };
  const retried = await runStep(page, compiled.step, { ...context, ...(which === 'to' ? { toLocator: attempt.locator } : { locator: attempt.locator }) });
  if (retried.status !== 'passed') {
    return { ...retried, message: `${retried.message} (after healing to ${describeLocator(attempt.locator)})` };
  }
  return {
    ...retried,
    ...kept,
    ...(which === 'to' ? { toHealing: attempt.record } : { healing: attempt.record }),
    healed: { from, to: attempt.locator, agreeing: attempt.agreeing.map(describeAlternative), element: attempt.element, ...(which === 'to' ? { which } : {}) },
  };
}
