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
    const flippedIv = Buffer.from(iv!, 'base64');
    flippedIv[0] ^= 1;
    const altered = [[version, flippedIv.toString('base64'), tag, ciphertext], [version, iv, tag, ciphertext, 'extra'], [version, '!!', tag, ciphertext]].map((parts) => parts.join(':'));
    for (const text of [...altered, 'xoxb-plaintext', 'v2:a:b:c', 'v1:short:tag:ct', '']) {
      expect(() => decryptSecret(key, text)).toThrow(expect.objectContaining({ code: 'chat.token_unreadable' }));
    }
  });

  it('says which setting to check and never shows the token when it cannot read one', () => {
    const stored = encryptSecret(randomBytes(32), 'xoxb-123-secret');
    let message = '';
    try {
      decryptSecret(key, stored);
    } catch (error) {
      message = String(error);
    }
    expect(message).toContain('CHAT_TOKEN_KEY');
    expect(message).not.toContain('xoxb-123-secret');
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => encryptSecret(randomBytes(16), 'x')).toThrow(/32 bytes/);
  });
});
