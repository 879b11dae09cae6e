/**
 * The files of a folder as git would list them for a commit: path, blob id (`sha1("blob <size>\0" + content)`, a
 * symlink's blob being its target) and size. Lets tests and the bench index a plain folder as a revision.
 */
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';
import type { RevisionFile } from '../../src/onboarding/model.js';

export function gitBlobId(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

export async function revisionFilesOf(dir: string): Promise<RevisionFile[]> {
  const files: RevisionFile[] = [];
  const visit = async (relative: string): Promise<void> => {
    for (const entry of await readdir(path.join(dir, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.name === '.git') continue;
      const full = path.join(dir, child);
      const stat = await lstat(full);
      if (stat.isDirectory()) await visit(child);
      else if (stat.isSymbolicLink()) {
        const target = Buffer.from(await readlink(full));
        files.push({ path: child, blobId: gitBlobId(target), size: target.length });
      } else if (stat.isFile()) {
        const content = await readFile(full);
        files.push({ path: child, blobId: gitBlobId(content), size: content.length });
      }
    }
  };
  await visit('');
  return files;
}
