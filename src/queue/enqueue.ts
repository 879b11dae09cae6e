import type { Agenda, Job } from 'agenda';
import type { z } from 'zod';
import type { QueueJobDefinition } from './job-definition.js';
import { invalidPayload } from './register-job.js';

/** Saves a job to run now, after checking its payload against the definition (a bad payload never reaches the table). */
export async function enqueue<Schema extends z.ZodType>(
  agenda: Agenda,
  definition: QueueJobDefinition<Schema>,
  payload: z.input<Schema>,
): Promise<Job<z.output<Schema>>> {
  const parsed = definition.payload.safeParse(payload);
  if (!parsed.success) throw invalidPayload(definition.name, parsed.error);
  return agenda.now(definition.name, parsed.data);
}
