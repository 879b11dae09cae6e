/**
 * Which checks exercise which flows, from what a compiled check does: the paths its navigations open (a flow's
 * entry path, or an instance of it when the entry is a route pattern) and the controls it acts on, by the words a
 * person sees (the resolved locator's name, else the plan's target name). Pure.
 */
import type { CompiledCheck } from '../../core/check.js';
import type { CoverageLink, DiscoveredFlow } from '../model.js';
import { pathOnly, routePattern } from './route-match.js';

export interface CheckToLink {
  checkId: string;
  compiled: CompiledCheck;
}

/** What a check visits and acts on. */
export interface CheckReach {
  paths: string[];
  controls: Set<string>;
}

const ACTING = new Set(['click', 'dblclick', 'fill', 'select', 'check', 'press', 'hover', 'clear', 'upload']);
const normal = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/** A navigation's URL as a path: `/cart`, or the path of a full URL (any host: the run was bound to its own). */
function urlPath(url: string): string | undefined {
  if (url.startsWith('/')) return pathOnly(url);
  return URL.canParse(url) ? pathOnly(new URL(url).pathname) : undefined;
}

export function reachOf(compiled: CompiledCheck): CheckReach {
  const paths: string[] = [];
  const controls = new Set<string>();
  for (const { step, locator } of compiled.steps) {
    if (step.action === 'navigate') {
      const path = urlPath(step.url);
      if (path !== undefined) paths.push(path);
    }
    if (!ACTING.has(step.action)) continue;
    if (locator !== undefined && locator.name !== '') controls.add(normal(locator.name));
    if ('target' in step && step.target !== undefined && step.target.name !== '') controls.add(normal(step.target.name));
  }
  return { paths, controls };
}

function visitsEntry(flow: DiscoveredFlow, reach: CheckReach): boolean {
  const pattern = routePattern(flow.entryPath);
  return reach.paths.some((path) => pattern.test(path));
}

/** A flow's controls are used when the check acts on most of them (all of one or two), its last (the one that sends) among them. */
function usesControls(flow: DiscoveredFlow, reach: CheckReach): boolean {
  const controls = flow.controls.map(normal).filter((control) => control !== '');
  if (controls.length === 0) return false;
  const used = controls.filter((control) => reach.controls.has(control));
  return reach.controls.has(controls.at(-1)!) && used.length >= Math.min(controls.length, Math.max(1, Math.ceil(controls.length * 0.6)));
}

export function linkCoverage(input: { flows: readonly DiscoveredFlow[]; checks: readonly CheckToLink[] }): CoverageLink[] {
  const links: CoverageLink[] = [];
  for (const { checkId, compiled } of input.checks) {
    const reach = reachOf(compiled);
    for (const flow of input.flows) {
      const reasons = [...(visitsEntry(flow, reach) ? ['route'] : []), ...(usesControls(flow, reach) ? ['controls'] : [])];
      if (reasons.length > 0) links.push({ flowKey: flow.key, checkId, reason: reasons.join('+') });
    }
  }
  return links;
}
