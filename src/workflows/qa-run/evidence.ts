import type { Job } from '../../store/entities/job.entity.js';

/**
 * What a run keeps to show a person what happened.
 * - `stepScreenshots`: `every` step, or only a step that `failed` (or passed only by healing).
 * - `trace`: the Playwright trace `always`, or only `on-failure` (Playwright's own `retain-on-failure`): it is
 *   recorded either way, but a passing run's is discarded instead of being read, scrubbed, zipped and stored.
 * - `traceSnapshots`: whether the trace records DOM snapshots before and after each action. Without them it still
 *   holds every action with its timing and outcome, the network and the console.
 */
export interface EvidencePolicy {
  stepScreenshots: 'every' | 'failed';
  trace: 'always' | 'on-failure';
  traceSnapshots: boolean;
}

/** A natural-language run is how a check comes to be; a person reviews every step of it before trusting the check. */
export const FIRST_RUN_EVIDENCE: EvidencePolicy = { stepScreenshots: 'every', trace: 'always', traceSnapshots: true };

/**
 * A replay runs a check that passed before, on every pull request and schedule, hundreds at a time: it keeps what a
 * person needs when a step fails, as Playwright Test's `only-on-failure` and `retain-on-failure` do. A passing replay
 * keeps no screenshot and no trace (its events say what each step did). A failing one keeps the failed step's
 * screenshot and the page's accessibility snapshot, which show the page, and the trace of its actions, network and
 * console, without DOM snapshots. bench:runs measured what each costs a passing replay of six steps on the demo shop
 * (about 200 ms for bare Playwright): the last step's screenshot about 45 ms, the trace's DOM snapshots about 40 ms.
 */
export const REPLAY_EVIDENCE: EvidencePolicy = { stepScreenshots: 'failed', trace: 'on-failure', traceSnapshots: false };

export function evidencePolicyOf(job: Pick<Job, 'plan' | 'checkId'>): EvidencePolicy {
  return job.plan === null && job.checkId !== null ? REPLAY_EVIDENCE : FIRST_RUN_EVIDENCE;
}

/** Whether a step keeps a screenshot under the policy: `needsPicture` for one that failed or passed only by healing. */
export function keepsStepScreenshot(policy: EvidencePolicy, needsPicture: boolean): boolean {
  return policy.stepScreenshots === 'every' || needsPicture;
}
