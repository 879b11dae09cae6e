import { describe, expect, it } from '@jest/globals';
import { isAppError } from '../../../src/core/errors.js';
import { canonicalHost, checkProbeToken, checkProbeUrl } from '../../../src/probes/probe-request.js';

function refusal(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (isAppError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('probe URL and token checks', () => {
  it('accepts an https URL whose host is allowed, exactly and case-insensitively', () => {
    expect(checkProbeUrl('https://Probe.Example:8443/orders?email=a%40b.test', ['probe.example']).href).toBe(
      'https://probe.example:8443/orders?email=a%40b.test',
    );
    expect(checkProbeUrl('https://probe.example./x', ['PROBE.EXAMPLE']).hostname).toBe('probe.example.');
    expect(checkProbeUrl('https://[::1]/x', ['0:0::1']).hostname).toBe('[::1]');
    expect(checkProbeUrl('https://127.0.0.1:9/x', ['127.0.0.1']).port).toBe('9');
  });

  it.each([
    ['evil.probe.example', 'the probe host evil.probe.example is not in the job\'s host allowlist (it has probe.example); add it to networkAllowlist'],
    ['probe.example.evil', 'the probe host probe.example.evil is not in the job\'s host allowlist (it has probe.example); add it to networkAllowlist'],
    ['example', 'the probe host example is not in the job\'s host allowlist (it has probe.example); add it to networkAllowlist'],
    ['127.0.0.1', 'the probe host 127.0.0.1 is not in the job\'s host allowlist (it has probe.example); add it to networkAllowlist'],
  ])('refuses the host %s, which is not allowed', (host, message) => {
    expect(refusal(() => checkProbeUrl(`https://${host}/probe`, ['probe.example']))).toEqual({ code: 'probe.host_not_allowed', message });
  });

  it('says so when the allowlist is empty', () => {
    expect(refusal(() => checkProbeUrl('https://probe.example/', [])).message).toContain('(it is empty)');
  });

  it('refuses other schemes, credentials and non-URLs without echoing the URL', () => {
    expect(refusal(() => checkProbeUrl('http://probe.example/secret-path', ['probe.example']))).toEqual({
      code: 'probe.not_https',
      message: 'the probe URL must use https (it uses http)',
    });
    const withCredentials = refusal(() => checkProbeUrl('https://user:pa55@probe.example/', ['probe.example']));
    expect(withCredentials.code).toBe('probe.credentials_in_url');
    expect(withCredentials.message).not.toContain('pa55');
    expect(refusal(() => checkProbeUrl('https://user@probe.example/', ['probe.example'])).code).toBe('probe.credentials_in_url');
    const relative = refusal(() => checkProbeUrl('/probe/orders?key=k3y', ['probe.example']));
    expect(relative).toEqual({ code: 'probe.invalid_url', message: 'the probe URL is not a valid absolute URL' });
  });

  it('canonicalizes hosts as a URL would', () => {
    expect(canonicalHost(' Probe.EXAMPLE. ')).toBe('probe.example');
    expect(canonicalHost('[0:0:0:0:0:0:0:1]')).toBe('::1');
    expect(canonicalHost('::FFFF:127.0.0.1')).toBe('::ffff:7f00:1');
    expect(canonicalHost('bücher.example')).toBe('xn--bcher-kva.example');
  });

  it('accepts visible-ASCII tokens and refuses empty ones or ones that would break the header, without echoing them', () => {
    expect(() => checkProbeToken('abc.DEF-123_~+/=')).not.toThrow();
    for (const token of ['', 'has space', 'line\r\nX-Injected: 1', 'tab\there', 'caf\u00e9']) {
      const refused = refusal(() => checkProbeToken(token));
      expect(refused.code).toBe('probe.invalid_token');
      if (token !== '') expect(refused.message).not.toContain(token);
    }
  });
});
