import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { indexRevision } from '../../../src/onboarding/index/index-revision.js';
import { revisionFilesOf } from '../../support/revision-files.js';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/repos/express-shop');

describe('re-indexing a new revision', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'index-incremental-'));
    await cp(FIXTURE, dir, { recursive: true });
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads only the file whose blob changed, and the routes show the change', async () => {
    const first = await indexRevision({ dir, commitSha: 'a1', files: await revisionFilesOf(dir) });
    const parsed = first.stats.filesRead;
    expect(first.routes.find((r) => r.path === '/returns')).toBeUndefined();

    await writeFile(path.join(dir, 'routes/cart.js'), `import express from 'express';
export function cartRouter() {
  const cart = express.Router();
  cart.get('/', (req, res) => res.send('<a href="/returns" data-testid="returns-link">Returns</a>'));
  return cart;
}
`);
    const second = await indexRevision({ dir, commitSha: 'b2', files: await revisionFilesOf(dir), previous: first });

    expect(second.stats.filesRead).toBe(1);
    expect(second.stats.filesReused).toBe(parsed - 1);
    expect(second.commitSha).toBe('b2');
    const cart = second.routes.find((r) => r.path === '/cart');
    expect(cart?.links).toEqual(['/returns']);
    expect(cart?.testIds).toEqual(['returns-link']);
    expect(second.routes.some((r) => r.path === '/cart/items')).toBe(false);
    // Routes assembled from reused facts are the same as from a fresh read.
    const fresh = await indexRevision({ dir, commitSha: 'b2', files: await revisionFilesOf(dir) });
    expect(second.routes).toEqual(fresh.routes);
  });

  it('reads a new file only, and unchanged files are not read even when the folder has moved', async () => {
    const first = await indexRevision({ dir, commitSha: 'a1', files: await revisionFilesOf(dir) });
    await writeFile(path.join(dir, 'routes/returns.js'), `import { Router } from 'express';
export const returns = Router();
returns.post('/returns', (req, res) => res.status(201).end());
`);
    const moved = await mkdtemp(path.join(tmpdir(), 'index-moved-'));
    try {
      await cp(dir, moved, { recursive: true });
      const second = await indexRevision({ dir: moved, commitSha: 'b2', files: await revisionFilesOf(moved), previous: first });
      expect(second.stats).toEqual({ filesRead: 1, filesReused: first.stats.filesRead, ms: expect.any(Number) });
      expect(second.routes.find((r) => r.path === '/returns')).toMatchObject({ framework: 'express', methods: ['POST'], files: ['routes/returns.js'] });
    } finally {
      await rm(moved, { recursive: true, force: true });
    }
  });

  it('drops the routes of a deleted file without reading anything', async () => {
    const first = await indexRevision({ dir, commitSha: 'a1', files: await revisionFilesOf(dir) });
    const files = (await revisionFilesOf(dir)).filter((f) => f.path !== 'koa/api.js');
    const second = await indexRevision({ dir, commitSha: 'b2', files, previous: first });
    expect(second.stats.filesRead).toBe(0);
    expect(second.routes.filter((r) => r.framework === 'koa')).toEqual([]);
    expect(second.routes.length).toBe(first.routes.length - 4);
  });
});
