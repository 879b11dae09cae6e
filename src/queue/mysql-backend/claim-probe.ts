import { CLAIMABLE } from './claim.js';
import type { Statement } from './sql-executor.js';

/** One kind of job Agenda is about to claim, with the claim's own windows (SQL text dates, see sql-dates.ts). */
export interface ProbeAsk {
  jobName: string;
  nextScanAt: string;
  lockDeadline: string;
}

/**
 * Which of `asks` have a job a claim would take: due and unlocked, or with an expired lock (`CLAIMABLE`, the
 * conditions of the claim's candidate reads in claim.ts). One statement, no transaction, no row locks, no temporary
 * table: a row of one `EXISTS` per ask (column `k<index>`, 1 or 0), each an index-only read of the claim index that
 * stops at its first row. MySQL, MariaDB and SQLite all take a SELECT without FROM.
 */
export function probeStatement(table: string, asks: readonly ProbeAsk[]): Statement {
  const from = `SELECT 1 FROM \`${table}\` WHERE ${CLAIMABLE.kind}`;
  const columns = asks.map((_ask, index) => `(EXISTS (${from} AND ${CLAIMABLE.due}) OR EXISTS (${from} AND ${CLAIMABLE.expired})) AS k${index}`);
  return { sql: `SELECT ${columns.join(', ')}`, params: asks.flatMap((ask) => [ask.jobName, ask.nextScanAt, ask.jobName, ask.lockDeadline]) };
}

/** The kinds a probe's row (see `probeStatement`) says have something to claim. */
export function claimableNames(asks: readonly ProbeAsk[], row: Record<string, unknown> | undefined): Set<string> {
  return new Set(asks.filter((_ask, index) => Number(row?.[`k${index}`]) === 1).map((ask) => ask.jobName));
}

interface Waiting {
  ask: ProbeAsk;
  resolve(claimable: boolean): void;
  reject(error: unknown): void;
}

/**
 * Asks once which kinds of job have something to claim, for all the claims asked for in the same turn.
 *
 * Agenda's scan (every `processEvery`, 250 ms here) claims every defined kind at once, and a claim is a transaction
 * of five statements whether it finds a job or not: an idle worker with four kinds ran 16 of them a second, 22.5 ms
 * of CPU a second between the worker and MariaDB. With the probe an idle scan is one read (4.5 ms a second; both
 * figures from `npm run bench:idle`), and only kinds it finds work for are claimed. A lone claim (Agenda woken for one
 * kind by a save, or looking for a kind's next job after taking one) goes straight to its claim: a probe would
 * only add a round trip. The probe may say yes and the claim find nothing (another worker was faster); it never
 * says no to a job the claim would have taken at that moment.
 */
export class ClaimProbe {
  private waiting: Waiting[] | undefined;

  constructor(private readonly dueNames: (asks: readonly ProbeAsk[]) => Promise<ReadonlySet<string>>) {}

  claimable(ask: ProbeAsk): Promise<boolean> {
    if (!this.waiting) {
      this.waiting = [];
      // Agenda asks for every kind in one synchronous loop: all of them are here by the next microtask.
      queueMicrotask(() => this.flush());
    }
    const waiting = this.waiting;
    return new Promise((resolve, reject) => waiting.push({ ask, resolve, reject }));
  }

  private flush(): void {
    const batch = this.waiting ?? [];
    this.waiting = undefined;
    if (batch.length === 1) {
      batch[0]!.resolve(true);
      return;
    }
    this.dueNames(batch.map((one) => one.ask)).then(
      (names) => {
        for (const one of batch) one.resolve(names.has(one.ask.jobName));
      },
      (error: unknown) => {
        for (const one of batch) one.reject(error);
      },
    );
  }
}
