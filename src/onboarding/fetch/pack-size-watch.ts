import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Watches the bytes received: git writes the incoming pack into `objects/pack` as it arrives (fetch.unpackLimit=1
 * keeps it a pack), so the folder's size is what was received so far. Past `limitBytes` it calls `over` once with the
 * size seen. Polling overshoots by at most what arrives in one interval, and costs one readdir per interval.
 */
/** The bytes in `packDir` now. */
export async function packBytes(packDir: string): Promise<number> {
  const names = await readdir(packDir).catch(() => [] as string[]);
  const sizes = await Promise.all(names.map((name) => stat(join(packDir, name)).then((info) => info.size, () => 0)));
  return sizes.reduce((sum, size) => sum + size, 0);
}

export function watchPackSize(packDir: string, limitBytes: number, intervalMs: number, over: (bytes: number) => void): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    const bytes = await packBytes(packDir);
    if (stopped) return;
    if (bytes > limitBytes) {
      stopped = true;
      over(bytes);
      return;
    }
    timer = setTimeout(() => void tick(), intervalMs);
  };
  timer = setTimeout(() => void tick(), intervalMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
