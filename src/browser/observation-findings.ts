import { boundedText, FINDING_DETAIL_MAX, FINDING_TITLE_MAX, severityOfHttpStatus, type FindingDraft } from '../core/findings.js';
import type { PageObservations } from './page-observer.js';

/** Groups by `key`, keeping the first item and a count, in first-seen order: a page that logs one error 500 times is one finding. */
function grouped<T>(items: readonly T[], key: (item: T) => string): { first: T; count: number }[] {
  const groups = new Map<string, { first: T; count: number }>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.count += 1;
    else groups.set(key(item), { first: item, count: 1 });
  }
  return [...groups.values()];
}

const times = (count: number) => (count > 1 ? ` (${count} times)` : '');

function finding(draft: Omit<FindingDraft, 'title' | 'detail'> & { title: string; detail: string }): FindingDraft {
  return { ...draft, title: boundedText(draft.title, FINDING_TITLE_MAX), detail: boundedText(draft.detail, FINDING_DETAIL_MAX) };
}

/**
 * The findings a page's observations amount to. Uncaught page errors and failed main documents or 5xx responses
 * fail the run; console errors, 4xx subresources, failed subrequests and blocked requests are warnings.
 */
export function findingsFromObservations(observations: PageObservations, stepIndex: number | null): FindingDraft[] {
  const findings: FindingDraft[] = [];
  for (const { first, count } of grouped(observations.pageErrors, (error) => error.message)) {
    findings.push(finding({ kind: 'page_error', severity: 'error', stepIndex, title: `Uncaught error on the page: ${first.message}${times(count)}`, detail: first.stack ?? first.message }));
  }
  for (const { first, count } of grouped(observations.consoleErrors, (error) => error.text)) {
    findings.push(finding({ kind: 'console_error', severity: 'warning', stepIndex, title: `Console error: ${first.text}${times(count)}`, detail: `${first.text}\nat ${first.url || 'the page'}` }));
  }
  for (const { first, count } of grouped(observations.failedResponses, (response) => `${response.status} ${response.method} ${response.url}`)) {
    // Chromium asks every site for /favicon.ico by itself; a site without one is not broken.
    if (first.status === 404 && !first.isMainDocument && new URL(first.url).pathname === '/favicon.ico') continue;
    const severity = severityOfHttpStatus(first.status, first.isMainDocument);
    if (severity === null) continue;
    const what = first.isMainDocument ? 'The page' : `A ${first.resourceType} request`;
    findings.push(finding({ kind: 'http_error', severity, stepIndex, title: `${what} answered HTTP ${first.status}${times(count)}`, detail: `${first.method} ${first.url} → ${first.status}` }));
  }
  for (const { first, count } of grouped(observations.failedRequests, (request) => `${request.errorText} ${request.url}`)) {
    const what = first.isMainDocument ? 'The page could not be loaded' : `A ${first.resourceType} request failed`;
    findings.push(finding({ kind: first.isMainDocument ? 'navigation_failed' : 'http_error', severity: first.isMainDocument ? 'error' : 'warning', stepIndex, title: `${what}: ${first.errorText}${times(count)}`, detail: `${first.method} ${first.url}: ${first.errorText}` }));
  }
  for (const { first, count } of grouped(observations.blockedRequests, (block) => block.host)) {
    findings.push(finding({
      kind: 'request_blocked',
      severity: 'warning',
      stepIndex,
      title: `Blocked ${count} request(s) to ${first.host || 'an unparsable host'}, which is not in the network allowlist`,
      detail: `First: ${first.method} ${first.target}. Add ${first.host || 'the host'} to networkAllowlist if the page needs it (a host without a port allows ports 80 and 443 only).`,
    }));
  }
  return findings;
}
