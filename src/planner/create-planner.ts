/** The planner `PLANNER` chooses: the built-in rule planner, or an OpenAI-compatible model behind the same policy. */
import type { PlannerConfig } from '../config.js';
import { createOpenAiPlanner } from './openai-planner.js';
import type { Planner } from './planner.js';
import { createRulePlanner } from './rule-planner.js';

export function createPlanner(config: PlannerConfig): Planner {
  if (config.kind === 'rule') return createRulePlanner();
  return createOpenAiPlanner({ url: config.url, model: config.model, apiKey: config.apiKey, timeoutMs: config.timeoutMs });
}
