/**
 * A backlog of browser replays for the soak test and `bench:soak`: a read-only check of the demo shop (so that a
 * resumed run restarts rather than being refused as a repeated side effect), stored as an active check, and real
 * `qa worker` processes on one MySQL database.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { compiledCheckSchema, type CompiledCheck } from '../../src/core/check.js';
import { CheckVersion } from '../../src/store/entities/check-version.entity.js';
import { Check } from '../../src/store/entities/check.entity.js';
import { spawnQa, until, type QaProcess, type QaRun } from './qa-cli.js';

/**
 * Sign in, then a page that answers after `slowMs` (longer than a short lock lifetime: a run outlives its first
 * lock, so it holds on only by renewing it), then a text check: 7 steps, 7 screenshots, three pages audited.
 */
export function backlogCheck(slowMs: number): CompiledCheck {
  const label = (name: string) => ({ strategy: 'label', name, exact: false }) as const;
  return compiledCheckSchema.parse({
    steps: [
      { step: { action: 'navigate', description: 'Go to the sign-in page', url: '/login' } },
      { step: { action: 'fill', description: 'Type the demo email into Email', target: { by: 'label', name: 'Email' }, value: { kind: 'testValue', name: 'demoEmail' } }, locator: label('Email') },
      {
        step: { action: 'fill', description: 'Type the demo password into Password', target: { by: 'label', name: 'Password' }, value: { kind: 'testValue', name: 'demoPassword' } },
        locator: label('Password'),
      },
      { step: { action: 'click', description: 'Click Sign in', target: { by: 'role', role: 'button', name: 'Sign in' } }, locator: { strategy: 'role', role: 'button', name: 'Sign in', exact: false } },
      { step: { action: 'expectUrl', description: 'The products page is open', contains: '/products' } },
      { step: { action: 'navigate', description: 'Open a slow page', url: `/slow?ms=${slowMs}` } },
      { step: { action: 'expectText', description: 'The slow page answered', text: `This page took ${slowMs} ms` } },
    ],
    successCriteria: [],
  });
}

/** The repository's refs of the check's test values; the workers read them from their environment. */
export const BACKLOG_SECRET_REFS = { demoEmail: 'DEMO_EMAIL', demoPassword: 'DEMO_PASSWORD' };

/** Stores `compiled` as the active version 1 of a new check of the repository; returns the check's id. */
export async function insertActiveCheck(dataSource: DataSource, organizationId: string, repositoryId: string, compiled: CompiledCheck): Promise<string> {
  const id = randomUUID();
  await dataSource.getRepository(Check).insert({ id, organizationId, repositoryId, status: 'active', task: 'Sign in and open a slow page', version: 1 });
  await dataSource.getRepository(CheckVersion).insert({ checkId: id, version: 1, compiled, source: '// generated', jobId: null });
  return id;
}

export interface QaWorkerProcess {
  qa: QaProcess;
  pid: number;
  /** A LIKE pattern for `agenda_jobs.last_modified_by` of this process (its queue owner is `host:pid:random`). */
  ownerPattern: string;
  /** Sends `signal` and resolves with how the process ended. */
  signal(signal: NodeJS.Signals): Promise<QaRun>;
}

const READY = 'running; stop with SIGTERM or SIGINT';

/** Starts the real `qa worker` (compiled, as `npm start` runs it) with `env` and waits until it takes jobs. */
export async function startQaWorker(env: Record<string, string>, readyWithinMs = 60_000): Promise<QaWorkerProcess> {
  const qa = spawnQa(['worker'], env);
  const ready = () => qa.run.stdout.includes(READY);
  await until(() => ready() || qa.child.exitCode !== null, 'qa worker to run', readyWithinMs);
  if (!ready()) throw new Error(`qa worker exited before running: ${(await qa.exited).stderr}`);
  const pid = qa.child.pid!;
  return {
    qa,
    pid,
    ownerPattern: `${hostname()}:${pid}:%`,
    async signal(signal) {
      if (qa.child.exitCode === null && qa.child.signalCode === null) qa.child.kill(signal);
      return qa.exited;
    },
  };
}

/** The jobs whose queue lock a worker holds (by its owner pattern), with their status. */
export async function jobsHeldBy(dataSource: DataSource, ownerPattern: string): Promise<{ jobId: string; status: string }[]> {
  const rows = (await dataSource.query(
    `SELECT j.id AS job_id, j.status AS status FROM agenda_jobs a JOIN jobs j ON j.workflow_id = a.id
      WHERE a.locked_at IS NOT NULL AND a.last_modified_by LIKE ?`,
    [ownerPattern],
  )) as { job_id: string; status: string }[];
  return rows.map((row) => ({ jobId: row.job_id, status: row.status }));
}

/** The pino lines a `qa` process wrote to stdout with the message `msg`. */
export function logLines(run: QaRun, msg: string): Record<string, unknown>[] {
  return run.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === msg);
}
