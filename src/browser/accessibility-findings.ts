import { boundedText, FINDING_DETAIL_MAX, FINDING_TITLE_MAX, type FindingDraft, type FindingSeverity } from '../core/findings.js';

/**
 * The part of an axe result this module reads (axe-core's `Result` and `NodeResult` fit it). A node's target is a
 * list of selectors, one per frame from the top document down; a part that is itself a list crosses shadow roots.
 */
export interface AxeNode {
  target: readonly unknown[];
  html: string;
  impact?: string | null;
  failureSummary?: string;
}
export interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  helpUrl: string;
  nodes: readonly AxeNode[];
}

/** What a run reports, most severe first; axe's `moderate` and `minor` are left out (issue 4). */
export const REPORTED_IMPACTS = ['critical', 'serious'] as const;
export type ReportedImpact = (typeof REPORTED_IMPACTS)[number];

/** The page a result is about: `key` tells pages apart (origin and path), `path` is what a person reads. */
export interface AuditedPage {
  key: string;
  path: string;
}

export interface AccessibilityFindingOptions {
  severity: FindingSeverity;
  /** How many nodes a finding lists; the count covers them all. */
  nodesListed: number;
}

export interface AccessibilityFindings {
  findings: FindingDraft[];
  /** Keys of what these findings report; pass them back as `reported` so the run reports each once. */
  reportedKeys: string[];
}

const NODE_TARGET_MAX = 200;
const NODE_HTML_MAX = 240;
const FAILURE_SUMMARY_MAX = 800;

/** Frames joined by ` >> `, shadow roots by ` >>> `: `iframe#pay >> form >>> input`. */
export function targetText(target: readonly unknown[]): string {
  const part = (selector: unknown): string => (Array.isArray(selector) ? selector.map(part).join(' >>> ') : String(selector));
  return target.map(part).join(' >> ');
}

/**
 * The keys of one rule on one element of one page: its selector and its markup. axe picks the shortest unique
 * selector, so an element's selector changes when the page gains a similar element (`input` becomes
 * `input[name="nickname"]`); its markup changes when its attributes or text do. An element matching a reported
 * one by either is taken to be that one.
 */
export function findingKeys(page: AuditedPage, ruleId: string, node: AxeNode): { target: string; html: string } {
  return {
    target: JSON.stringify([page.key, ruleId, 'target', targetText(node.target)]),
    html: JSON.stringify([page.key, ruleId, 'html', node.html]),
  };
}

function impactOf(node: AxeNode, violation: AxeViolation): ReportedImpact | undefined {
  const impact = node.impact ?? violation.impact;
  return REPORTED_IMPACTS.find((reported) => reported === impact);
}

/**
 * Turns axe's violations on one page into findings: one per rule, listing the serious and critical nodes not
 * reported before in this run (`reported`; see findingKeys), critical rules first. A rule whose nodes were all
 * reported before gives nothing. Pure: the caller keeps `reported` and adds `reportedKeys` to it.
 */
export function accessibilityFindings(
  violations: readonly AxeViolation[],
  page: AuditedPage,
  stepIndex: number | null,
  reported: ReadonlySet<string>,
  options: AccessibilityFindingOptions,
): AccessibilityFindings {
  const findings: { impact: ReportedImpact; draft: FindingDraft }[] = [];
  const added = new Set<string>();
  for (const violation of violations) {
    const fresh: AxeNode[] = [];
    let impact: ReportedImpact | undefined;
    for (const node of violation.nodes) {
      const nodeImpact = impactOf(node, violation);
      const keys = findingKeys(page, violation.id, node);
      // Within one audit only the selector tells elements apart: identical fields all count.
      if (!nodeImpact || reported.has(keys.target) || reported.has(keys.html) || added.has(keys.target)) continue;
      added.add(keys.target).add(keys.html);
      fresh.push(node);
      if (impact !== 'critical') impact = nodeImpact;
    }
    if (!impact) continue;
    findings.push({ impact, draft: draftOf(violation, fresh, impact, page, stepIndex, options) });
  }
  findings.sort((a, b) => REPORTED_IMPACTS.indexOf(a.impact) - REPORTED_IMPACTS.indexOf(b.impact));
  return { findings: findings.map((finding) => finding.draft), reportedKeys: [...added] };
}

function draftOf(
  violation: AxeViolation,
  nodes: readonly AxeNode[],
  impact: ReportedImpact,
  page: AuditedPage,
  stepIndex: number | null,
  options: AccessibilityFindingOptions,
): FindingDraft {
  const count = nodes.length;
  const elements = `${count} element${count === 1 ? '' : 's'}`;
  const listed = nodes.slice(0, options.nodesListed).map(
    (node) => `- ${boundedText(targetText(node.target), NODE_TARGET_MAX)}\n  ${boundedText(node.html.replace(/\s+/g, ' '), NODE_HTML_MAX)}`,
  );
  const more = count > listed.length ? [`… and ${count - listed.length} more`] : [];
  const summary = nodes[0]?.failureSummary ? [boundedText(nodes[0].failureSummary, FAILURE_SUMMARY_MAX)] : [];
  const detail = [
    `axe rule ${violation.id} (${impact}): ${violation.help}`,
    violation.helpUrl,
    `${elements} on ${page.path}:`,
    ...listed,
    ...more,
    ...summary,
  ].join('\n');
  return {
    kind: 'accessibility',
    severity: options.severity,
    stepIndex,
    title: boundedText(`Accessibility (${impact}): ${violation.help} on ${page.path}${count > 1 ? ` (${elements})` : ''}`, FINDING_TITLE_MAX),
    detail: boundedText(detail, FINDING_DETAIL_MAX),
  };
}
