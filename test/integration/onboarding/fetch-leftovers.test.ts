import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createRevisionFetcher } from '../../../src/onboarding/fetch/revision-fetcher.js';
import { createWorkFolders } from '../../../src/onboarding/fetch/work-folders.js';
import { startFakeGitHost, type FakeGitHost } from '../../fakes/git-https-server.js';
import { createTestCertificates, type TestCertificates } from '../../fixtures/tls/test-certificates.js';
import { spawnTestChild } from '../../support/processes/spawn.js';

let certificates: TestCertificates;
let scratch: string;
let host: FakeGitHost;

async function until(condition: () => boolean | Promise<boolean>, what: string, limitMs = 20_000): Promise<void> {
  for (let waited = 0; !(await condition()); waited += 100) {
    if (waited > limitMs) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  certificates = await createTestCertificates();
  scratch = await mkdtemp(join(tmpdir(), 'qa-fetch-leftovers-'));
  await writeFile(join(scratch, 'ca.pem'), certificates.ca);
  host = await startFakeGitHost({ key: certificates.key, cert: certificates.cert, projectRoot: join(scratch, 'none') });
});

afterAll(async () => {
  await host?.close();
  await certificates?.remove();
  await rm(scratch, { recursive: true, force: true });
});

describe('what a killed worker leaves behind', () => {
  it('is swept by the next fetch, and its orphaned git gives up by itself', async () => {
    const tmpDir = await mkdtemp(join(scratch, 'tmp-'));
    const worker = spawnTestChild('./fetch-worker.ts', {
      FETCH_TMP: tmpDir,
      FETCH_URL: `${host.url}/stall/acme/shop.git`,
      FETCH_CA: join(scratch, 'ca.pem'),
      FETCH_TIMEOUT_MS: '3000',
    });
    await worker.waitFor((event) => event.event === 'fetching');
    await until(() => host.openStalls() > 0, 'the worker to reach the server');
    await worker.stop('SIGKILL');
    // No finally ran: the folder is still there.
    expect((await readdir(tmpDir)).filter((name) => name.startsWith('qa-revision-'))).toHaveLength(1);

    const revisions = createRevisionFetcher({ logger: pino({ level: 'silent' }), tmpDir });
    expect(await revisions.sweep()).toBe(1);
    expect(await readdir(tmpDir)).toEqual([]);
    // git ran in a process group of its own, which SIGKILL of the worker does not reach; its low-speed bound (the
    // fetch's time bound) ends it, and with it the connection.
    await until(() => host.openStalls() === 0, 'the orphaned git to give up');
  });

  it("removes a folder when its process is gone or it is older than the bound, and keeps live processes' folders", async () => {
    const tmpDir = await mkdtemp(join(scratch, 'tmp-'));
    const host = hostname().replace(/[^A-Za-z0-9.]/g, '_');
    let clock = Date.now();
    const folders = createWorkFolders({ tmpDir, host: hostname(), pid: 1000, staleAfterMs: 60_000, now: () => clock, isAlive: (pid) => pid === 2000 });
    const mine = await folders.create();
    const names = {
      deadHere: `qa-revision-${host}-3000-aaaa`,
      liveHere: `qa-revision-${host}-2000-bbbb`,
      reusedPid: `qa-revision-${host}-1000-cccc`,
      otherHost: 'qa-revision-elsewhere-3000-dddd',
      notOurs: 'something-else',
    };
    for (const name of Object.values(names)) await mkdir(join(tmpDir, name));
    const removed = await folders.sweep();
    expect(removed.sort()).toEqual([names.deadHere, names.reusedPid].sort());
    expect((await readdir(tmpDir)).sort()).toEqual([mine.split('/').pop(), names.liveHere, names.otherHost, names.notOurs].sort());

    const old = new Date(clock - 120_000);
    await utimes(join(tmpDir, names.otherHost), old, old);
    await utimes(join(tmpDir, names.notOurs), old, old);
    clock += 1_000;
    expect(await folders.sweep()).toEqual([names.otherHost]);
    clock += 120_000;
    expect((await folders.sweep()).sort()).toEqual([names.liveHere].sort());
    // Its own live folder is never a leftover, however old.
    expect((await readdir(tmpDir)).sort()).toEqual([mine.split('/').pop(), names.notOurs].sort());
    await folders.remove(mine);
    expect(await readdir(tmpDir)).toEqual([names.notOurs]);
  });
});
