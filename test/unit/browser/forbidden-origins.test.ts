import { describe, expect, it } from '@jest/globals';
import { createForbiddenOrigins, serviceOrigin, withoutForbidden } from '../../../src/browser/forbidden-origins.js';
import { createHostAllowlist } from '../../../src/browser/host-allowlist.js';

describe('forbidden origins', () => {
  it("names the service's own address as an origin", () => {
    expect(serviceOrigin({ host: '127.0.0.1', port: 3000 })).toBe('127.0.0.1:3000');
    expect(serviceOrigin({ host: '::', port: 3000 })).toBe('[::]:3000');
    expect(serviceOrigin({ host: '[::1]', port: 8080 })).toBe('[::1]:8080');
  });

  it('forbids a loopback address on its port in every loopback spelling, and nothing else', () => {
    const forbidden = createForbiddenOrigins(['127.0.0.1:3000'], ['10.1.2.3']);
    for (const host of ['127.0.0.1', '127.0.0.2', '127.1', 'localhost', 'LOCALHOST.', 'app.localhost', '0.0.0.0', '::1', '[::1]', '::ffff:127.0.0.1', '::ffff:7f00:1', '::']) {
      expect([host, forbidden.forbids(host, 3000)]).toEqual([host, true]);
    }
    for (const [host, port] of [['127.0.0.1', 3001], ['localhost', 80], ['10.1.2.3', 3000], ['shop.example', 3000]] as const) {
      expect([host, port, forbidden.forbids(host, port)]).toEqual([host, port, false]);
    }
  });

  it("forbids every address of this machine on the port of a wildcard listener", () => {
    for (const wildcard of ['0.0.0.0:3000', '[::]:3000']) {
      const forbidden = createForbiddenOrigins([wildcard], ['10.1.2.3', 'fe80::1']);
      for (const host of ['127.0.0.1', 'localhost', '10.1.2.3', 'fe80::1', '0.0.0.0', '::1']) expect([wildcard, host, forbidden.forbids(host, 3000)]).toEqual([wildcard, host, true]);
      expect(forbidden.forbids('10.1.2.4', 3000)).toBe(false);
      expect(forbidden.forbids('10.1.2.3', 3001)).toBe(false);
    }
  });

  it('forbids a specific address and name exactly', () => {
    const forbidden = createForbiddenOrigins(['10.1.2.3:3000', 'qa.internal:443'], ['10.1.2.3']);
    expect(forbidden.forbids('10.1.2.3', 3000)).toBe(true);
    expect(forbidden.forbids('QA.internal', 443)).toBe(true);
    expect(forbidden.forbids('127.0.0.1', 3000)).toBe(false);
    expect(forbidden.forbids('qa.internal', 80)).toBe(false);
  });

  it('takes forbidden origins out of an allowlist that names them', () => {
    const allowlist = withoutForbidden(createHostAllowlist('http://127.0.0.1:4150/', ['127.0.0.1:3000', 'localhost:3000', 'localhost:4159']), createForbiddenOrigins(['127.0.0.1:3000'], []));
    expect(allowlist.allows('127.0.0.1', 3000)).toBe(false);
    expect(allowlist.allows('localhost', 3000)).toBe(false);
    expect(allowlist.allows('127.0.0.1', 4150)).toBe(true);
    expect(allowlist.allows('localhost', 4159)).toBe(true);
    expect(allowlist.origins).toEqual(['127.0.0.1:4150', 'localhost:4159']);
  });
});
