import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { AppError, ErrorCode } from './errors.js';

/**
 * Secrets at rest (chat bot tokens): AES-256-GCM with a 32-byte key from configuration, a fresh 12-byte IV per value,
 * stored as `v1:<iv>:<tag>:<ciphertext>` (base64 parts). The tag makes a changed ciphertext, a wrong key or a swapped
 * part fail loudly; nothing ever falls back to treating the stored text as plaintext.
 */
const VERSION = 'v1';

export function encryptSecret(key: Buffer, plaintext: string): string {
  assertKey(key);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join(':');
}

export function decryptSecret(key: Buffer, stored: string): string {
  assertKey(key);
  const parts = stored.split(':');
  if (parts.length !== 4 || parts[0] !== VERSION) throw unreadable('it is not in the v1 format');
  const [iv, tag, ciphertext] = parts.slice(1).map((part) => Buffer.from(part, 'base64'));
  if (iv!.length !== 12 || tag!.length !== 16) throw unreadable('its IV or tag has the wrong length');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv!);
    decipher.setAuthTag(tag!);
    return Buffer.concat([decipher.update(ciphertext!), decipher.final()]).toString('utf8');
  } catch {
    throw unreadable('it does not authenticate under this key');
  }
}

function assertKey(key: Buffer): void {
  if (key.length !== 32) throw new AppError({ kind: 'unexpected', code: ErrorCode.InternalUnexpected, message: `A secret key must be 32 bytes, not ${key.length}` });
}

function unreadable(why: string): AppError {
  return new AppError({ kind: 'operational', code: ErrorCode.ChatTokenUnreadable, status: 503, message: `A stored token cannot be read: ${why} (was CHAT_TOKEN_KEY changed?)` });
}
