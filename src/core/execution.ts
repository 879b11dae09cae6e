import { AppError, ErrorCode } from './errors.js';

/**
 * What a piece of work needs switched on. `live`: anything that drives a browser against a customer's app.
 * `ai`: anything that needs the planner. Replaying a stored check needs only `live`.
 */
export const CAPABILITIES = ['live', 'ai'] as const;
export type Capability = (typeof CAPABILITIES)[number];

const LABEL: Record<Capability, string> = { live: 'Live execution', ai: 'AI execution' };

/** The 503 for work whose capability an operator has paused (`qa flags pause live|ai`). */
export function pausedError(capability: Capability): AppError {
  return new AppError({
    kind: 'operational',
    code: ErrorCode.ExecutionPaused,
    status: 503,
    message: `${LABEL[capability]} is paused; try again once an operator resumes it`,
    details: { capability },
  });
}
