import type { BrowserSession } from '../../browser/browser-pool.js';
import { EGRESS_HEADER } from '../../browser/egress-proxy.js';
import { navigationBlockedFindings } from '../../browser/navigation-guard.js';
import { boundedText, type FindingDraft } from '../../core/findings.js';

export interface Navigation {
  url: string;
  status: number | null;
  title: string;
  findings: FindingDraft[];
}

/**
 * Goes to the target and waits for it to settle (network quiet for a moment, bounded), so late console errors and
 * requests are seen. A target that cannot be reached is a finding of the run, not a failure of the worker.
 */
export async function navigate(session: BrowserSession, url: string): Promise<Navigation> {
  try {
    const response = await session.page.goto(url, { waitUntil: 'load' });
    await session.page.waitForLoadState('networkidle', { timeout: 2_000 }).catch(() => undefined);
    // An answer of the egress proxy (a failed connection) is no status of the site's; the observer reports it.
    const status = response && response.headers()[EGRESS_HEADER] === undefined ? response.status() : null;
    const findings = navigationBlockedFindings(url, session.page.url(), session.allowlist, null);
    return { url: session.page.url(), status, title: await session.page.title().catch(() => ''), findings };
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    // The observer saw the main document fail (no connection, an error status) and says why more exactly; this
    // finding covers what never produced a response or a network error (a timeout, an aborted navigation).
    const { failedRequests, failedResponses } = session.observations;
    const seen = failedRequests.some((request) => request.isMainDocument) || failedResponses.some((response) => response.isMainDocument);
    return {
      url,
      status: null,
      title: '',
      findings: seen
        ? []
        : [{ kind: 'navigation_failed', severity: 'error', stepIndex: null, title: boundedText(`Could not open ${url}`, 300), detail: boundedText(message, 4_000) }],
    };
  }
}
