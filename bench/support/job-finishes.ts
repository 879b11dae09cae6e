/**
 * Waits for jobs of a worker in the bench's own process to end, without polling: the worker's `eventsWritten` hook
 * says when a commit wrote a job's terminal event, and the job's status is read then (bench/runs.bench.ts,
 * bench/replay-ci.bench.ts).
 */
import type { DataSource } from 'typeorm';
import { isTerminalEvent, TERMINAL } from '../../src/core/job-lifecycle.js';
import { Job } from '../../src/store/entities/job.entity.js';

export class JobFinishes {
  private readonly waiting = new Map<string, (status: string) => void>();
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The worker's `eventsWritten` hook: the job's status is read after the commit that ends it, not after every commit
   * (that would add the bench's own reads, about ten a replay, to the CPU it measures).
   */
  readonly written = (jobId: string, written: readonly string[]): void => {
    if (this.waiting.has(jobId) && written.some(isTerminalEvent)) void this.check(jobId);
  };

  /** Resolves with the job's terminal status (passed, failed, errored, cancelled). */
  async wait(jobId: string): Promise<string> {
    const ended = new Promise<string>((resolve) => this.waiting.set(jobId, resolve));
    await this.check(jobId); // it may have ended before the wait was registered
    return ended;
  }

  private async check(jobId: string): Promise<void> {
    const job = await this.dataSource.getRepository(Job).findOne({ select: { id: true, status: true }, where: { id: jobId } });
    const resolve = this.waiting.get(jobId);
    if (job && (TERMINAL as ReadonlySet<string>).has(job.status) && resolve) {
      this.waiting.delete(jobId);
      resolve(job.status);
    }
  }
}
