import type { DataSource } from 'typeorm';
import type { ArtifactStorage } from '../../artifacts/artifact-storage.js';
import type { AccessibilityMemory } from '../../browser/accessibility-memory.js';
import type { BrowserPool } from '../../browser/browser-pool.js';
import type { CompiledCheck, CompiledStep } from '../../core/check.js';
import type { JobEventType } from '../../core/job-lifecycle.js';
import type { ProbeClient } from '../../probes/probe-client.js';
import type { RetryPolicy } from '../../queue/index.js';
import type { Planner } from '../../planner/planner.js';
import type { EvidenceProbeRef } from '../../store/entities/connected-repository.entity.js';
import type { ReadSecret } from '../test-values.js';
import type { Telemetry } from '../../core/telemetry.js';

/** What the Playwright source of a compiled check is made from: names of secrets only, never values. */
export interface SourceInput {
  name: string;
  check: CompiledCheck;
  baseUrl: string;
  testValueSecretRefs: Record<string, string>;
  evidenceProbeRefs: Record<string, EvidenceProbeRef>;
}

export interface QaRunDeps {
  dataSource: DataSource;
  browsers: BrowserPool;
  artifacts: ArtifactStorage;
  probes: ProbeClient;
  /** Runtime secrets by environment variable name (test values, probe URLs and tokens). */
  readSecret: ReadSecret;
  /** How long one plan step waits for its target or expectation. */
  stepTimeoutMs: number;
  /** The Playwright test source of a compiled check (src/checks). */
  generateSource(input: SourceInput): string;
  /** A run that takes longer is stopped and fails with a `time_limit` finding. */
  timeLimitMs: number;
  /** How often a running job looks whether it was cancelled (default 1 s). */
  cancelPollMs?: number;
  /** Called after a commit that added events to a job, with their types (an event feed in this process wakes its followers). */
  eventsWritten?: (jobId: string, written: readonly JobEventType[]) => void;
  retry?: RetryPolicy;
  /**
   * The process's memory of replays' accessibility audits: a replay does not audit again a page unchanged since
   * the last audit of it for the same check version (src/browser/accessibility-memory.ts). Without it every replay
   * audits every page.
   */
  accessibilityMemory?: AccessibilityMemory;
  /**
   * The configured planner, when it can resolve steps on the live page (the model planner): a natural-language run
   * shows it a target the rule grounding could not resolve. Replays never ask it.
   */
  planner?: Pick<Planner, 'openPageSteps'>;
  /** Counts attempts, steps and finished jobs (default: nothing). */
  telemetry?: Telemetry;
}

/** What the browser step of a run came to (a visit of the target, or a plan's steps). */
export interface VisitResult {
  verdict: 'passed' | 'failed' | 'cancelled';
  findings: number;
  errors: number;
}

export interface PlannedRunResult extends VisitResult {
  /** The steps as they ran, with their resolved locators (what the compile step keeps). */
  resolved: CompiledStep[];
  /** Steps of a replay that passed only by healing (absent in checkpoints written before healing). */
  healed?: number[];
}
