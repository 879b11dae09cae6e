/**
 * Onboarding's fetch (issue 28, step 1): what do its bounds, its isolated environment and its five git commands cost
 * over a bare shallow clone? A generated repository of BENCH_FILES (5,000) source files in BENCH_COMMITS (3) commits,
 * served over TLS by the tests' local git server (`git http-backend`, a test CA), fetched BENCH_ROUNDS (5) times by
 * each, alternately, in the same run:
 *
 *   npx tsx bench/onboarding-fetch.bench.ts
 *
 * - Ours: `createRevisionFetcher(...).fetch()` at the default branch's head, then `remove()`.
 * - Peer: `git clone --depth 1 --single-branch` of the same URL with the same CA file, then `rm -rf`.
 *
 * It prints the median and max of each and the ratio of the medians; it never fails on them.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { createRevisionFetcher } from '../src/onboarding/fetch/revision-fetcher.js';
import { startFakeGitHost } from '../test/fakes/git-https-server.js';
import { createTestRepository, type FileContent } from '../test/fixtures/git-repositories.js';
import { createTestCertificates } from '../test/fixtures/tls/test-certificates.js';
import { intFromEnv } from './support/config.js';

const run = promisify(execFile);
const FILES = intFromEnv('BENCH_FILES', 5_000);
const COMMITS = intFromEnv('BENCH_COMMITS', 3);
const ROUNDS = intFromEnv('BENCH_ROUNDS', 5);

function source(index: number, commit: number): string {
  return `import { useState } from 'react';\n\nexport function Component${index}() {\n  const [value, setValue] = useState(${commit});\n  return <button data-testid="c-${index}" onClick={() => setValue(value + 1)}>Press ${index}</button>;\n}\n`.repeat(4);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<void> {
  const scratch = await mkdtemp(join(tmpdir(), 'qa-bench-fetch-'));
  const certificates = await createTestCertificates();
  try {
    const caFile = join(scratch, 'ca.pem');
    await writeFile(caFile, certificates.ca);
    // The first commit writes every file; each later one rewrites a third of them.
    const commits = Array.from({ length: COMMITS }, (_, commit) => {
      const files: Record<string, FileContent> = {};
      for (let index = 0; index < FILES; index += 1) {
        if (commit === 0 || index % COMMITS === commit) files[`src/area-${index % 50}/component-${index}.tsx`] = source(index, commit);
      }
      return files;
    });
    await createTestRepository(join(scratch, 'repositories'), 'acme/big-app.git', commits);
    const host = await startFakeGitHost({ key: certificates.key, cert: certificates.cert, projectRoot: join(scratch, 'repositories') });
    const url = `${host.url}/acme/big-app.git`;
    const fetcher = createRevisionFetcher({ logger: pino({ level: 'silent' }), extraCaFile: caFile, tmpDir: scratch, environment: { PATH: process.env.PATH } });
    const ours: number[] = [];
    const bare: number[] = [];
    let files = 0;
    try {
      for (let round = 0; round < ROUNDS; round += 1) {
        let started = performance.now();
        const revision = await fetcher.fetch({ cloneUrl: url, revision: null, defaultBranch: 'main', installationId: null });
        await revision.remove();
        ours.push(performance.now() - started);
        files = revision.files.length;

        started = performance.now();
        const target = join(scratch, `bare-${round}`);
        await run('git', ['-c', `http.sslCAInfo=${caFile}`, 'clone', '--quiet', '--depth', '1', '--single-branch', url, target], {
          env: { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', HOME: scratch },
        });
        await rm(target, { recursive: true, force: true });
        bare.push(performance.now() - started);
      }
    } finally {
      await host.close();
    }
    const fmt = (values: number[]) => `median ${median(values).toFixed(0)} ms, max ${Math.max(...values).toFixed(0)} ms`;
    console.log(`repository: ${files} files at the head, ${COMMITS} commits; ${ROUNDS} rounds each`);
    console.log(`ours (createRevisionFetcher.fetch + remove): ${fmt(ours)}`);
    console.log(`bare (git clone --depth 1 + rm -rf):          ${fmt(bare)}`);
    console.log(`ratio of medians, ours / bare: ${(median(ours) / median(bare)).toFixed(2)}`);
  } finally {
    await certificates.remove();
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
