/**
 * Onboarding index bench (issue 28, step 2): how long indexing a repository takes, against only reading its files.
 *
 *   npm run bench:onboarding
 *
 * A generated repository (bench/support/onboarding-repo.ts) of BENCH_FILES (5,000) source files and 500 routes in a
 * temporary folder. In one process, one after the other:
 * 1. the floor: reading every file the index reads (same files, same concurrency), nothing else;
 * 2. a full index (no previous index), twice: the first in a fresh process (the parser's code not yet optimised by
 *    V8, as in a worker's first onboarding), the second warm;
 * 3. a re-index after BENCH_CHANGED (50) files change, given the previous index: only those are read.
 * Prints each time, the index's ratio to the floor, and the goals (index < 5 s, re-index < 0.5 s on 2 cores).
 * Never fails on a figure. Load average and CPU count are printed: the figures mean little on a busy machine.
 */
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_INDEX_LIMITS } from '../src/onboarding/index/limits.js';
import { indexRevision } from '../src/onboarding/index/index-revision.js';
import type { RepositoryIndex, RevisionFile } from '../src/onboarding/model.js';
import { revisionFilesOf } from '../test/support/revision-files.js';
import { GENERATED_ROUTES, generateRepository } from './support/onboarding-repo.js';
import { fmt, table } from './support/stats.js';

const number = (name: string, fallback: number): number => {
  const raw = process.env[name];
  const value = raw ? Number(raw) : fallback;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
};
const FILES = number('BENCH_FILES', 5000);
const CHANGED = number('BENCH_CHANGED', 50);

interface Timing {
  ms: number;
  /** CPU time of this process (user + system): on a loaded machine, closer than wall time to what the work costs. */
  cpuMs: number;
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T } & Timing> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await work();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { value, ms, cpuMs: (used.user + used.system) / 1000 };
}

/** Reads the files as the indexer does (same list, same concurrency) and does nothing with them. */
async function readOnly(dir: string, files: RevisionFile[]): Promise<Timing> {
  return timed(() => readAll(dir, files));
}

async function readAll(dir: string, files: RevisionFile[]): Promise<void> {
  let next = 0;
  let bytes = 0;
  const lanes = Array.from({ length: DEFAULT_INDEX_LIMITS.readConcurrency }, async () => {
    while (next < files.length) bytes += (await readFile(path.join(dir, files[next++].path), 'utf8')).length;
  });
  await Promise.all(lanes);
  if (bytes === 0) throw new Error('read nothing');
}

async function timedIndex(dir: string, files: RevisionFile[], previous?: RepositoryIndex) {
  const run = await timed(() => indexRevision({ dir, commitSha: previous ? 'b'.repeat(40) : 'a'.repeat(40), files, previous }));
  return { index: run.value, ms: run.ms, cpuMs: run.cpuMs };
}

const row = (name: string, run: Timing, floor: Timing, goal: string): string[] => [
  name, fmt(run.ms, 0), fmt(run.cpuMs, 0), fmt(floor.ms, 0), fmt(floor.cpuMs, 0), fmt(run.ms / floor.ms, 1), fmt(run.cpuMs / floor.cpuMs, 1), goal,
];

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-onboarding-'));
  try {
    const sources = await generateRepository(dir, FILES);
    const files = await revisionFilesOf(dir);
    const parsed = files.filter((f) => sources.includes(f.path) || f.path.endsWith('package.json'));
    const bytes = files.reduce((sum, f) => sum + f.size, 0);
    console.log(`repository: ${sources.length} source files (${fmt(bytes / 1024 / 1024, 1)} MiB) in ${dir}`);
    console.log(`machine: ${availableParallelism()} CPUs, load average ${loadavg().map((l) => fmt(l, 2)).join(' ')}`);

    await readOnly(dir, parsed); // page cache warm for everyone
    const floor1 = await readOnly(dir, parsed);
    const first = await timedIndex(dir, files);
    const floor2 = await readOnly(dir, parsed);
    const second = await timedIndex(dir, files);

    const changed = sources.filter((_, i) => i % Math.floor(sources.length / CHANGED) === 0).slice(0, CHANGED);
    for (const file of changed) await appendFile(path.join(dir, file), `\nexport const changed = '${file}';\n`);
    const after = await revisionFilesOf(dir);
    const floorChanged = await readOnly(dir, after.filter((f) => changed.includes(f.path)));
    const reindex = await timedIndex(dir, after, second.index);

    const routes = second.index.routes.length;
    console.log(`routes found: ${routes} (generated ${GENERATED_ROUTES}); files read ${second.index.stats.filesRead}`);
    console.log(`re-index: ${reindex.index.stats.filesRead} files read, ${reindex.index.stats.filesReused} reused`);
    console.log(table(
      ['measure', 'wall ms', 'cpu ms', 'floor wall ms', 'floor cpu ms', 'ratio wall', 'ratio cpu', 'goal (wall)'],
      [
        row('index, first in process', first, floor1, '< 5000 ms'),
        row('index, warm', second, floor2, '< 5000 ms'),
        row(`re-index, ${CHANGED} files changed`, reindex, floorChanged, '< 500 ms'),
      ],
      [false, true, true, true, true, true, true, false],
    ));
    if (reindex.index.stats.filesRead !== CHANGED) console.log(`NOTE: expected ${CHANGED} files read, got ${reindex.index.stats.filesRead}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
