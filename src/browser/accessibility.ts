import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AxeBuilder } from '@axe-core/playwright';
import type { CDPSession, Page } from 'playwright';
import { AppError, ErrorCode } from '../core/errors.js';
import { boundedText, type FindingDraft, type FindingSeverity } from '../core/findings.js';
import { accessibilityFindings, type AuditedPage, type AxeViolation } from './accessibility-findings.js';
import type { AccessibilityMemory } from './accessibility-memory.js';
import { PAGE_DIGEST_SCRIPT, pageDigestOf } from './page-digest.js';

export interface AccessibilityAuditOptions {
  /** How long one page's audit may take (axe needs ~0.3–1 s on an ordinary page); then it is given up. Default 10 s. */
  timeoutMs?: number;
  /**
   * Severity of every accessibility finding. Default `warning`: reported, but a functional check does not fail
   * because of it. An operator who wants accessibility to gate a run passes `error`.
   */
  severity?: FindingSeverity;
  /** How many elements a finding lists (all are counted). Default 5. */
  nodesListed?: number;
  /**
   * Default true: axe also audits cross-origin iframes, aggregating the frames' results in a blank page it opens
   * in the page's context for the duration of the audit. False runs axe's legacy mode: no extra page and about
   * twice as fast, but cross-origin iframes go unaudited. Legacy mode is run here as @axe-core/playwright runs it
   * (axe in every frame, `axe.run` in the top one), with one `evaluate` per frame instead of about six: each
   * evaluate is a round trip, and in a traced context two DOM snapshots and, for the injecting ones, a copy of axe.
   * https://github.com/dequelabs/axe-core-npm/blob/develop/packages/playwright/README.md#axebuildersetlegacymodelegacymode-boolean--true
   */
  crossOriginFrames?: boolean;
  /**
   * Where audits are remembered between runs, and under what (a replay's check and version): a page whose digest
   * (page-digest.ts) is the one audited last in `scope` is not audited again, its violations are reused. Without
   * it every page is audited. A page with frames is always audited (the digest covers the top document only).
   */
  memory?: { store: AccessibilityMemory; scope: string };
}

/**
 * One run's accessibility audit: axe on the pages the run visits, serious and critical violations only, each rule
 * on each element of each page reported once per run. Calls are made one at a time (a run's steps are sequential).
 */
export interface AccessibilityAudit {
  /** Audits the page's current document; the findings not reported before in this run. Never throws: see `lastError`. */
  audit(page: Page, stepIndex: number | null): Promise<FindingDraft[]>;
  /** `audit`, unless this page (origin and path) was audited already in this run; then [] at no cost. */
  auditNewPage(page: Page, stepIndex: number | null): Promise<FindingDraft[]>;
  /**
   * Opens the page's DevTools session (the audits go through it) in the background, so that the first audit, after
   * the run's first step, does not wait for it: call it before the steps. A session that fails to open is opened
   * again by the first audit.
   */
  prepare(page: Page): void;
  /** Pages audited so far as origin + path (no query, no fragment), in order. A page whose audit failed is not among them. */
  auditedPages(): readonly string[];
  /** Those of `auditedPages` whose violations came from `memory` (axe did not run on them in this run). */
  reusedPages(): readonly string[];
  /**
   * Why the latest call returned [] without auditing, for the caller to log: `accessibility.audit_timeout` or
   * `accessibility.audit_failed` (the page navigated or closed mid-audit, or axe could not be injected).
   * Undefined when the latest call audited or had nothing to audit (a non-HTTP page such as about:blank).
   */
  readonly lastError: AppError | undefined;
}


/** The page a URL shows, or undefined for a document that is not a web page (about:blank, data:, chrome-error:). */
export function auditedPageOf(url: string): AuditedPage | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  return { key: `${parsed.origin}${parsed.pathname}`, path: parsed.pathname };
}

export function createAccessibilityAudit(options: AccessibilityAuditOptions = {}): AccessibilityAudit {
  const settings = {
    timeoutMs: options.timeoutMs ?? 10_000,
    severity: options.severity ?? 'warning',
    nodesListed: options.nodesListed ?? 5,
    crossOriginFrames: options.crossOriginFrames ?? true,
  };
  const reported = new Set<string>();
  const audited: string[] = [];
  const reused: string[] = [];
  let lastError: AppError | undefined;
  // Audits in legacy mode and not are remembered apart: they can differ (cross-origin frames).
  const memory = options.memory && { ...options.memory, scope: JSON.stringify([options.memory.scope, settings.crossOriginFrames]) };

  async function audit(page: Page, stepIndex: number | null): Promise<FindingDraft[]> {
    lastError = undefined;
    const target = auditedPageOf(page.url());
    if (!target) return [];
    const outcome = memory ? await analyzeOrRecall(page, target, memory) : await analyze(page, settings.timeoutMs, settings.crossOriginFrames);
    // A page too slow to audit is not tried again on every step; one that failed (it navigated, say) is.
    if (outcome.status !== 'failed' && !audited.includes(target.key)) audited.push(target.key);
    if (outcome.status === 'done' && outcome.reused && !reused.includes(target.key)) reused.push(target.key);
    if (outcome.status !== 'done') {
      lastError = auditError(outcome, target.path, settings.timeoutMs);
      return [];
    }
    const { findings, reportedKeys } = accessibilityFindings(outcome.violations, target, stepIndex, reported, settings);
    for (const key of reportedKeys) reported.add(key);
    return findings;
  }

  /**
   * The violations remembered for a page with this digest, or axe's. What axe found is remembered only when the page
   * had the same digest after the audit as before: a page that changed meanwhile may have been read half and half.
   */
  async function analyzeOrRecall(page: Page, target: AuditedPage, { store, scope }: NonNullable<typeof memory>): Promise<Analysis> {
    const digest = page.frames().length === 1 ? await digestOf(page, settings.timeoutMs) : undefined;
    const remembered = digest === undefined ? undefined : store.recall(scope, target.key, digest);
    if (remembered) return { status: 'done', violations: [...remembered], reused: true };
    const outcome = await analyze(page, settings.timeoutMs, settings.crossOriginFrames);
    if (outcome.status === 'done' && digest !== undefined && page.frames().length === 1 && (await digestOf(page, settings.timeoutMs)) === digest) {
      store.remember(scope, target.key, digest, outcome.violations);
    }
    return outcome;
  }

  return {
    audit,
    async auditNewPage(page, stepIndex) {
      const target = auditedPageOf(page.url());
      if (target && audited.includes(target.key)) {
        lastError = undefined;
        return [];
      }
      return audit(page, stepIndex);
    },
    prepare(page) {
      void sessionOf(page).catch(() => undefined);
    },
    auditedPages: () => [...audited],
    reusedPages: () => [...reused],
    get lastError() {
      return lastError;
    },
  };
}

/**
 * @axe-core/playwright, loaded on the first audit that needs it: it loads Playwright with it (about 0.25 s of CPU
 * beyond what the process has loaded), which a process that never audits (`qa serve`) should not pay.
 */
async function axeBuilder(): Promise<typeof AxeBuilder> {
  return (await import('@axe-core/playwright')).AxeBuilder;
}

let minifiedAxe: Promise<string | undefined> | undefined;

/**
 * axe-core's minified build, read once per process from the copy @axe-core/playwright depends on. The package
 * injects the unminified one (1.5 MB instead of 0.65 MB) into every audited document, and a Playwright trace keeps
 * every injected copy. Undefined (use the package's own) if it cannot be read.
 */
function axeSource(): Promise<string | undefined> {
  minifiedAxe ??= (async () => {
    const fromAxePlaywright = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'));
    return readFile(fromAxePlaywright.resolve('axe-core/axe.min.js'), 'utf8');
  })().catch(() => undefined);
  return minifiedAxe;
}

type Analysis = { status: 'done'; violations: AxeViolation[]; reused?: boolean } | { status: 'timeout' } | { status: 'failed'; error: unknown };

/** Only violations are read; the other groups would carry every passing node across the wire. */
const RUN_OPTIONS: Parameters<AxeBuilder['options']>[0] = { resultTypes: ['violations'] };
/** What @axe-core/playwright configures in legacy mode: frames are reached through axe's same-origin messenger. */
const LEGACY_CONFIGURE = `;axe.configure({ allowedOrigins: ['<same_origin>'], branding: { application: 'playwright' } });`;
/** Loads axe into a document and configures it as @axe-core/playwright does, returning nothing over the wire. */
const loadAxe = (source: string) => `${source}\n${LEGACY_CONFIGURE}\nvoid 0;`;
/** How long a child frame may take to load axe before it is left out, as @axe-core/playwright allows. */
const FRAME_INJECT_MS = 1_000;

/**
 * `axe.run` on the top document with only the rules that can report a serious or critical violation: a rule's
 * impact is the highest of its own and its checks' (axe's rule and check metadata), and nothing below serious is
 * reported (accessibility-findings.ts), so the other rules' work would be thrown away. axe runs rules listed in
 * `runOnly` even when they are off by default, so those stay out. Should axe's internals ever look different, every
 * rule runs, as `axe.run` would choose them.
 */
const RUN_REPORTED_RULES = `(() => {
  const reported = { serious: true, critical: true };
  let rules;
  try {
    const audit = axe._audit;
    const impactOf = (check) => (audit.data.checks[typeof check === 'string' ? check : check.id] || {}).impact;
    rules = audit.rules
      .filter((rule) => rule.enabled !== false && (reported[rule.impact] || [...rule.any, ...rule.all, ...rule.none].some((check) => reported[impactOf(check)])))
      .map((rule) => rule.id);
  } catch {
    rules = undefined;
  }
  const options = rules && rules.length > 0 ? { ...${JSON.stringify(RUN_OPTIONS)}, runOnly: { type: 'rule', values: rules } } : ${JSON.stringify(RUN_OPTIONS)};
  return axe.run(document, options).then((results) => ({ violations: results.violations }), (error) => ({ error: String((error && error.message) || error) }));
})()`;

/** The DevTools session through which axe's source reaches a page, one per page, made on its first audit. */
const sessions = new WeakMap<Page, Promise<CDPSession>>();

function sessionOf(page: Page): Promise<CDPSession> {
  let session = sessions.get(page);
  if (!session) {
    session = page.context().newCDPSession(page);
    sessions.set(page, session);
    session.catch(() => sessions.delete(page));
  }
  return session;
}

/**
 * Evaluates axe's source in the page's top document through a DevTools session of its own rather than
 * `page.evaluate`: Playwright's trace records every `evaluate` with its expression, so each audit would add a
 * 0.65 MB copy of axe to the trace, and the trace's writing, zipping and scrubbing would handle it (about 0.2 s of a
 * six-step run). The run itself (`RUN_REPORTED_RULES`) stays a traced action.
 */
async function injectIntoTopDocument(page: Page, source: string): Promise<void> {
  const session = await sessionOf(page);
  const { exceptionDetails } = await session.send('Runtime.evaluate', { expression: loadAxe(source), returnByValue: true });
  if (exceptionDetails) throw new Error(`axe could not be loaded into the page: ${exceptionDetails.exception?.description?.split('\n')[0] ?? exceptionDetails.text}`);
}

/**
 * The page's digest (page-digest.ts), read through the same DevTools session as axe's source: the trace would keep
 * a traced `evaluate`'s result, a copy of the whole page. Undefined when the page cannot be digested or read in
 * `timeoutMs` (it navigated or closed, or its main thread is busy): it is then audited, as without memory.
 */
async function digestOf(page: Page, timeoutMs: number): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const reading = sessionOf(page)
    .then((session) => session.send('Runtime.evaluate', { expression: PAGE_DIGEST_SCRIPT, returnByValue: true }))
    .then(({ result, exceptionDetails }) => (exceptionDetails ? undefined : pageDigestOf(result.value)))
    .catch(() => undefined);
  const slow = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs)));
  try {
    return await Promise.race([reading, slow]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * axe's legacy mode: axe and its configuration into every child frame (a frame that fails or is slow is skipped, as
 * @axe-core/playwright does; axe's messenger then times out on it), then into the top document, then `axe.run` there
 * with the rules that can report what is kept. The same audit as `AxeBuilder#setLegacyMode().analyze()`, in one
 * evaluate per frame and one traced call.
 */
async function analyzeLegacy(page: Page, source: string): Promise<AxeViolation[]> {
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    let timer: NodeJS.Timeout | undefined;
    const slow = new Promise<void>((resolve) => (timer = setTimeout(resolve, FRAME_INJECT_MS)));
    await Promise.race([frame.evaluate(loadAxe(source)).catch(() => undefined), slow]);
    clearTimeout(timer);
  }
  await injectIntoTopDocument(page, source);
  const outcome = (await page.evaluate(RUN_REPORTED_RULES)) as { violations: AxeViolation[] } | { error: string };
  if ('error' in outcome) throw new Error(outcome.error);
  return outcome.violations;
}

/** axe on the page, given up after `timeoutMs` (the page-side run is left to finish or die with the page). */
async function analyze(page: Page, timeoutMs: number, crossOriginFrames: boolean): Promise<Analysis> {
  let timer: NodeJS.Timeout | undefined;
  const running: Promise<Analysis> = axeSource()
    .then((source) =>
      !crossOriginFrames && source !== undefined
        ? analyzeLegacy(page, source)
        : axeBuilder().then((Builder) =>
            new Builder({ page, ...(source === undefined ? {} : { axeSource: source }) })
              .setLegacyMode(!crossOriginFrames)
              .options(RUN_OPTIONS)
              .analyze()
              .then((results) => results.violations),
          ),
    )
    .then(
      (violations): Analysis => ({ status: 'done', violations }),
      (error: unknown): Analysis => ({ status: 'failed', error }),
    );
  const timeout = new Promise<Analysis>((resolve) => {
    timer = setTimeout(() => resolve({ status: 'timeout' }), timeoutMs);
  });
  try {
    return await Promise.race([running, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function auditError(outcome: Exclude<Analysis, { status: 'done' }>, path: string, timeoutMs: number): AppError {
  if (outcome.status === 'timeout') {
    return new AppError({
      kind: 'operational',
      code: ErrorCode.AccessibilityAuditTimeout,
      message: `The accessibility audit of ${path} did not finish within ${timeoutMs / 1000} s, so that page was not checked; it is not tried again in this run.`,
      details: { path, timeoutMs },
    });
  }
  // Playwright's messages carry a multi-line call log; the first line says what happened.
  const reason = boundedText((outcome.error instanceof Error ? outcome.error.message : String(outcome.error)).split('\n')[0], 300);
  return new AppError({
    kind: 'operational',
    code: ErrorCode.AccessibilityAuditFailed,
    message: `The accessibility audit of ${path} could not run (${reason}), so that page was not checked; this happens when the page navigates or closes during the audit.`,
    details: { path },
    cause: outcome.error,
  });
}
