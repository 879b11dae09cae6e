/** The planner `PLANNER` chooses: the built-in rule planner, or an OpenAI-compatible model behind the same policy. */
import { createOpenAiPlanner } from './openai-planner.js';
import type { Telemetry } from '../core/telemetry.js';
import type { Planner } from './planner.js';
import { createRulePlanner } from './rule-planner.js';

/** Which planner reads tasks: the built-in rule planner, or an OpenAI-compatible chat-completions endpoint. */
export type PlannerSettings =
  | { readonly kind: 'rule' }
  | {
      readonly kind: 'openai';
      /** The API base (e.g. https://api.openai.com/v1), without a trailing slash; `/chat/completions` is appended. */
      readonly url: string;
      readonly model: string;
      /** Sent as `Authorization: Bearer`; never shown in an error, a log line or an event. */
      readonly apiKey: string;
      /** Per request to the model. */
      readonly timeoutMs: number;
    };

export function createPlanner(config: PlannerSettings, telemetry?: Telemetry): Planner {
  if (config.kind === 'rule') return createRulePlanner();
  return createOpenAiPlanner({ url: config.url, model: config.model, apiKey: config.apiKey, timeoutMs: config.timeoutMs, telemetry });
}
