import type { RevisionFile } from '../model.js';

/**
 * The files of `git ls-tree -r -l -z <commit>`: `<mode> SP <type> SP <object> SP+ <size> TAB <path> NUL` per entry.
 * With -z, paths come as their bytes (no quoting), so spaces, newlines, tabs and any UTF-8 survive. Submodules (type
 * `commit`, size `-`) are not files of this repository and are left out; symbolic links are kept, as the small files
 * they are checked out as. A path that is not valid UTF-8 cannot be named in a JSON string and read back, so it is
 * counted in `unreadable` instead of listed.
 */
export function parseTreeListing(output: Buffer): { files: RevisionFile[]; unreadable: number } {
  const files: RevisionFile[] = [];
  let unreadable = 0;
  let start = 0;
  while (start < output.length) {
    let end = output.indexOf(0, start);
    if (end === -1) end = output.length;
    const entry = output.subarray(start, end);
    start = end + 1;
    const tab = entry.indexOf(9);
    if (tab === -1) continue;
    const [, type, blobId, size] = entry.subarray(0, tab).toString('latin1').split(/ +/);
    if (type !== 'blob' || blobId === undefined || size === undefined || !/^\d+$/.test(size)) continue;
    const raw = entry.subarray(tab + 1);
    const path = raw.toString('utf8');
    if (!Buffer.from(path, 'utf8').equals(raw)) {
      unreadable += 1;
      continue;
    }
    files.push({ path, blobId, size: Number(size) });
  }
  return { files, unreadable };
}
