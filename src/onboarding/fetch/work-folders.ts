import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The temporary folders of fetches: `<tmp>/qa-revision-<host>-<pid>-<random>`. A fetch removes its own in a `finally`
 * and on `remove()`; what a killed worker left behind (no `finally` runs on SIGKILL) is swept by the next fetch of any
 * worker on the machine:
 * - a folder of this host whose process is gone (or is this process, which knows its own live folders: a pid reused
 *   after a crash) is removed at once;
 * - any folder older than `staleAfterMs` is removed, whoever made it: a folder of another host (a tmp shared between
 *   containers, where pids mean nothing) or of a process that lives but hung.
 */
export interface WorkFolderOptions {
  tmpDir: string;
  host: string;
  pid: number;
  staleAfterMs: number;
  now: () => number;
  /** Whether a process of this host is alive (EPERM counts as alive: it exists, owned by someone else). */
  isAlive?: (pid: number) => boolean;
}

export interface WorkFolders {
  create(): Promise<string>;
  remove(path: string): Promise<void>;
  /** Removes leftovers; returns the folders removed. */
  sweep(): Promise<string[]>;
}

export const WORK_FOLDER_PREFIX = 'qa-revision-';

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function createWorkFolders(options: WorkFolderOptions): WorkFolders {
  const host = options.host.replace(/[^A-Za-z0-9.]/g, '_').slice(0, 64) || 'host';
  const own = `${WORK_FOLDER_PREFIX}${host}-${options.pid}-`;
  const live = new Set<string>();
  const isAlive = options.isAlive ?? processAlive;

  async function leftover(name: string): Promise<boolean> {
    if (name.startsWith(own)) return !live.has(join(options.tmpDir, name));
    const mine = new RegExp(`^${WORK_FOLDER_PREFIX}${host.replace(/\./g, '\\.')}-(\\d+)-`).exec(name);
    if (mine && !isAlive(Number(mine[1]))) return true;
    const info = await stat(join(options.tmpDir, name)).catch(() => null);
    return info !== null && options.now() - info.mtimeMs > options.staleAfterMs;
  }

  return {
    async create() {
      const path = join(options.tmpDir, own + randomBytes(6).toString('hex'));
      // Marked live before it exists, so that a sweep running meanwhile never takes it for a leftover.
      live.add(path);
      try {
        await mkdir(path, { mode: 0o700 });
      } catch (error) {
        live.delete(path);
        throw error;
      }
      return path;
    },
    async remove(path) {
      await rm(path, { recursive: true, force: true, maxRetries: 3 });
      live.delete(path);
    },
    async sweep() {
      const names = await readdir(options.tmpDir).catch(() => [] as string[]);
      const removed: string[] = [];
      for (const name of names.filter((entry) => entry.startsWith(WORK_FOLDER_PREFIX))) {
        if (!(await leftover(name))) continue;
        await rm(join(options.tmpDir, name), { recursive: true, force: true, maxRetries: 3 });
        removed.push(name);
      }
      return removed;
    },
  };
}
