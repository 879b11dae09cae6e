/** Shared pieces of discovery's tests: fields, pages and routes written briefly, and the rule planner's verdict on a task. */
import type { CrawledPage, DiscoveredFlow, IndexedField, IndexedRoute, RepositoryIndex } from '../../../src/onboarding/model.js';
import { interpretTask } from '../../../src/planner/rule-planner.js';

/** Test values a repository configures for signing in; the planner reads "Sign in" with them. */
export const SIGN_IN_VALUES = ['demoEmail', 'demoPassword'];

export function field(label: string, type = 'text', more: Partial<IndexedField> = {}): IndexedField {
  return { name: label.toLowerCase().replace(/\W+/g, '_'), label, type, required: false, ...more };
}

export function page(path: string, title: string, more: Partial<CrawledPage> = {}): CrawledPage {
  return { path, title, links: [], forms: [], controls: [], testIds: [], ...more };
}

export function route(path: string, files: string[], more: Partial<IndexedRoute> = {}): IndexedRoute {
  return { path, framework: 'next-pages', methods: ['GET'], files, forms: [], links: [], testIds: [], dynamic: path.includes(':'), ...more };
}

export function index(routes: IndexedRoute[]): RepositoryIndex {
  return { commitSha: 'a'.repeat(40), routes, languages: {}, files: [], stats: { filesRead: 0, filesReused: 0, ms: 0 } };
}

/** 'plans' or the planner's questions, for one task. */
export function verdict(task: string): string {
  const result = interpretTask(task, { testValueNames: SIGN_IN_VALUES, evidenceCriteria: [] });
  return result.kind === 'runnable' ? 'plans' : `asks: ${result.questions.join(' | ')}`;
}

/**
 * Every task of the flows as the rule planner reads it: a flow (and its edge cases) plans, unless the flow has a real
 * side effect, whose task must ask first.
 */
export function plannerVerdicts(flows: readonly DiscoveredFlow[]): Array<{ key: string; expected: string; got: string }> {
  return flows.flatMap((flow) =>
    [{ key: flow.key, task: flow.task }, ...flow.edgeCases.map((edge) => ({ key: `${flow.key}/${edge.key}`, task: edge.task }))].map(({ key, task }) => {
      const got = verdict(task);
      // A signed-out visit opens a page and looks: it never reaches the flow's side effect.
      const reachesEffect = flow.sideEffect !== null && !key.endsWith('/signed-out-access');
      return { key, expected: reachesEffect ? 'asks' : 'plans', got: got.startsWith('asks') ? 'asks' : got };
    }),
  );
}

export const byKey = (flows: readonly DiscoveredFlow[], key: string): DiscoveredFlow => {
  const found = flows.find((flow) => flow.key === key);
  if (found === undefined) throw new Error(`no flow ${key}; the flows are ${flows.map((flow) => flow.key).join(', ')}`);
  return found;
};
