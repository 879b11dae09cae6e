import type { Job } from '../../store/entities/job.entity.js';

/**
 * What a run keeps to show a person what happened.
 * - `stepScreenshots`: `every` step, or only a `failed` step and the last one run (the page the run ended on).
 * - `trace`: the Playwright trace `always`, or only `on-failure` (Playwright's own `retain-on-failure`): it is
 *   recorded either way, but a passing run's is discarded instead of being read, scrubbed, zipped and stored.
 */
export interface EvidencePolicy {
  stepScreenshots: 'every' | 'failed-and-last';
  trace: 'always' | 'on-failure';
}

/** A natural-language run is how a check comes to be; a person reviews every step of it before trusting the check. */
export const FIRST_RUN_EVIDENCE: EvidencePolicy = { stepScreenshots: 'every', trace: 'always' };

/**
 * A replay runs a check that passed before, on every pull request and schedule, hundreds at a time. When it passes,
 * its events say what each step did; when a step fails, that step's screenshot, the page's accessibility snapshot
 * and the whole trace are kept as for a first run. (bench:runs: the per-step screenshots and the trace's stop,
 * scrub and zip were most of a passing replay's cost beyond its actions.)
 */
export const REPLAY_EVIDENCE: EvidencePolicy = { stepScreenshots: 'failed-and-last', trace: 'on-failure' };

export function evidencePolicyOf(job: Pick<Job, 'plan' | 'checkId'>): EvidencePolicy {
  return job.plan === null && job.checkId !== null ? REPLAY_EVIDENCE : FIRST_RUN_EVIDENCE;
}

/** Whether step `index` of `count` keeps a screenshot under the policy. */
export function keepsStepScreenshot(policy: EvidencePolicy, index: number, count: number, failed: boolean): boolean {
  return policy.stepScreenshots === 'every' || failed || index === count - 1;
}
