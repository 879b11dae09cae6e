/**
 * A model planner's names for discovered flows, taken into the flows (issue 28: the model "may name and describe
 * flows better, never decide what runs"). Only `name`, `description` and `namedBy` change: the key (coverage links
 * and pull-request selection key on it), the task, steps, controls, files, side effect, value and edge cases stay
 * discovery's, so what a child build runs and what a pull request replays are the rules' alone. A name another flow
 * already goes by is not taken (two flows of one name could not be told apart in a coverage list or a PR comment).
 */
import type { FlowName, FlowToName } from '../../planner/planner.js';
import type { DiscoveredFlow } from '../model.js';

/** What the model is shown of each flow (the planner bounds it further). */
export function flowsToName(flows: readonly DiscoveredFlow[]): FlowToName[] {
  return flows.map((flow) => ({ key: flow.key, name: flow.name, entryPath: flow.entryPath, steps: flow.steps, controls: flow.controls, sideEffect: flow.sideEffect }));
}

export function withModelNames(flows: readonly DiscoveredFlow[], names: readonly FlowName[]): DiscoveredFlow[] {
  const byKey = new Map(names.map((named) => [named.key, named]));
  // Names as they would end: a renamed flow leaves its rule name free, a flow the model did not name keeps its own.
  const kept = new Set(flows.filter((flow) => !byKey.has(flow.key)).map((flow) => flow.name.toLowerCase()));
  return flows.map((flow) => {
    const named = byKey.get(flow.key);
    if (named === undefined || kept.has(named.name.toLowerCase())) {
      kept.add(flow.name.toLowerCase());
      return flow;
    }
    kept.add(named.name.toLowerCase());
    return { ...flow, name: named.name, ...(named.description === '' ? {} : { description: named.description }), namedBy: 'model' as const };
  });
}
