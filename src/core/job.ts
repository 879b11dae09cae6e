/** Where a job came from (spec 4.1). */
export const JOB_TRIGGERS = ['web', 'codehost', 'chat', 'cli', 'schedule', 'system'] as const;
export type JobTrigger = (typeof JOB_TRIGGERS)[number];

/** Why a job stopped for review (spec 2.2): the questions to answer, in order, and what led to them. */
export interface Resolution {
  kind: 'needs_clarification';
  questions: string[];
  ambiguities: string[];
  assumptions: string[];
}
