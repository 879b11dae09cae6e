import { describe, expect, it } from '@jest/globals';
import { createHostAllowlist, endpointsOfEntry, networkEndpointOf, normalizeHost } from '../../../src/browser/host-allowlist.js';

describe('origin allowlist', () => {
  it("admits the target's own host on its own port only, and listed hosts on their default ports", () => {
    const allowlist = createHostAllowlist('https://Shop.Example:8443/app', ['cdn.example', 'API.example']);
    expect(allowlist.hosts).toEqual(['shop.example', 'cdn.example', 'api.example']);
    expect(allowlist.origins).toEqual(['shop.example:8443', 'cdn.example:80', 'cdn.example:443', 'api.example:80', 'api.example:443']);
    for (const host of ['shop.example', 'SHOP.EXAMPLE', 'shop.example.']) expect(allowlist.allows(host, 8443)).toBe(true);
    for (const port of [80, 443, 8080]) expect(allowlist.allows('shop.example', port)).toBe(false);
    for (const [host, port] of [['cdn.example', 80], ['cdn.example', 443], ['api.example', 443]] as const) expect(allowlist.allows(host, port)).toBe(true);
    for (const port of [8080, 8443, 3000]) expect(allowlist.allows('cdn.example', port)).toBe(false);
  });

  it("takes a URL's default port for the target when it names none", () => {
    expect(createHostAllowlist('http://127.0.0.1/', []).origins).toEqual(['127.0.0.1:80']);
    expect(createHostAllowlist('https://shop.example', []).origins).toEqual(['shop.example:443']);
    const local = createHostAllowlist('http://127.0.0.1:4150/', []);
    expect(local.allows('127.0.0.1', 4150)).toBe(true);
    // Another service on the same machine, and the QA API's default port.
    for (const port of [4159, 3000, 80]) expect(local.allows('127.0.0.1', port)).toBe(false);
  });

  it('admits a listed host:port on that port only', () => {
    const allowlist = createHostAllowlist('http://127.0.0.1:4150/', ['127.0.0.1:4159', 'Static.Example.:8080']);
    expect(allowlist.allows('127.0.0.1', 4159)).toBe(true);
    expect(allowlist.allows('static.example', 8080)).toBe(true);
    for (const port of [80, 443, 8081]) expect(allowlist.allows('static.example', port)).toBe(false);
    expect(allowlist.allows('127.0.0.1', 4158)).toBe(false);
  });

  it('reads IPv6 literals in brackets, in any spelling, with or without a port', () => {
    const allowlist = createHostAllowlist('http://[::1]:3000/', ['[0:0:0:0:0:0:0:1]:8080', '[FD00::5]']);
    expect(allowlist.origins).toEqual(['[::1]:3000', '[::1]:8080', '[fd00::5]:80', '[fd00::5]:443']);
    expect(allowlist.allows('[::1]', 3000)).toBe(true);
    expect(allowlist.allows('::1', 8080)).toBe(true);
    expect(allowlist.allows('0::1', 8080)).toBe(true);
    expect(allowlist.allows('fd00::5', 443)).toBe(true);
    expect(allowlist.allows('::1', 4000)).toBe(false);
    expect(allowlist.allows('fd00::5', 8080)).toBe(false);
  });

  it('admits no subdomain, parent domain, look-alike, other port or unparsable host', () => {
    const allowlist = createHostAllowlist('https://shop.example', ['cdn.example']);
    for (const host of ['evil.shop.example', 'example', 'shop.example.evil', 'shop-example', 'cdn.example.evil.test', '', '127.0.0.1', 'evil@shop.example', 'shop.example/x', 'shop.example:443']) {
      expect(allowlist.allows(host, 443)).toBe(false);
    }
  });

  it('ignores entries that name no host or a port out of range', () => {
    for (const entry of ['', ':80', 'a:0', 'a:65536', 'a:b', 'user@a', 'a/b', '[::1', '::1', 'a:80:90', 'http://a']) expect(endpointsOfEntry(entry)).toEqual([]);
    expect(createHostAllowlist('http://a.example/', ['a:0', 'user@127.0.0.1']).origins).toEqual(['a.example:80']);
  });

  it('normalizes hosts as a URL reads them', () => {
    expect(normalizeHost('[::1]')).toBe('::1');
    expect(normalizeHost('Example.COM.')).toBe('example.com');
    expect(normalizeHost('bücher.example')).toBe('xn--bcher-kva.example');
    expect(normalizeHost('127.1')).toBe('127.0.0.1');
    for (const bad of ['a b', 'evil.example@127.0.0.1', 'a/b', 'a:80']) expect(normalizeHost(bad)).toBe('');
  });

  it('knows where a URL leaves the browser to, with the default port of its scheme', () => {
    expect(networkEndpointOf('https://a.example/x')).toEqual({ host: 'a.example', port: 443 });
    expect(networkEndpointOf('http://A.example./x')).toEqual({ host: 'a.example', port: 80 });
    expect(networkEndpointOf('wss://live.example/socket')).toEqual({ host: 'live.example', port: 443 });
    expect(networkEndpointOf('ws://live.example:8080/socket')).toEqual({ host: 'live.example', port: 8080 });
    expect(networkEndpointOf('http://[::1]:4150/')).toEqual({ host: '::1', port: 4150 });
    expect(networkEndpointOf('data:text/plain,hi')).toBeNull();
    expect(networkEndpointOf('blob:https://a.example/uuid')).toBeNull();
    expect(networkEndpointOf('chrome-error://chromewebdata/')).toBeNull();
    expect(networkEndpointOf('not a url')).toBeNull();
  });
});
