import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a delivery's signing time may be from the server's clock, either way (replays of old deliveries). */
export const IDENTITY_SIGNATURE_TOLERANCE_MS = 5 * 60_000;

export interface IdentitySignature {
  /** Signing time, unix milliseconds. */
  t: number;
  /** The hex HMAC-SHA256 values given, one per secret the provider signed with. */
  v1: string[];
}

const MAX_V1 = 8;

/**
 * Reads `t=<unix ms>,v1=<hex>[,v1=<hex>…]`; null when it is not that shape (then the delivery is unsigned for us).
 * Unknown schemes (`v0=`, `v2=`) are ignored, as providers add schemes beside the ones a receiver knows.
 */
export function parseIdentitySignature(header: string): IdentitySignature | null {
  let t: number | undefined;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const equals = part.indexOf('=');
    if (equals <= 0) return null;
    const key = part.slice(0, equals).trim();
    const value = part.slice(equals + 1).trim();
    if (key === 't') {
      if (t !== undefined || !/^[0-9]{1,16}$/.test(value)) return null;
      t = Number(value);
    } else if (key === 'v1') {
      if (!/^[0-9a-fA-F]{64}$/.test(value)) return null;
      v1.push(value.toLowerCase());
    }
  }
  if (t === undefined || v1.length === 0 || v1.length > MAX_V1) return null;
  return { t, v1 };
}

/** Whether any `v1` is the HMAC of `<t>.<raw body>` under any secret; every comparison in constant time. */
export function identitySignatureMatches(signature: IdentitySignature, raw: Buffer, secrets: readonly string[]): boolean {
  const given = signature.v1.map((hex) => Buffer.from(hex, 'hex'));
  let matched = false;
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(`${signature.t}.`).update(raw).digest();
    // No early exit: how long the check takes says nothing about which secret or value came close.
    for (const candidate of given) if (timingSafeEqual(candidate, expected)) matched = true;
  }
  return matched;
}

/** Whether the signing time is within the tolerance of `now`, either way. */
export function signatureFresh(signature: IdentitySignature, now: Date): boolean {
  return Math.abs(now.getTime() - signature.t) <= IDENTITY_SIGNATURE_TOLERANCE_MS;
}
