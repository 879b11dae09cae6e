import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { decryptSecret, encryptSecret } from '../../../src/core/token-cipher.js';

describe('token cipher', () => {
  const key = randomBytes(32);

  it('round-trips, with a fresh IV each time, and never stores the plaintext', () => {
    const first = encryptSecret(key, 'xoxb-123-secret');
    const second = encryptSecret(key, 'xoxb-123-secret');
    expect(first).not.toBe(second);
    expect(first).not.toContain('xoxb');
    expect(first).toMatch(/^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(decryptSecret(key, first)).toBe('xoxb-123-secret');
  });

  it('refuses another key, a changed ciphertext, a swapped tag and text that is not its format', () => {
    const stored = encryptSecret(key, 'xoxb-123-secret');
    expect(() => decryptSecret(randomBytes(32), stored)).toThrow(expect.objectContaining({ code: 'chat.token_unreadable' }));
    const [version, iv, tag, ciphertext] = stored.split(':');
    const flipped = Buffer.from(ciphertext!, 'base64');
    flipped[0] ^= 1;
    expect(() => decryptSecret(key, [version, iv, tag, flipped.toString('base64')].join(':'))).toThrow(expect.objectContaining({ code: 'chat.token_unreadable' }));
    const other = encryptSecret(key, 'another').split(':');
    expect(() => decryptSecret(key, [version, iv, other[2], ciphertext].join(':'))).toThrow(expect.objectContaining({ code: 'chat.token_unreadable' }));
    for (const text of ['xoxb-plaintext', 'v2:a:b:c', 'v1:short:tag:ct', '']) {
      expect(() => decryptSecret(key, text)).toThrow(expect.objectContaining({ code: 'chat.token_unreadable' }));
    }
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => encryptSecret(randomBytes(16), 'x')).toThrow(/32 bytes/);
  });
});
