import type { Locator, Page, Request, Response } from 'playwright';
import type { ResolvedLocator } from '../core/check.js';
import type { Comparison, FindingKind } from '../core/findings.js';
import type { PlanStep, PlanValue, Target } from '../core/plan.js';
import { unreachableReason } from './egress-proxy.js';
import type { HostAllowlist } from './host-allowlist.js';
import { checkExpectation } from './expectations.js';
import { describeLocator, locatorOf, resolveTarget } from './locate.js';
import { blockedNavigation } from './navigation-guard.js';
import { nameProvenBy, sideEffectBlocked, type SideEffectGuard } from './side-effect-guard.js';
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
  /** What the run may reach (the session's): a step whose navigation ends elsewhere fails as `navigation_blocked`. */
  allowlist: HostAllowlist;
  /** Stops a click or key press whose target names a side effect no answer allowed (`side_effect_blocked`). */
  sideEffects?: SideEffectGuard;
  /** Told of each target the step resolves on the live page, before acting on it (heal.ts records it). */
  found?: (element: Locator, locator: ResolvedLocator) => Promise<void>;
}

export type StepResult =
  | { status: 'passed'; locator?: ResolvedLocator }
  | { status: 'failed'; kind: FindingKind; message: string; locator?: ResolvedLocator; comparison?: Comparison };

/**
 * Runs one plan step on the page. Targets are resolved against the live page (or taken from a compiled check);
 * a target that matches nothing or several elements fails as `step_unresolvable`, an expectation that does not
 * hold as `assertion_failed`, and any step (a navigation, a click on a link) that leaves the page outside the
 * allowlist as `navigation_blocked`. Never throws for what the page does; messages never carry a typed value (a
 * failed expectation says what the page shows, a password field's value excepted: the recorder scrubs secrets).
 */
export async function runStep(page: Page, step: PlanStep, context: StepContext): Promise<StepResult> {
  let locator: ResolvedLocator | undefined;
  // Where a main-frame navigation of this step failed to go, redirects included: a tunnel the proxy refused fails the
  // load, and the page's URL then need not show where it was going (a plain-http target the proxy refused answers
  // 403, and the page's URL says it). Failures only: a listener for every request would have Playwright send each
  // one of the run's requests over to this process (bench:runs: replay p50 1.37 s with it, 1.12 s without).
  let navigatedTo: string | undefined;
  const onRequestFailed = (request: Request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigatedTo = request.url();
  };
  const blocked = () => blockedNavigation(page.url(), context.allowlist) ?? (navigatedTo === undefined ? undefined : blockedNavigation(navigatedTo, context.allowlist));
  const find = async (target: Target): Promise<Locator> => {
    if (context.locator) {
      locator = context.locator;
      const element = locatorOf(page, locator).filter({ visible: true });
      // Usually the target is there already: one call instead of a wait and a count (each is a round trip, and two
      // DOM snapshots in a traced run). Otherwise wait for it, then count again.
      let count = await element.count().catch(() => 0);
      if (count !== 1) {
        await element.first().waitFor({ state: 'visible', timeout: context.timeoutMs }).catch(() => undefined);
        count = await element.count();
      }
      if (count !== 1) throw new StepFailure('step_unresolvable', `The stored target (${describeLocator(locator)}) matches ${count} elements now, not one`);
      return element.first();
    }
    const resolution = await resolveTarget(page, step.action, target, context.timeoutMs);
    if (!resolution.found) {
      const what = `"${target.name}"`;
      throw new StepFailure(
        'step_unresolvable',
        resolution.message !== undefined
          ? resolution.message
          : resolution.reason === 'several'
          ? `${resolution.matches} elements match ${what}; say which one (for example by its label or the text around it)`
          : `Nothing on the page matches ${what} (looked for ${resolution.tried.map(describeLocator).join(', ')})${offers(resolution.candidates)}`,
      );
    }
    locator = resolution.locator;
    await context.found?.(resolution.element, resolution.locator);
    return resolution.element;
  };
  const valueOf = (value: PlanValue): string => {
    if (value.kind === 'literal') return value.text;
    const text = context.testValue(value.name);
    if (text === undefined) throw new StepFailure('step_unresolvable', `The test value "${value.name}" is not configured`);
    return text;
  };

  // A click, or a key that activates (Enter submits a field's form, Space presses a button), is checked on the
  // element it resolved to, just before it acts.
  const guard = context.sideEffects;
  const acting = guard !== undefined && (step.action === 'click' || (step.action === 'press' && /^(?:Enter|NumpadEnter|Space| )$/.test(step.key)));
  const findChecked = !acting
    ? find
    : async (target: Target): Promise<Locator> => {
        const element = await find(target);
        const blocked = await sideEffectBlocked(element, guard, nameProvenBy(locator));
        if (blocked !== undefined) throw new StepFailure('side_effect_blocked', blocked);
        return element;
      };

  page.on('requestfailed', onRequestFailed);
  try {
    await perform(page, step, context, findChecked, valueOf);
    const outside = blocked();
    return outside === undefined ? { status: 'passed', locator } : { status: 'failed', kind: 'navigation_blocked', message: outside, locator };
  } catch (error) {
    // Whatever else went wrong, the page was not where the run may test.
    const outside = blocked();
    if (outside !== undefined) return { status: 'failed', kind: 'navigation_blocked', message: outside, locator };
    if (error instanceof StepFailure) return { status: 'failed', kind: error.kind, message: error.message, locator, ...(error.comparison ? { comparison: error.comparison } : {}) };
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    return { status: 'failed', kind: 'assertion_failed', message, locator };
  } finally {
    page.off('requestfailed', onRequestFailed);
  }
}

/** ". The page offers: button "Apply", link "Cart"": what grounding saw of the kind the step wanted. */
function offers(candidates: readonly string[] | undefined): string {
  return candidates === undefined || candidates.length === 0 ? '' : `. The page offers: ${candidates.join(', ')}`;
}

async function perform(
  page: Page,
  step: PlanStep,
  context: StepContext,
  find: (target: Target) => Promise<Locator>,
  valueOf: (value: PlanValue) => string,
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
    case 'expectText':
    case 'expectTitle':
    case 'expectValue':
    case 'expectUrl':
    case 'expectState':
    case 'expectCount':
      // What an expectation compared goes into its finding (./expectations.ts).
      return checkExpectation(page, step, { timeoutMs: timeout, find, stored: context.locator });
    case 'probe':
      // Probe steps are the verifier's: the workflow calls the evidence probe, not the page.
      throw new StepFailure('probe_failed', 'Probe steps are run by the verifier, not on the page');
  }
}

/** After a click or a key that may navigate, waits for the new page to load (bounded; most clicks do not navigate). */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('load', { timeout: 5_000 }).catch(() => undefined);
}
