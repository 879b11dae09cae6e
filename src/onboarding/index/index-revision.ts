/**
 * Step 2 of onboarding, "Index": the routes of a checked-out revision and the files, forms, links and test ids
 * behind each, plus the languages and sizes. Incremental: a file whose git blob id (and so its content) is the same
 * as in `previous` keeps its facts and is not read again; only changed and new files are read and parsed. Routes are
 * then assembled from every file's facts, which is cheap next to parsing.
 */
import { realpath } from 'node:fs/promises';
import type { IndexedFile, RepositoryIndex, RevisionFile } from '../model.js';
import { FACTS_VERSION, type FileFacts } from './facts.js';
import { factsOfText } from './file-facts.js';
import { isIgnoredPath, languageOf, readKindOf, type ReadKind } from './file-kinds.js';
import { DEFAULT_INDEX_LIMITS, type IndexLimits } from './limits.js';
import { readInside } from './read-inside.js';
import { assembleRoutes } from './assemble-routes.js';

export interface IndexRevisionInput {
  /** The checked-out revision; nothing outside it is ever read. */
  dir: string;
  commitSha: string;
  files: RevisionFile[];
  /** The index of an earlier revision of the same repository: its facts are reused by blob id. */
  previous?: RepositoryIndex;
  limits?: Partial<IndexLimits>;
  /** Milliseconds, for `stats.ms`; `performance.now` unless a test or bench passes its own. */
  now?: () => number;
}

const reuseKey = (blobId: string, kind: ReadKind): string => `${blobId}\0${kind}`;

function reusableFacts(previous: RepositoryIndex | undefined): Map<string, Record<string, unknown>> {
  const reusable = new Map<string, Record<string, unknown>>();
  for (const file of previous?.files ?? []) {
    const facts = file.facts as Partial<FileFacts> | undefined;
    if (facts?.v === FACTS_VERSION && facts.kind !== 'other') reusable.set(reuseKey(file.blobId, readKindOf(file.path)), file.facts);
  }
  return reusable;
}

async function readAndParse(realDir: string, path: string, kind: Exclude<ReadKind, 'none'>, limits: IndexLimits): Promise<FileFacts> {
  const read = await readInside(realDir, path, limits.maxFileBytes);
  if (!read.ok) {
    return read.detail === undefined
      ? { v: FACTS_VERSION, kind: 'skipped', reason: read.reason }
      : { v: FACTS_VERSION, kind: 'skipped', reason: read.reason, detail: read.detail };
  }
  return factsOfText(kind, read.text);
}

/** Runs `work` over `items`, at most `concurrency` at once. */
async function eachLimited<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, async () => {
    while (next < items.length) await work(items[next++]);
  });
  await Promise.all(lanes);
}

export async function indexRevision(input: IndexRevisionInput): Promise<RepositoryIndex> {
  const now = input.now ?? (() => performance.now());
  const started = now();
  const limits: IndexLimits = { ...DEFAULT_INDEX_LIMITS, ...input.limits };
  const realDir = await realpath(input.dir);
  const reusable = reusableFacts(input.previous);
  const seen = new Set<string>();
  const indexed: IndexedFile[] = [];
  const toRead: { file: IndexedFile; kind: Exclude<ReadKind, 'none'> }[] = [];
  let filesReused = 0;
  let parseBudget = limits.maxFiles;

  for (const revisionFile of [...input.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    if (seen.has(revisionFile.path) || isIgnoredPath(revisionFile.path)) continue;
    seen.add(revisionFile.path);
    const kind = readKindOf(revisionFile.path);
    const file: IndexedFile = {
      path: revisionFile.path, blobId: revisionFile.blobId, language: languageOf(revisionFile.path), size: revisionFile.size,
      facts: { v: FACTS_VERSION, kind: 'other' },
    };
    indexed.push(file);
    if (kind === 'none') continue;
    const reused = reusable.get(reuseKey(revisionFile.blobId, kind));
    if (reused) {
      file.facts = reused;
      filesReused++;
    } else if (revisionFile.size > limits.maxFileBytes) {
      file.facts = { v: FACTS_VERSION, kind: 'skipped', reason: 'too-large', detail: `${revisionFile.size} bytes` };
    } else if (parseBudget-- <= 0) {
      file.facts = { v: FACTS_VERSION, kind: 'skipped', reason: 'file-limit' };
    } else {
      toRead.push({ file, kind });
    }
  }

  await eachLimited(toRead, limits.readConcurrency, async ({ file, kind }) => {
    file.facts = (await readAndParse(realDir, file.path, kind, limits)) as unknown as Record<string, unknown>;
  });

  const languages: RepositoryIndex['languages'] = {};
  for (const file of indexed) {
    const entry = (languages[file.language] ??= { files: 0, bytes: 0 });
    entry.files++;
    entry.bytes += file.size;
  }

  return {
    commitSha: input.commitSha,
    routes: assembleRoutes(indexed, limits),
    languages,
    files: indexed,
    stats: { filesRead: toRead.length, filesReused, ms: Math.round(now() - started) },
  };
}
