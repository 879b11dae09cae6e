import type { Agenda } from 'agenda';
import { z } from 'zod';

/** The queue job that runs one QA job in a browser. Its handler lands with the browser workflow. */
export const QA_RUN_JOB = 'qa-run';

export const qaRunPayload = z.object({ jobId: z.string().uuid() });

/** Starts the durable workflow for a runnable job; resolves with the workflow's id (the queue job's id). */
export async function enqueueQaRun(agenda: Agenda, jobId: string): Promise<string> {
  const job = await agenda.now(QA_RUN_JOB, qaRunPayload.parse({ jobId }));
  return String(job.attrs._id);
}
