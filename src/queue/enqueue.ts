import { toJobId, type Agenda, type Job, type JobParameters } from 'agenda';
import type { z } from 'zod';
import type { Queue } from './create-queue.js';
import type { QueueJobDefinition } from './job-definition.js';
import type { Statement } from './mysql-backend/index.js';
import { invalidPayload } from './register-job.js';

/** Saves a job to run now, after checking its payload against the definition (a bad payload never reaches the table). */
export async function enqueue<Schema extends z.ZodType>(
  agenda: Agenda,
  definition: JobKind<Schema>,
  payload: z.input<Schema>,
): Promise<Job<z.output<Schema>>> {
  return agenda.now(definition.name, parse(definition, payload));
}

/** What a producer needs of a definition: its name and payload schema (not its handler). */
export type JobKind<Schema extends z.ZodType> = Pick<QueueJobDefinition<Schema>, 'name' | 'payload'>;

/** A queue job to be written by the caller's own transaction. */
export interface StagedQueueJob {
  /** The queue job's id, known before anything is written. */
  id: string;
  /** The INSERT to run inside the caller's transaction (`?` placeholders, the same on MySQL and SQLite). */
  statement: Statement;
  /** Tells workers (this process, or every process over Redis) that the job is there; call after the commit. */
  announce(): Promise<void>;
}

/**
 * `enqueue` for a job that must exist exactly when the caller's rows do: the row Agenda's `now()` would save,
 * as a statement for the caller's transaction instead of a commit of its own. One commit instead of two, and no
 * queue job without its record (or the reverse) if either write fails. Workers that miss `announce` (a crash
 * right after the commit) still find the job at their next poll.
 */
export function stageNow<Schema extends z.ZodType>(queue: Queue, definition: JobKind<Schema>, payload: z.input<Schema>): StagedQueueJob {
  const job = queue.agenda.create(definition.name, parse(definition, payload));
  job.schedule(new Date());
  const { id, statement } = queue.backend.stageInsert(job.toJson(true) as JobParameters, queue.agenda.attrs.name);
  return {
    id,
    statement,
    async announce() {
      job.attrs._id = toJobId(id);
      if (queue.agenda.hasNotificationChannel()) await queue.agenda.publishJobNotification(job);
    },
  };
}

function parse<Schema extends z.ZodType>(definition: JobKind<Schema>, payload: z.input<Schema>): z.output<Schema> {
  const parsed = definition.payload.safeParse(payload);
  if (!parsed.success) throw invalidPayload(definition.name, parsed.error);
  return parsed.data;
}
