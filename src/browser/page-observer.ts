import type { BrowserContext, Request, Response } from 'playwright';
import { EGRESS_HEADER, unreachableReason, type EgressBlock } from './egress-proxy.js';
import { networkEndpointOf, type HostAllowlist } from './host-allowlist.js';

/** What the pages of one browser context did that a run reports on. Bounded: a noisy page cannot exhaust memory. */
export interface PageObservations {
  consoleErrors: { text: string; url: string }[];
  pageErrors: { message: string; stack: string | undefined }[];
  failedResponses: { url: string; status: number; method: string; resourceType: string; isMainDocument: boolean }[];
  failedRequests: { url: string; method: string; resourceType: string; errorText: string; isMainDocument: boolean }[];
  blockedRequests: { target: string; host: string; method: string }[];
}

export const OBSERVATIONS_PER_KIND = 200;

export function emptyObservations(): PageObservations {
  return { consoleErrors: [], pageErrors: [], failedResponses: [], failedRequests: [], blockedRequests: [] };
}

function push<T>(list: T[], item: T): void {
  if (list.length < OBSERVATIONS_PER_KIND) list.push(item);
}

const isMainDocument = (request: Request) => request.isNavigationRequest() && request.frame().parentFrame() === null;

/**
 * Chromium's own console line for every failed load; the network side reports those already (as HTTP errors,
 * failed or blocked requests), so it would only say the same thing twice.
 */
const NETWORK_CONSOLE_LINE = /^Failed to load resource: /;

/** Listens on every page of `context`, now and later. */
export function observeContext(context: BrowserContext, observations: PageObservations, allowlist: HostAllowlist): void {
  context.on('console', (message) => {
    if (message.type() !== 'error' || NETWORK_CONSOLE_LINE.test(message.text())) return;
    push(observations.consoleErrors, { text: message.text(), url: message.location().url });
  });
  context.on('weberror', (error) => {
    const thrown = error.error();
    push(observations.pageErrors, { message: thrown.message, stack: thrown.stack });
  });
  context.on('response', (response: Response) => {
    const status = response.status();
    if (status < 400) return;
    const request = response.request();
    const headers = response.headers();
    // The proxy's own answers are not the site's: refusals are recorded by the proxy, failed connections here.
    if (headers[EGRESS_HEADER] === 'blocked') return;
    const reason = unreachableReason(headers);
    if (reason !== undefined) {
      push(observations.failedRequests, {
        url: response.url(),
        method: request.method(),
        resourceType: request.resourceType(),
        errorText: `could not connect (${reason})`,
        isMainDocument: isMainDocument(request),
      });
      return;
    }
    push(observations.failedResponses, {
      url: response.url(),
      status,
      method: request.method(),
      resourceType: request.resourceType(),
      isMainDocument: isMainDocument(request),
    });
  });
  context.on('requestfailed', (request: Request) => {
    const errorText = request.failure()?.errorText ?? 'failed';
    // A tunnel the proxy refused because of the allowlist is recorded by the proxy as a blocked request.
    const endpoint = networkEndpointOf(request.url());
    if (errorText.includes('ERR_TUNNEL_CONNECTION_FAILED') && endpoint !== null && !allowlist.allows(endpoint.host, endpoint.port)) return;
    // An error status with an empty body: the response handler has reported it already.
    if (errorText.includes('ERR_HTTP_RESPONSE_CODE_FAILURE')) return;
    push(observations.failedRequests, {
      url: request.url(),
      method: request.method(),
      resourceType: request.resourceType(),
      errorText,
      isMainDocument: isMainDocument(request),
    });
  });
}

export function recordBlocked(observations: PageObservations, block: EgressBlock): void {
  push(observations.blockedRequests, block);
}
