/**
 * What onboarding learns of a repository, step by step (spec sections 1 and 4.6): the revision's files, the index of
 * its routes, forms and links, the flows and edge cases discovered by joining that index with a crawl of `baseUrl`,
 * and the coverage links between flows and checks. Every shape here is plain JSON: each step's result is stored as
 * its checkpoint, so a worker killed after a step resumes from what the step stored.
 */

/** A file of a fetched revision, named as git names it: `blobId` changes exactly when the content does. */
export interface RevisionFile {
  path: string;
  blobId: string;
  size: number;
}

/** A revision checked out in a temporary folder; `remove` deletes the folder (idempotent). */
export interface FetchedRevision {
  dir: string;
  /** The full commit SHA that was checked out (the requested revision, or the default branch's head). */
  commitSha: string;
  files: RevisionFile[];
  remove(): Promise<void>;
}

export type RouteFramework = 'next-pages' | 'next-app' | 'react-router' | 'express' | 'koa' | 'html';

export interface IndexedField {
  /** The field's `name` attribute (or the prop a component passes for it), when the source says. */
  name: string | null;
  /** The words a person sees for it: its label, `aria-label` or placeholder. */
  label: string | null;
  /** `email`, `password`, `text`, `select`, `textarea`, `checkbox`…; `text` when unknown. */
  type: string;
  required: boolean;
  /** Its bounds, when the markup states them (`maxlength`, `minlength`, `min`, `max`): discovery's boundary edge cases. */
  maxLength?: number;
  minLength?: number;
  min?: number;
  max?: number;
}

export interface IndexedForm {
  /** The file the form is written in. */
  file: string;
  action: string | null;
  method: string;
  fields: IndexedField[];
  /** The words of its submit button, when the source says. */
  submitLabel: string | null;
}

export interface IndexedRoute {
  /** Normalised path: `/products/:id`, `/docs/*`; route groups (`(shop)`) removed. */
  path: string;
  framework: RouteFramework;
  /** HTTP methods for server routes; `['GET']` for pages. */
  methods: string[];
  /** The source files behind the route: its page, layouts, components it imports from the repository, its handler. */
  files: string[];
  forms: IndexedForm[];
  /** Paths its files link or navigate to (`href`, `to`, `redirect`), as written. */
  links: string[];
  testIds: string[];
  dynamic: boolean;
}

/** What one file of the revision contributed, kept by blob id so a re-index re-reads only files that changed. */
export interface IndexedFile {
  path: string;
  blobId: string;
  language: string;
  size: number;
  /** The indexer's own facts about the file (routes declared, forms, links, imports…); opaque to other steps. */
  facts: Record<string, unknown>;
}

export interface RepositoryIndex {
  commitSha: string;
  routes: IndexedRoute[];
  languages: Record<string, { files: number; bytes: number }>;
  files: IndexedFile[];
  stats: { filesRead: number; filesReused: number; ms: number };
}

/** One page the discovery crawl saw (same origin and allowlisted hosts only; nothing submitted, no side effect). */
export interface CrawledPage {
  /** Path and query relative to `baseUrl`. */
  path: string;
  title: string;
  /** Same-site paths the page links to. */
  links: string[];
  forms: { fields: IndexedField[]; submitLabel: string | null; method: string; action: string | null }[];
  /** Buttons, links and other controls by role and accessible name. */
  controls: { role: string; name: string }[];
  testIds: string[];
}

export type FlowOrigin = 'source' | 'crawl' | 'both';

export type EdgeCaseKind = 'required_empty' | 'invalid_format' | 'wrong_credentials' | 'boundary' | 'signed_out_access';

export interface EdgeCase {
  /** Stable within its flow: `required-empty-email`. */
  key: string;
  kind: EdgeCaseKind;
  name: string;
  /** Plain-language task text the rule planner can run. */
  task: string;
}

/** A named user journey: "Sign in", "Add a product to the cart". */
export interface DiscoveredFlow {
  /** Stable across revisions (a slug of what the flow does and where): coverage links and PR selection key on it. */
  key: string;
  name: string;
  /** One sentence on what the flow does, when a model planner described it (src/onboarding/discover/flow-names.ts). */
  description?: string;
  /** Who gave `name`: discovery's rules (absent) or the configured model planner, which names and never decides what runs. */
  namedBy?: 'model';
  entryPath: string;
  /** The flow as plain-language task text the rule planner can run, one sentence per step. */
  task: string;
  steps: string[];
  /** Controls and form fields it uses, by the words a person sees. */
  controls: string[];
  /** Source files behind it (repository paths). */
  files: string[];
  origin: FlowOrigin;
  /**
   * The class of real side effect its last step has (`create`, `delete`, `pay`, `send`…, the classes of the
   * clarification policy), or null when it has none; a build stops before that step unless the repository allows it.
   */
  sideEffect: string | null;
  /** Which uncovered flows to build first: entry flows, flows with forms, flows many files feed score higher. */
  value: number;
  edgeCases: EdgeCase[];
}

/** Why a check covers a flow. */
export interface CoverageLink {
  flowKey: string;
  checkId: string;
  /** `route` (the check visits the flow's entry path), `controls` (it uses the flow's controls), or both joined by `+`. */
  reason: string;
}
