import { boundedText, FINDING_DETAIL_MAX, FINDING_TITLE_MAX, type FindingDraft } from '../core/findings.js';
import { endpointText, networkEndpointOf, type HostAllowlist } from './host-allowlist.js';

/**
 * Why a navigation that ended on `finalUrl` (after its redirects) left the run's allowed origins, or undefined when
 * it did not. The egress proxy has refused the request by then, so the page shows the proxy's refusal, not the
 * site: a step or a visit that "arrived" there did not arrive anywhere the run may test. A final URL that does not
 * leave the browser (about:blank, data:, Chromium's error page) is not judged here.
 *
 * Only the origin is named: the URL's path and query may carry tokens.
 */
export function blockedNavigation(finalUrl: string, allowlist: HostAllowlist): string | undefined {
  const endpoint = networkEndpointOf(finalUrl);
  if (endpoint === null || allowlist.allows(endpoint.host, endpoint.port)) return undefined;
  const reached = endpointText({ host: endpoint.host || new URL(finalUrl).hostname, port: endpoint.port });
  const allowed = allowlist.origins.length === 0 ? 'none' : allowlist.origins.join(', ');
  return `The navigation ended on ${reached}, which the run may not reach (allowed: ${allowed}); add it to networkAllowlist if the target really goes there`;
}

/** The same judgement as a finding of the run (the first cut's visit): [] when the navigation stayed inside. */
export function navigationBlockedFindings(requestedUrl: string, finalUrl: string, allowlist: HostAllowlist, stepIndex: number | null): FindingDraft[] {
  const reason = blockedNavigation(finalUrl, allowlist);
  if (reason === undefined) return [];
  return [{
    kind: 'navigation_blocked',
    severity: 'error',
    stepIndex,
    title: boundedText(`Opening ${requestedUrl} led outside the allowed origins`, FINDING_TITLE_MAX),
    detail: boundedText(reason, FINDING_DETAIL_MAX),
  }];
}
