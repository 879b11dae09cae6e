/**
 * Step implementations a test injects into the onboarding workflow: plain functions returning the model's shapes
 * (src/onboarding/model.ts), each counting its calls, and any of them able to hang on its first call until released
 * (a worker frozen in that step).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CoverageLink, CrawledPage, DiscoveredFlow, FetchedRevision, RepositoryIndex } from '../../src/onboarding/model.js';
import type { CoverageCheck, OnboardingPorts } from '../../src/workflows/onboarding.js';

export type StepName = 'fetch' | 'index' | 'crawl' | 'discover' | 'linkCoverage';

export const COMMIT = 'a'.repeat(40);

/** The flows the kill tests discover: two uncovered ones, `search` first. */
export const KILL_TEST_FLOWS = (): DiscoveredFlow[] => [flow('search', { value: 2 }), flow('browse')];

export function flow(key: string, fields: Partial<DiscoveredFlow> = {}): DiscoveredFlow {
  return {
    key, name: key, entryPath: `/${key}`, task: `Go to /${key}. Check that the page shows "${key}".`, steps: [`Go to /${key}.`, `Check that the page shows "${key}".`],
    controls: [], files: [`src/${key}.tsx`], origin: 'both', sideEffect: null, value: 1,
    edgeCases: [{ key: `signed-out-${key}`, kind: 'signed_out_access', name: `${key} signed out`, task: `Go to /${key} signed out.` }],
    ...fields,
  };
}

export interface TestSteps {
  ports: OnboardingPorts;
  calls: Record<StepName, number>;
  /** The folders fetches made, to see they were removed. */
  folders: string[];
  /** Makes `step`'s next call wait until `release()`; resolves once that call began. */
  hang(step: StepName): { started: Promise<void>; release(): void };
}

export function testSteps(
  flows: DiscoveredFlow[],
  links: (checks: CoverageCheck[]) => CoverageLink[] = () => [],
  /** Told of every call as it begins (a child process says it on stdout before it may be killed). */
  onCall: (step: StepName) => void = () => undefined,
): TestSteps {
  const calls: Record<StepName, number> = { fetch: 0, index: 0, crawl: 0, discover: 0, linkCoverage: 0 };
  const folders: string[] = [];
  const hangs = new Map<StepName, { begun(): void; gate: Promise<void> }>();
  async function enter(step: StepName): Promise<void> {
    calls[step] += 1;
    onCall(step);
    const hung = hangs.get(step);
    if (!hung) return;
    hangs.delete(step);
    hung.begun();
    await hung.gate;
  }
  const ports: OnboardingPorts = {
    async fetch({ revision }) {
      await enter('fetch');
      const dir = mkdtempSync(join(tmpdir(), 'onboard-fetch-'));
      folders.push(dir);
      const fetched: FetchedRevision = {
        dir, commitSha: revision ?? COMMIT, files: [{ path: 'src/app.tsx', blobId: 'b'.repeat(40), size: 10 }],
        remove: async () => rmSync(dir, { recursive: true, force: true }),
      };
      return fetched;
    },
    async index({ fetched, previous }) {
      await enter('index');
      const index: RepositoryIndex = {
        commitSha: fetched.commitSha,
        routes: flows.map((item) => ({ path: item.entryPath, framework: 'next-app', methods: ['GET'], files: item.files, forms: [], links: [], testIds: [], dynamic: false })),
        languages: { typescript: { files: 1, bytes: 10 } },
        files: fetched.files.map((file) => ({ ...file, language: 'typescript', facts: {} })),
        stats: { filesRead: previous ? 0 : 1, filesReused: previous ? 1 : 0, ms: 1 },
      };
      return index;
    },
    async crawl() {
      await enter('crawl');
      const pages: CrawledPage[] = flows.map((item) => ({ path: item.entryPath, title: item.name, links: [], forms: [], controls: [], testIds: [] }));
      return pages;
    },
    async discover() {
      await enter('discover');
      return flows;
    },
    linkCoverage(_flows, checks) {
      calls.linkCoverage += 1;
      onCall('linkCoverage');
      return links(checks);
    },
  };
  return {
    ports,
    calls,
    folders,
    hang(step) {
      let begun!: () => void;
      let release!: () => void;
      const started = new Promise<void>((resolve) => (begun = resolve));
      hangs.set(step, { begun, gate: new Promise<void>((resolve) => (release = resolve)) });
      return { started, release };
    },
  };
}

/** Waits until `condition` holds (an async read of the store), failing after `timeoutMs` with `what`. */
export async function eventually<T>(condition: () => Promise<T | undefined | false>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
