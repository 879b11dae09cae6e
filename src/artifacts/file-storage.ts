import { randomUUID } from 'node:crypto';
import { link, mkdir, open, rm, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { AppError, ErrorCode } from '../core/errors.js';
import { isArtifactKey, type ArtifactStorage } from './artifact-storage.js';

/**
 * Artifacts as files under `root` (ARTIFACTS_DIR). A file appears whole or not at all: it is written to a temporary
 * name and then hard-linked to its key, which fails if the key is taken (no overwrite, no torn reads).
 */
export function createFileArtifactStorage(root: string): ArtifactStorage {
  const base = resolve(root);

  function pathOf(key: string): string {
    if (!isArtifactKey(key)) {
      throw new AppError({ kind: 'unexpected', code: ErrorCode.ArtifactBadKey, message: `Not an artifact key: ${JSON.stringify(key)}` });
    }
    return join(base, key);
  }

  return {
    async put(key, content) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const temporary = join(dirname(path), `.tmp-${randomUUID()}`);
      await writeFile(temporary, content, { flag: 'wx', mode: 0o600 });
      try {
        await link(temporary, path);
      } finally {
        await unlink(temporary);
      }
    },

    async open(key): Promise<Readable> {
      const path = pathOf(key);
      // Opening first turns a missing file into a clear error before any byte is sent.
      const handle = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') {
          throw new AppError({ kind: 'operational', code: ErrorCode.ArtifactMissing, status: 410, message: 'The artifact is no longer stored' });
        }
        throw error;
      });
      return handle.createReadStream({ autoClose: true });
    },

    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
