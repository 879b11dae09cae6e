import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { isArtifactKey } from '../../../src/artifacts/artifact-storage.js';
import { createFileArtifactStorage } from '../../../src/artifacts/file-storage.js';

describe('file artifact storage', () => {
  const root = mkdtempSync(join(tmpdir(), 'qa-storage-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const storage = createFileArtifactStorage(root);

  it('stores bytes under a key, reads them back, and removes them', async () => {
    await storage.put('org/job/a1', Buffer.from('hello'));
    expect(await text(await storage.open('org/job/a1'))).toBe('hello');
    expect(statSync(join(root, 'org/job/a1')).mode & 0o777).toBe(0o600);
    // No temporary file is left beside it.
    expect(readdirSync(join(root, 'org/job'))).toEqual(['a1']);
    await storage.remove('org/job/a1');
    await storage.remove('org/job/a1');
    await expect(storage.open('org/job/a1')).rejects.toMatchObject({ code: 'artifact.missing', status: 410 });
  });

  it('never overwrites a stored artifact', async () => {
    await storage.put('org/job/once', Buffer.from('first'));
    await expect(storage.put('org/job/once', Buffer.from('second'))).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await text(await storage.open('org/job/once'))).toBe('first');
    expect(readdirSync(join(root, 'org/job')).filter((name) => name.startsWith('.tmp-'))).toEqual([]);
  });

  it('refuses keys that could leave the storage folder', async () => {
    for (const key of ['../escape', 'org/../../etc/passwd', '/etc/passwd', 'org//job', 'org/job/', '.hidden', 'a\\b', 'a/./b', '']) {
      expect(isArtifactKey(key)).toBe(false);
      await expect(storage.put(key, Buffer.from('x'))).rejects.toMatchObject({ code: 'artifact.bad_key' });
      await expect(storage.open(key)).rejects.toMatchObject({ code: 'artifact.bad_key' });
    }
  });
});
