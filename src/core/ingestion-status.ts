import type { Capability } from './execution.js';

/** An ingestion run's statuses: `waiting` while live or AI execution is paused for a step that needs it. */
export const INGESTION_STATUSES = ['queued', 'running', 'waiting', 'succeeded', 'failed'] as const;
export type IngestionStatus = (typeof INGESTION_STATUSES)[number];

export const isIngestionOver = (status: string): boolean => status === 'succeeded' || status === 'failed';

/** The named steps, in order. */
export const ONBOARDING_STEPS = ['fetch', 'index', 'discover', 'coverage', 'build'] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

/** What each step needs switched on: crawling drives a browser and discovery may ask the planner; builds run jobs. */
export const STEP_NEEDS: Record<OnboardingStep, Capability[]> = {
  fetch: [],
  index: [],
  discover: ['live', 'ai'],
  coverage: [],
  build: ['live', 'ai'],
};

/** What an ingestion found so far; each step adds its own. */
export interface IngestionCounts {
  files?: number;
  filesRead?: number;
  filesReused?: number;
  routes?: number;
  pages?: number;
  flows?: number;
  edgeCases?: number;
  coveredFlows?: number;
  builds?: number;
  buildsPassed?: number;
  buildsFailed?: number;
}

/** The kinds of event an ingestion run's history holds. */
export const INGESTION_EVENT_TYPES = [
  'ingestion.started',
  'step.started',
  /** A step that started before and did not finish (a crash, a lock taken over) starts again. */
  'step.resumed',
  'step.finished',
  /** Fetch runs again after a crash in fetch+index (one unit: its folder does not survive); it finished once before. */
  'step.repeated',
  'revision.pinned',
  'crawl.finished',
  'ingestion.waiting',
  'ingestion.continued',
  'build.started',
  'build.finished',
  'attempt.failed',
  'ingestion.succeeded',
  'ingestion.failed',
] as const;
export type IngestionEventType = (typeof INGESTION_EVENT_TYPES)[number];
