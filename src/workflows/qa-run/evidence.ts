import type { Job } from '../../store/entities/job.entity.js';

/**
 * What a run keeps to show a person what happened.
 * - `stepScreenshots`: `every` step, or only a step that `failed` (or passed only by healing).
 * - `trace`: the Playwright trace `always`, or only `on-failure` (Playwright's own `retain-on-failure`): it is
 *   recorded either way, but a passing run's is discarded instead of being read, scrubbed, zipped and stored.
 * - `traceSnapshots`: whether the trace records DOM snapshots before and after each action. Without them it still
 *   holds every action with its timing, outcome and call log, and the console; not the network: Playwright (1.65)
 *   records the network of a trace only with its DOM snapshots (its `trace.network` is then empty).
 * - `traceScreencast`: whether the trace records the page's screencast (the trace viewer's filmstrip). Chromium
 *   encodes a frame whenever the page paints and every frame goes through the service's process, for the whole run,
 *   whether the trace is kept or not.
 */
export interface EvidencePolicy {
  stepScreenshots: 'every' | 'failed';
  trace: 'always' | 'on-failure';
  traceSnapshots: boolean;
  traceScreencast: boolean;
}

/** A natural-language run is how a check comes to be; a person reviews every step of it before trusting the check. */
export const FIRST_RUN_EVIDENCE: EvidencePolicy = { stepScreenshots: 'every', trace: 'always', traceSnapshots: true, traceScreencast: true };

/**
 * A replay runs a check that passed before, on every pull request and schedule, hundreds at a time: it keeps what a
 * person needs when a step fails, as Playwright Test's `only-on-failure` and `retain-on-failure` do. A passing replay
 * keeps no screenshot and no trace (its events say what each step did). A failing one keeps the failed step's
 * screenshot and the page's accessibility snapshot, which show the page, and the trace of its actions and console,
 * without DOM snapshots, the network (which Playwright records only with them) and the screencast. What the pages
 * did on the network that went wrong is in the run's findings either way: requests that failed, were blocked or
 * answered an HTTP error (browser/observation-findings.ts). bench:runs measured what each costs a passing replay of
 * six steps on the demo shop (about 200 ms for bare Playwright): the last step's screenshot about 45 ms, the trace's
 * DOM snapshots about 40 ms; the screencast about 380 ms of CPU a replay (1,259 against 871 ms of the service and its
 * browser; its renderer 231 ms against bare Playwright's 164 with it, 180 against 180 without).
 */
export const REPLAY_EVIDENCE: EvidencePolicy = { stepScreenshots: 'failed', trace: 'on-failure', traceSnapshots: false, traceScreencast: false };

export function evidencePolicyOf(job: Pick<Job, 'plan' | 'checkId'>): EvidencePolicy {
  return job.plan === null && job.checkId !== null ? REPLAY_EVIDENCE : FIRST_RUN_EVIDENCE;
}

/** Whether a step keeps a screenshot under the policy: `needsPicture` for one that failed or passed only by healing. */
export function keepsStepScreenshot(policy: EvidencePolicy, needsPicture: boolean): boolean {
  return policy.stepScreenshots === 'every' || needsPicture;
}
