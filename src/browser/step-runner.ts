import type { Locator, Page, Request, Response } from 'playwright';
import type { ResolvedLocator } from '../core/check.js';
import type { Comparison, FindingKind } from '../core/findings.js';
import { addressNamesPage } from '../core/page-address.js';
import { SIGN_IN_PAGE, type PlanStep, type PlanValue, type Target } from '../core/plan.js';
import { uploadFileFor } from '../core/upload-file.js';
import { unreachableReason } from './egress-proxy.js';
import type { HostAllowlist } from './host-allowlist.js';
import { watchAppearing } from './appearing-texts.js';
import { expectDialog, unexpectedDialogs, type DialogStep, type DialogWatch } from './dialogs.js';
import { checkExpectation } from './expectations.js';
import { describeLocator, locatorOf, resolveTarget } from './locate.js';
import { asksModel, resolveWithModel, type ModelGrounding } from './model-ground.js';
import { blockedNavigation } from './navigation-guard.js';
import { nameProvenBy, sideEffectBlocked, type SideEffectGuard } from './side-effect-guard.js';
import { normalizedText } from './nearest-texts.js';
import { StepFailure } from './step-failure.js';

export interface StepContext {
  /** Relative navigations resolve against it. */
  baseUrl: string;
  /** How long a step waits for its target or its expectation. */
  timeoutMs: number;
  /** A test value by semantic name, read from its secret at run time; undefined when not configured. */
  testValue(name: string): string | undefined;
  /** A replay passes the locator the compiled check stored: no resolution, no guessing. */
  locator?: ResolvedLocator;
  /** A drag's drop target as the compiled check stored it (`to` of a `dragTo` step). */
  toLocator?: ResolvedLocator;
  /** What the run may reach (the session's): a step whose navigation ends elsewhere fails as `navigation_blocked`. */
  allowlist: HostAllowlist;
  /** Stops a click or key press whose target names a side effect no answer allowed (`side_effect_blocked`). */
  sideEffects?: SideEffectGuard;
  /**
   * Told of each target the step resolves on the live page, before acting on it (heal.ts records it); `which` is
   * `to` for a drag's drop target.
   */
  found?: (element: Locator, locator: ResolvedLocator, which: TargetRole) => Promise<void>;
  /**
   * A natural-language run with a model planner: a target of a step that acts which the rule grounding cannot
   * resolve is shown to the model with the page (model-ground.ts). Never on a replay (it has `locator`).
   */
  model?: ModelGrounding;
  /** The run's one answerer of the page's dialogs (./dialogs.ts); without it, Playwright dismisses them. */
  dialogs?: DialogWatch;
  /** The `dialog` steps right after this one: the dialogs this step opens, answered as they say while it acts. */
  opensDialogs?: readonly DialogStep[];
  /** Texts the expectations right after this step expect to appear: watched from before it acts (./appearing-texts.ts). */
  revealsTexts?: readonly string[];
}

/** Which of a step's targets: its `target`, or a drag's `to`. */
export type TargetRole = 'target' | 'to';

/** `model`: the model planner chose a target of this step on the page (which element, and why in its words). */
export type StepResult =
  /** `ran`: the step as it ran when the page decided more than the plan said (a named page's address). */
  | { status: 'passed'; locator?: ResolvedLocator; toLocator?: ResolvedLocator; ran?: PlanStep; model?: string }
  | { status: 'failed'; kind: FindingKind; message: string; locator?: ResolvedLocator; toLocator?: ResolvedLocator; comparison?: Comparison; model?: string };


/**
 * Runs one plan step on the page. Targets are resolved against the live page (or taken from a compiled check);
 * a target that matches nothing or several elements fails as `step_unresolvable`, an expectation that does not
 * hold as `assertion_failed`, and any step (a navigation, a click on a link) that leaves the page outside the
 * allowlist as `navigation_blocked`. Never throws for what the page does; messages never carry a typed value (a
 * failed expectation says what the page shows, a password field's value excepted: the recorder scrubs secrets).
 */
export async function runStep(page: Page, step: PlanStep, context: StepContext): Promise<StepResult> {
  let locator: ResolvedLocator | undefined;
  let toLocator: ResolvedLocator | undefined;
  let chosenByModel: string | undefined;
  /** An expectation that checked what the page showed instead of what the plan named (cards for a list's items). */
  let checkedAs: PlanStep | undefined;
  // Where a main-frame navigation of this step failed to go, redirects included: a tunnel the proxy refused fails the
  // load, and the page's URL then need not show where it was going (a plain-http target the proxy refused answers
  // 403, and the page's URL says it). Failures only: a listener for every request would have Playwright send each
  // one of the run's requests over to this process (bench:runs: replay p50 1.37 s with it, 1.12 s without).
  const failedNavigations = failedNavigationsOf(page);
  const failedBefore = failedNavigations.count;
  const navigatedTo = () => (failedNavigations.count > failedBefore ? failedNavigations.last : undefined);
  const blocked = () => {
    const failedAt = navigatedTo();
    return blockedNavigation(page.url(), context.allowlist) ?? (failedAt === undefined ? undefined : blockedNavigation(failedAt, context.allowlist));
  };
  /**
   * Set when a replay's action was given its stored target without counting it first: the action itself waits for
   * the one element and refuses several (Playwright's strict mode), and a failure is told apart afterwards.
   */
  let uncounted: Locator | undefined;
  const find = async (target: Target, which: TargetRole = 'target'): Promise<Locator> => {
    const stored = which === 'to' ? context.toLocator : context.locator;
    if (stored) {
      if (which === 'to') toLocator = stored;
      else locator = stored;
      const element = storedTarget(page, stored);
      // An action that changes nothing but the element (a fill, a hover) waits for it as it acts: one call where a
      // count and then the action were two (each a round trip, and two DOM snapshots in a traced run).
      if (which === 'target' && ACTS_ON_ELEMENT_ALONE.has(step.action)) return (uncounted = element);
      // Usually the target is there already: one call instead of a wait and a count (each is a round trip, and two
      // DOM snapshots in a traced run). Otherwise wait for it, then count again.
      let count = await element.count().catch(() => 0);
      if (count !== 1) {
        await element.first().waitFor({ state: 'visible', timeout: context.timeoutMs }).catch(() => undefined);
        count = await element.count();
      }
      if (count !== 1) throw new StepFailure('step_unresolvable', storedTargetMismatch(stored, count));
      return element.first();
    }
    let resolution = await resolveTarget(page, step.action, target, context.timeoutMs);
    if (!resolution.found) {
      const what = `"${target.name}"`;
      const failure =
        resolution.message !== undefined
          ? resolution.message
          : resolution.reason === 'several'
          ? `${resolution.matches} elements match ${what}; say which one (for example by its label or the text around it)`
          : `Nothing on the page matches ${what} (looked for ${resolution.tried.map(describeLocator).join(', ')})${offers(resolution.candidates)}`;
      // A model planner, shown the page, may find what the rule could not (a step that acts only).
      if (context.model === undefined || !asksModel(step.action)) throw new StepFailure('step_unresolvable', failure);
      const chosen = await resolveWithModel(page, step, which, failure, context.model, context.allowlist);
      if (!chosen.found) throw new StepFailure(chosen.kind, chosen.message);
      chosenByModel = chosen.reason;
      resolution = chosen;
    }
    if (which === 'to') toLocator = resolution.locator;
    else locator = resolution.locator;
    await context.found?.(resolution.element, resolution.locator, which);
    return resolution.element;
  };
  const valueOf = (value: PlanValue): string => {
    if (value.kind === 'literal') return value.text;
    const text = context.testValue(value.name);
    if (text === undefined) throw new StepFailure('step_unresolvable', `The test value "${value.name}" is not configured`);
    return text;
  };

  // A click or double-click, or a key that activates (Enter submits a field's form, Space presses a button), is
  // checked on the element it resolved to, just before it acts.
  const guard = context.sideEffects;
  const acting =
    guard !== undefined && (step.action === 'click' || step.action === 'dblclick' || step.action === 'rightClick' || (step.action === 'press' && /^(?:Enter|NumpadEnter|Space| )$/.test(step.key)));
  const findChecked = !acting
    ? find
    : async (target: Target, which?: TargetRole): Promise<Locator> => {
        const element = await find(target, which);
        const blocked = await sideEffectBlocked(element, guard, nameProvenBy(locator));
        if (blocked !== undefined) throw new StepFailure('side_effect_blocked', blocked);
        return element;
      };

  // Before the step acts: the dialog it opens is answered as it opens, else the action would stall on it.
  if (step.action !== 'dialog') context.dialogs?.arm(context.opensDialogs ?? []);
  // A text the next checks expect to appear may show only briefly: watched from before the step acts.
  if (context.revealsTexts !== undefined && context.revealsTexts.length > 0) await watchAppearing(page, context.revealsTexts);
  try {
    // A page the task named without a path: found on the live page first, and kept as the address it reached.
    const named = step.action === 'navigate' && step.page !== undefined ? await openNamedPage(page, step.page, context) : false;
    if (!named) await perform(page, step, context, findChecked, valueOf, (found, ranAs) => {
      locator = found;
      checkedAs = ranAs;
    });
    // A dialog no step expected opened while this one acted (it was dismissed): the page did what the task did not say.
    const stray = unexpectedDialogs(context.dialogs);
    if (stray !== undefined) throw stray;
    const outside = blocked();
    const found = { locator, ...(toLocator ? { toLocator } : {}), ...(chosenByModel === undefined ? {} : { model: chosenByModel }) };
    // Found or opened at its guessed address, a named page is compiled as the address reached: a replay and the
    // generated source go there directly and never look again.
    // Found open already, it is compiled as a check that the run is there: going there again would load it anew, and a
    // page that shows something once (a flash message after a redirect) would not show it again.
    const ran: PlanStep | undefined =
      named === 'there'
        ? { action: 'expectUrl', description: step.description, contains: new URL(page.url()).pathname }
        : step.action === 'navigate' && step.page !== undefined
          ? { action: 'navigate', description: step.description, url: pathOf(page.url(), context.baseUrl) }
          : checkedAs;
    return outside === undefined ? { status: 'passed', ...found, ...(ran ? { ran } : {}) } : { status: 'failed', kind: 'navigation_blocked', message: outside, ...found };
  } catch (error) {
    const found = { locator, ...(toLocator ? { toLocator } : {}), ...(chosenByModel === undefined ? {} : { model: chosenByModel }) };
    // Whatever else went wrong, the page was not where the run may test.
    const outside = blocked();
    if (outside !== undefined) return { status: 'failed', kind: 'navigation_blocked', message: outside, ...found };
    // A dialog nobody expected is the likelier cause of what went wrong after it: said first.
    const stray = unexpectedDialogs(context.dialogs);
    if (stray !== undefined) return { status: 'failed', kind: stray.kind, message: `${stray.message}; then: ${error instanceof Error ? error.message.split('\n')[0]! : String(error)}`, ...found, comparison: stray.comparison! };
    if (error instanceof StepFailure) return { status: 'failed', kind: error.kind, message: error.message, ...found, ...(error.comparison ? { comparison: error.comparison } : {}) };
    // A stored target the action waited for in vain, or found more than once: the same finding as when it is counted first.
    const count = uncounted === undefined || locator === undefined ? 1 : await uncounted.count().catch(() => 0);
    if (count !== 1) return { status: 'failed', kind: 'step_unresolvable', message: storedTargetMismatch(locator!, count), ...found };
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    return { status: 'failed', kind: 'assertion_failed', message, ...found };
  }
}

/** The main-frame navigations of a page that failed: how many so far, and where the latest was going. */
interface FailedNavigations {
  count: number;
  last?: string;
}

const failedNavigations = new WeakMap<Page, FailedNavigations>();

/**
 * One listener a page for its whole life, where one a step would have Playwright turn the page's request-failed
 * events on and off around every step (two messages a step to the browser's driver).
 */
function failedNavigationsOf(page: Page): FailedNavigations {
  let seen = failedNavigations.get(page);
  if (seen === undefined) {
    const fresh: FailedNavigations = { count: 0 };
    page.on('requestfailed', (request: Request) => {
      if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
      fresh.count += 1;
      fresh.last = request.url();
    });
    failedNavigations.set(page, (seen = fresh));
  }
  return seen;
}

/**
 * Steps that act on their target alone, never on the page around it (no navigation, no side effect the guard reads
 * first): a replay gives them their stored target uncounted.
 */
const ACTS_ON_ELEMENT_ALONE: ReadonlySet<PlanStep['action']> = new Set(['fill', 'check', 'hover', 'clear', 'scrollTo', 'upload']);

/** A replay's stored target: the visible elements its locator matches (one, for the step to run). */
function storedTarget(page: Page, stored: ResolvedLocator): Locator {
  return locatorOf(page, stored).filter({ visible: true });
}

function storedTargetMismatch(stored: ResolvedLocator, count: number): string {
  return `The stored target (${describeLocator(stored)}) matches ${count} elements now, not one`;
}

/**
 * "Open the Dropdown List page" where the task gave no path: the run is there already when the page's title or a
 * heading says so ('there'); else a link of that name on the page goes there ('opened'). False: neither, so the guessed
 * address is opened.
 */
async function openNamedPage(page: Page, name: string, context: StepContext): Promise<'there' | 'opened' | false> {
  // The sign-in a task asks for starts where a password can be typed: on such a page the run is there already.
  if (name === SIGN_IN_PAGE) return (await page.locator('input[type="password"]').filter({ visible: true }).count().catch(() => 0)) > 0 ? 'there' : false;
  const wanted = normalizedText(name);
  const says = (text: string) => normalizedText(text).includes(wanted);
  const headings = await page.getByRole('heading').filter({ visible: true }).allInnerTexts().catch(() => [] as string[]);
  if (says(await page.title().catch(() => '')) || headings.some(says)) return 'there';
  // "Dynamic Loading example 2" on /dynamic_loading/2: the address says the name, words and number.
  if (addressNamesPage(page.url(), name)) return 'there';
  // A link of that name, else the one link whose address (or class, or test id) says it.
  const named = page.getByRole('link', { name, exact: false }).filter({ visible: true });
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  // (An icon link may say it only in its address, class or test id: Swag Labs' cart is `a.shopping_cart_link`.)
  const addressed = page.locator(['href', 'class', 'data-test', 'data-testid'].map((attribute) => `a[${attribute}*="${slug}" i]`).join(', ')).filter({ visible: true });
  // A product's picture link and its title link share its name (the picture's alt text): the one that says it in its
  // text is the one people mean.
  const namedCount = await named.count().catch(() => 0);
  const spoken = named.filter({ hasText: name });
  const link =
    namedCount === 1 ? named
    : namedCount > 1 && (await spoken.count().catch(() => 0)) === 1 ? spoken
    : slug !== '' && (await addressed.count().catch(() => 0)) === 1 ? addressed
    : undefined;
  if (link === undefined) return false;
  await link.click({ timeout: context.timeoutMs });
  await page.waitForLoadState('load', { timeout: context.timeoutMs }).catch(() => undefined);
  return 'opened';
}

/** The address as the plan writes it: a path on the base URL's origin, else the whole URL. */
function pathOf(url: string, baseUrl: string): string {
  const at = new URL(url);
  return at.origin === new URL(baseUrl).origin ? `${at.pathname}${at.search}${at.hash}` : at.href;
}

/** ". The page offers: button "Apply", link "Cart"": what grounding saw of the kind the step wanted. */
function offers(candidates: readonly string[] | undefined): string {
  return candidates === undefined || candidates.length === 0 ? '' : `. The page offers: ${candidates.join(', ')}`;
}

async function perform(
  page: Page,
  step: PlanStep,
  context: StepContext,
  find: (target: Target, which?: TargetRole) => Promise<Locator>,
  valueOf: (value: PlanValue) => string,
  /** An expectation checked an element it did not `find` (a hidden one the run saw before): its locator. */
  resolved: (locator: ResolvedLocator | undefined, ran?: PlanStep) => void,
): Promise<void> {
  const timeout = context.timeoutMs;
  switch (step.action) {
    case 'navigate': {
      const url = new URL(step.url, context.baseUrl).href;
      let response: Response | null;
      try {
        response = await page.goto(url, { waitUntil: 'load', timeout });
      } catch (error) {
        throw new StepFailure('navigation_failed', `Could not open ${url}: ${error instanceof Error ? error.message.split('\n')[0]! : String(error)}`);
      }
      // The egress proxy's answer for a site it could not connect to is an empty 502. Full Chromium shows its error
      // page for that and goto throws; headless shell shows the empty page. Either way the site was not reached.
      const unreachable = response ? unreachableReason(response.headers()) : undefined;
      if (unreachable !== undefined) throw new StepFailure('navigation_failed', `Could not open ${url}: could not connect (${unreachable})`);
      return;
    }
    case 'reload':
    case 'goBack':
    case 'goForward':
      return history(page, step.action, timeout);
    case 'click':
      await (await find(step.target)).click({ timeout });
      await settle(page);
      return;
    case 'fill':
      await (await find(step.target)).fill(valueOf(step.value), { timeout });
      return;
    case 'select': {
      const element = await find(step.target);
      const wanted = valueOf(step.value);
      await element.selectOption({ label: wanted }, { timeout }).catch(() => element.selectOption(wanted, { timeout }));
      return;
    }
    case 'check':
      await (await find(step.target)).setChecked(step.checked, { timeout });
      return;
    case 'press':
      if (step.target) await (await find(step.target)).press(step.key, { timeout });
      else await page.keyboard.press(step.key);
      await settle(page);
      return;
    case 'waitFor':
      await find(step.target);
      return;
    case 'dblclick':
      await (await find(step.target)).dblclick({ timeout });
      await settle(page);
      return;
    case 'rightClick':
      await (await find(step.target)).click({ button: 'right', timeout });
      await settle(page);
      return;
    case 'dialog':
      return expectDialog(context.dialogs, step, timeout);
    case 'hover':
      await (await find(step.target)).hover({ timeout });
      return;
    case 'clear':
      await (await find(step.target)).clear({ timeout });
      return;
    case 'scrollTo':
      await (await find(step.target)).scrollIntoViewIfNeeded({ timeout });
      return;
    case 'dragTo': {
      const source = await find(step.target);
      const destination = await find(step.to, 'to');
      await source.dragTo(destination, { timeout });
      return;
    }
    case 'upload':
      await (await find(step.target)).setInputFiles(uploadFileFor(step.fileName), { timeout });
      return;
    case 'expectText':
    case 'expectTitle':
    case 'expectValue':
    case 'expectUrl':
    case 'expectState':
    case 'expectCount':
    case 'expectItems':
    case 'expectStorage':
      // What an expectation compared goes into its finding (./expectations.ts).
      return checkExpectation(page, step, { timeoutMs: timeout, find, stored: context.locator, resolved });
    case 'probe':
      // Probe steps are the verifier's: the workflow calls the evidence probe, not the page.
      throw new StepFailure('probe_failed', 'Probe steps are run by the verifier, not on the page');
    default:
      // Every step kind must be performed here: one left out would pass without doing anything.
      return unperformed(step);
  }
}

function unperformed(step: never): never {
  throw new StepFailure('step_unresolvable', `The runner has no way to perform ${JSON.stringify((step as PlanStep).action)}`);
}

/**
 * Reload, back or forward, waiting for the page to load as a navigation does (bounded). Back or forward with no page
 * there (the history's first or last entry) changes nothing: that fails as `navigation_failed`, as a page that does
 * not load does. A same-document entry (a single-page app's pushState) answers no response but changes the URL.
 */
async function history(page: Page, action: 'reload' | 'goBack' | 'goForward', timeoutMs: number): Promise<void> {
  const what = action === 'reload' ? 'reload the page' : action === 'goBack' ? 'go back' : 'go forward';
  const before = page.url();
  const options = { waitUntil: 'load' as const, timeout: timeoutMs };
  let response: Response | null;
  try {
    response = action === 'reload' ? await page.reload(options) : action === 'goBack' ? await page.goBack(options) : await page.goForward(options);
  } catch (error) {
    throw new StepFailure('navigation_failed', `Could not ${what}: ${error instanceof Error ? error.message.split('\n')[0]! : String(error)}`);
  }
  if (response === null && action !== 'reload' && page.url() === before) {
    throw new StepFailure('navigation_failed', `Could not ${what}: there is no page ${action === 'goBack' ? 'before' : 'after'} ${before} in this tab's history`);
  }
  const unreachable = response ? unreachableReason(response.headers()) : undefined;
  if (unreachable !== undefined) throw new StepFailure('navigation_failed', `Could not ${what}: could not connect (${unreachable})`);
}

/** After a click or a key that may navigate, waits for the new page to load (bounded; most clicks do not navigate). */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('load', { timeout: 5_000 }).catch(() => undefined);
}
