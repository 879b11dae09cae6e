import { describe, expect, it } from '@jest/globals';
import { createHostAllowlist, networkHostOf, normalizeHost } from '../../../src/browser/host-allowlist.js';

describe('host allowlist', () => {
  it("admits the target's own host and the listed hosts, exactly and case-insensitively", () => {
    const allowlist = createHostAllowlist('https://Shop.Example:8443/app', ['cdn.example', 'API.example']);
    expect(allowlist.hosts).toEqual(['shop.example', 'cdn.example', 'api.example']);
    for (const host of ['shop.example', 'SHOP.EXAMPLE', 'shop.example.', 'cdn.example', 'api.example']) expect(allowlist.allows(host)).toBe(true);
  });

  it('admits no subdomain, parent domain, look-alike or other port trick', () => {
    const allowlist = createHostAllowlist('https://shop.example', ['cdn.example']);
    for (const host of ['evil.shop.example', 'example', 'shop.example.evil', 'shop-example', 'cdn.example.evil.test', '', '127.0.0.1']) {
      expect(allowlist.allows(host)).toBe(false);
    }
  });

  it('normalizes IPv6 literals and trailing dots', () => {
    expect(normalizeHost('[::1]')).toBe('::1');
    expect(normalizeHost('Example.COM.')).toBe('example.com');
    expect(createHostAllowlist('http://[::1]:3000/', []).allows('[::1]')).toBe(true);
  });

  it('knows which URLs leave the browser', () => {
    expect(networkHostOf('https://a.example/x')).toBe('a.example');
    expect(networkHostOf('wss://live.example/socket')).toBe('live.example');
    expect(networkHostOf('data:text/plain,hi')).toBeNull();
    expect(networkHostOf('blob:https://a.example/uuid')).toBeNull();
    expect(networkHostOf('not a url')).toBeNull();
  });
});
