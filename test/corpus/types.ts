/**
 * The corpus of issue 25: tests of published suites for public example web apps, each written down as the task a
 * person would give the service, with the verdict the published test expects. The apps are faithful local copies
 * served on loopback (test/fixtures/<app>/), each with small bugs that can be switched on, so that every task's
 * compiled check can be shown to fail on a broken app with `expected`/`actual`.
 *
 * The tasks were written from the published tests before the planner was changed for them, and are never reworded
 * to suit the planner: a task the service does not run is a failure of the service, not of the task.
 */

/** One test of a published suite, as a person would ask for it. */
export interface CorpusTask {
  /** Unique in its suite, kebab-case. */
  id: string;
  /** The published test it was written from: `<file> › <describe> › <test title>`. */
  source: string;
  /** The plain-language task, as a person would write it (not tuned to any grammar). */
  task: string;
  /**
   * Answers a person would give, in order, to whatever the service asks before it runs the task (for example
   * consent to place an order). Omitted when a person would expect no question.
   */
  answers?: string[];
  /** Where the task starts, relative to the app's URL; `/` when omitted. */
  path?: string;
  /** What the published test expects on the app as it is. */
  expect: 'passed';
  /** The bug (a key of the app's `BUGS`) that must make this task's check fail. */
  bug: string;
}

/** A faithful local copy of a public example app, on loopback. */
export interface CorpusApp {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  /** Switches one bug on (by its key in the app's `BUGS`), or all off with `null`, from the next request on. */
  setBug(bug: string | null): void;
  /** Forgets all server-side state (users' data, sessions); bugs stay as set. */
  reset(): void;
  close(): Promise<void>;
}

export interface CorpusSuite {
  /** Short name: `todomvc`, `the-internet`, `sauce-demo`. */
  name: string;
  /** The public app and the published suite the tasks come from (repository and path, or URL). */
  app: string;
  published: string;
  /** Bug key → what it breaks, in a sentence. */
  bugs: Readonly<Record<string, string>>;
  tasks: readonly CorpusTask[];
  start(options?: { port?: number }): Promise<CorpusApp>;
}
