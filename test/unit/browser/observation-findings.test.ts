import { describe, expect, it } from '@jest/globals';
import { findingsFromObservations } from '../../../src/browser/observation-findings.js';
import { emptyObservations } from '../../../src/browser/page-observer.js';
import { FINDING_DETAIL_MAX, FINDING_TITLE_MAX, verdictOf } from '../../../src/core/findings.js';

describe('findings from what a page did', () => {
  it('finds nothing on a quiet page, which passes', () => {
    const findings = findingsFromObservations(emptyObservations(), null);
    expect(findings).toEqual([]);
    expect(verdictOf(findings)).toBe('passed');
  });

  it('fails on an uncaught error, a failed main document or a 5xx; warns on console errors, 4xx and blocked requests', () => {
    const observations = emptyObservations();
    observations.pageErrors.push({ message: 'boom', stack: 'Error: boom\n    at app.js:1' });
    observations.consoleErrors.push({ text: 'deprecated call', url: 'http://shop.example/' });
    observations.failedResponses.push(
      { url: 'http://shop.example/api', status: 503, method: 'GET', resourceType: 'fetch', isMainDocument: false },
      { url: 'http://shop.example/optional.js', status: 404, method: 'GET', resourceType: 'script', isMainDocument: false },
    );
    observations.blockedRequests.push({ target: 'tracker.example:443', host: 'tracker.example', method: 'CONNECT' });
    const findings = findingsFromObservations(observations, 2);
    expect(findings.map((finding) => [finding.kind, finding.severity, finding.stepIndex])).toEqual([
      ['page_error', 'error', 2],
      ['console_error', 'warning', 2],
      ['http_error', 'error', 2],
      ['http_error', 'warning', 2],
      ['request_blocked', 'warning', 2],
    ]);
    expect(verdictOf(findings)).toBe('failed');
    expect(verdictOf(findings.filter((finding) => finding.severity === 'warning'))).toBe('passed');
  });

  it('fails when the page itself answers 404', () => {
    const observations = emptyObservations();
    observations.failedResponses.push({ url: 'http://shop.example/missing', status: 404, method: 'GET', resourceType: 'document', isMainDocument: true });
    expect(findingsFromObservations(observations, null)).toEqual([expect.objectContaining({ kind: 'http_error', severity: 'error', title: 'The page answered HTTP 404' })]);
  });

  it("ignores the favicon the browser asks for by itself", () => {
    const observations = emptyObservations();
    observations.failedResponses.push({ url: 'http://shop.example/favicon.ico', status: 404, method: 'GET', resourceType: 'other', isMainDocument: false });
    expect(findingsFromObservations(observations, null)).toEqual([]);
  });

  it('reports one finding per repeated error, with a count, and one per blocked host', () => {
    const observations = emptyObservations();
    for (let i = 0; i < 50; i += 1) observations.consoleErrors.push({ text: 'same thing', url: 'http://shop.example/' });
    for (const path of ['/a.js', '/b.js', '/c.png']) observations.blockedRequests.push({ target: `http://ads.example${path}`, host: 'ads.example', method: 'GET' });
    const findings = findingsFromObservations(observations, null);
    expect(findings.map((finding) => finding.title)).toEqual([
      'Console error: same thing (50 times)',
      'Blocked 3 request(s) to ads.example, which is not in the network allowlist',
    ]);
    expect(findings[1]!.detail).toContain('http://ads.example/a.js');
  });

  it('bounds titles and details, however much a page logs', () => {
    const observations = emptyObservations();
    observations.pageErrors.push({ message: 'x'.repeat(10_000), stack: 'y'.repeat(100_000) });
    const [finding] = findingsFromObservations(observations, null);
    expect(finding!.title.length).toBe(FINDING_TITLE_MAX);
    expect(finding!.detail.length).toBe(FINDING_DETAIL_MAX);
  });
});

describe('boundedText', () => {
  it('never splits a surrogate pair', async () => {
    const { boundedText } = await import('../../../src/core/findings.js');
    const cut = boundedText(`${'a'.repeat(8)}😀😀😀`, 10);
    expect(cut).toBe(`${'a'.repeat(8)}…`);
    expect(boundedText('short', 10)).toBe('short');
  });
});
