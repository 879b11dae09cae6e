/**
 * Browser jobs kept running in the background of a bench: `lanes` jobs at a time, each lane creating its next job
 * as soon as its last one ends, until stopped. A job's end is read from the database (status) every 100 ms.
 */
import type { DataSource } from 'typeorm';
import { Job } from '../../src/store/entities/job.entity.js';

const TERMINAL = new Set(['passed', 'failed', 'errored', 'cancelled']);

export interface LaneResult {
  /** Jobs that ended, by status. */
  ended: Record<string, number>;
  /** Wall time of each ended job, create to end, ms. */
  durations: number[];
}

export interface BrowserLanes {
  /** Stops creating jobs and waits for the running ones to end. */
  stop(): Promise<LaneResult>;
}

export async function waitForEnd(dataSource: DataSource, jobId: string): Promise<string> {
  for (;;) {
    const job = await dataSource.getRepository(Job).findOne({ select: { id: true, status: true }, where: { id: jobId } });
    if (job && TERMINAL.has(job.status)) return job.status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function keepBrowserJobsRunning(dataSource: DataSource, lanes: number, create: () => Promise<string>): BrowserLanes {
  let stopping = false;
  const result: LaneResult = { ended: {}, durations: [] };
  const lane = async () => {
    while (!stopping) {
      const began = performance.now();
      const status = await waitForEnd(dataSource, await create());
      result.ended[status] = (result.ended[status] ?? 0) + 1;
      result.durations.push(performance.now() - began);
    }
  };
  const running = Promise.all(Array.from({ length: lanes }, lane));
  return {
    async stop() {
      stopping = true;
      await running;
      return result;
    },
  };
}
