/**
 * What the indexer keeps of one file (`IndexedFile.facts`): everything routes are later assembled from, so a
 * re-index reuses a file's facts by blob id and never reads it again. Plain JSON; offsets (`at`, `start`, `end`)
 * are character offsets in the file, used to give a server route only the markup its own handler renders.
 */
import type { IndexedField } from '../model.js';

/** Bumped when the parser or extraction changes, so facts of an older indexer are not reused. */
export const FACTS_VERSION = 1;

export interface FormFact {
  action: string | null;
  method: string;
  fields: IndexedField[];
  submitLabel: string | null;
  at: number;
}

export interface LinkFact {
  to: string;
  at: number;
}

export interface TestIdFact {
  id: string;
  at: number;
}

/** What a file shows a person: forms, links and test ids, each with where it is written. */
export interface UiFacts {
  forms: FormFact[];
  links: LinkFact[];
  testIds: TestIdFact[];
}

export interface ImportFact {
  source: string;
  /** Local names it binds (`default` imports and namespaces by their local name). */
  names: string[];
}

/** A top-level declaration: its range and the imported or top-level names it uses. */
export interface DeclFact {
  name: string;
  start: number;
  end: number;
  refs: string[];
}

export interface ServerRouteFact {
  framework: 'express' | 'koa';
  /** The router or app the route is declared on (`app`, `router`, `this.router`). */
  receiver: string;
  path: string;
  methods: string[];
  start: number;
  end: number;
  /** Names its handlers use: local declarations and imports. */
  refs: string[];
}

/** `app.use('/prefix', target)`: `target` names a local router or an import (`name`), or a module (`source`). */
export interface MountFact {
  receiver: string;
  prefix: string;
  target: { name: string } | { source: string };
}

/** A React Router route, its path already joined with its parents'. */
export interface ClientRouteFact {
  path: string;
  /** Where its element, Component, loader and action are written (markup inline in the route belongs to it). */
  ranges: [number, number][];
  /** Names its element, Component, loader and action use. */
  refs: string[];
  /** Modules its `lazy` imports. */
  sources: string[];
}

export interface ScriptFacts extends UiFacts {
  v: number;
  kind: 'script';
  imports: ImportFact[];
  decls: DeclFact[];
  /** Names exported as HTTP verbs (`export async function POST`): a Next.js route handler's methods. */
  exportedVerbs: string[];
  /** Verbs a handler compares `req.method` with: a Next.js API route's methods. */
  methodChecks: string[];
  serverRoutes: ServerRouteFact[];
  mounts: MountFact[];
  /** Prefixes routers are created with (`new Router({ prefix })`, `router.prefix('/x')`), by receiver. */
  routerPrefixes: { receiver: string; prefix: string }[];
  clientRoutes: ClientRouteFact[];
}

export interface HtmlFacts extends UiFacts {
  v: number;
  kind: 'html';
}

export interface ManifestFacts {
  v: number;
  kind: 'manifest';
  dependencies: string[];
}

export interface SkippedFacts {
  v: number;
  kind: 'skipped';
  reason: 'too-large' | 'minified' | 'generated' | 'unparsable' | 'outside' | 'not-a-file' | 'unreadable' | 'file-limit';
  detail?: string;
}

/** Files the indexer does not parse (images, styles…): counted in languages only. */
export interface OtherFacts {
  v: number;
  kind: 'other';
}

export type FileFacts = ScriptFacts | HtmlFacts | ManifestFacts | SkippedFacts | OtherFacts;

export function emptyUi(): UiFacts {
  return { forms: [], links: [], testIds: [] };
}
