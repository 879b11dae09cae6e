import { describe, expect, it } from '@jest/globals';
import { createHostAllowlist } from '../../../src/browser/host-allowlist.js';
import { blockedNavigation, navigationBlockedFindings } from '../../../src/browser/navigation-guard.js';

describe('navigation guard', () => {
  const allowlist = createHostAllowlist('http://127.0.0.1:4150/', ['cdn.example']);

  it('lets a navigation that ends on an allowed origin pass', () => {
    for (const url of ['http://127.0.0.1:4150/pricing', 'https://cdn.example/x', 'http://CDN.example./', 'about:blank', 'data:text/html,hi', 'chrome-error://chromewebdata/']) {
      expect([url, blockedNavigation(url, allowlist)]).toEqual([url, undefined]);
    }
  });

  it('blocks one that ends on another port of an allowed host or another host, naming only the origin', () => {
    expect(blockedNavigation('http://localhost:4159/landed?token=s3cret', allowlist)).toBe(
      'The navigation ended on localhost:4159, which the run may not reach (allowed: 127.0.0.1:4150, cdn.example:80, cdn.example:443); add it to networkAllowlist if the target really goes there',
    );
    expect(blockedNavigation('http://127.0.0.1:4159/', allowlist)).toContain('ended on 127.0.0.1:4159');
    expect(blockedNavigation('https://cdn.example:8443/', allowlist)).toContain('ended on cdn.example:8443');
    expect(blockedNavigation('http://[::1]:4150/', allowlist)).toContain('ended on [::1]:4150');
  });

  it('makes it an error finding of the run', () => {
    expect(navigationBlockedFindings('http://127.0.0.1:4150/redir', 'http://127.0.0.1:4150/ok', allowlist, null)).toEqual([]);
    expect(navigationBlockedFindings('http://127.0.0.1:4150/redir', 'http://localhost:4159/landed', allowlist, null)).toEqual([{
      kind: 'navigation_blocked',
      severity: 'error',
      stepIndex: null,
      title: 'Opening http://127.0.0.1:4150/redir led outside the allowed origins',
      detail: expect.stringContaining('ended on localhost:4159'),
    }]);
  });
});
