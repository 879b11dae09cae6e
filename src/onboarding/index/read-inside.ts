/**
 * Reads a file of the checked-out revision, never anything outside its folder: a path whose real location (symlinks
 * resolved, the file's and its folders') leaves the folder is refused, and so is anything that is not a regular file
 * or is larger than the bound. The folder is the indexer's own temporary checkout, so the check is not racing anyone.
 */
import { open, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

export type ReadOutcome =
  | { ok: true; text: string }
  | { ok: false; reason: 'outside' | 'not-a-file' | 'too-large' | 'unreadable'; detail?: string };

export async function readInside(realDir: string, file: string, maxBytes: number): Promise<ReadOutcome> {
  let real: string;
  try {
    real = await realpath(path.join(realDir, file));
  } catch (error) {
    return { ok: false, reason: 'unreadable', detail: (error as NodeJS.ErrnoException).code };
  }
  if (!real.startsWith(realDir + path.sep)) return { ok: false, reason: 'outside' };
  // Checked before opening: opening a FIFO or a device would block or read forever.
  const before = await stat(real).catch(() => null);
  if (!before?.isFile()) return { ok: false, reason: 'not-a-file' };
  if (before.size > maxBytes) return { ok: false, reason: 'too-large', detail: `${before.size} bytes` };
  const handle = await open(real, 'r').catch(() => null);
  if (!handle) return { ok: false, reason: 'unreadable' };
  try {
    const size = Math.min((await handle.stat()).size, maxBytes);
    const buffer = Buffer.allocUnsafe(size);
    const { bytesRead } = await handle.read(buffer, 0, size, 0);
    return { ok: true, text: buffer.toString('utf8', 0, bytesRead) };
  } catch (error) {
    return { ok: false, reason: 'unreadable', detail: (error as NodeJS.ErrnoException).code };
  } finally {
    await handle.close();
  }
}
