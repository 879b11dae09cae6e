import { describe, expect, it } from '@jest/globals';
import { identitySignatureMatches, parseIdentitySignature, signatureFresh } from '../../../src/webhooks/identity/identity-signature.js';
import { identitySignatureV1, signIdentityDelivery } from '../../support/identity-deliveries.js';

const body = '{"id":"e","event":"user.created","data":{},"created_at":"2026-12-01T10:00:00Z"}';
const t = 1_796_000_000_000;

describe('identity signatures', () => {
  it('reads t and every v1, ignoring other schemes', () => {
    const v1 = identitySignatureV1('s', body, t);
    expect(parseIdentitySignature(`t=${t},v0=abc,v1=${v1},v1=${v1.toUpperCase()}`)).toEqual({ t, v1: [v1, v1] });
  });

  it('refuses headers that are not t=…,v1=…', () => {
    for (const header of ['', `t=${t}`, `v1=${'a'.repeat(64)}`, `t=abc,v1=${'a'.repeat(64)}`, `t=${t},t=${t},v1=${'a'.repeat(64)}`, `t=${t},v1=${'a'.repeat(63)}`, `t=${t};v1=${'a'.repeat(64)}`]) {
      expect(parseIdentitySignature(header)).toBeNull();
    }
  });

  it('matches when any v1 is the HMAC of "<t>.<body>" under any secret', () => {
    const signature = parseIdentitySignature(signIdentityDelivery(['old', 'new'], body, t))!;
    expect(identitySignatureMatches(signature, Buffer.from(body), ['new'])).toBe(true);
    expect(identitySignatureMatches(signature, Buffer.from(body), ['other', 'old'])).toBe(true);
    expect(identitySignatureMatches(signature, Buffer.from(body), ['other'])).toBe(false);
    expect(identitySignatureMatches(signature, Buffer.from(`${body} `), ['new'])).toBe(false);
    expect(identitySignatureMatches({ ...signature, t: t + 1 }, Buffer.from(body), ['new'])).toBe(false);
  });

  it('is fresh within 5 minutes either way', () => {
    const signature = { t, v1: [] };
    expect(signatureFresh(signature, new Date(t + 5 * 60_000))).toBe(true);
    expect(signatureFresh(signature, new Date(t - 5 * 60_000))).toBe(true);
    expect(signatureFresh(signature, new Date(t + 5 * 60_000 + 1))).toBe(false);
    expect(signatureFresh(signature, new Date(t - 5 * 60_000 - 1))).toBe(false);
  });
});
