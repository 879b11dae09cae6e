/**
 * A job as long as a long run leaves it, made from a real one: the steps of `sourceJobId` (a run that passed, with
 * its step events and screenshots) repeated until the new job has `events` events and `screenshots` screenshot
 * artifacts (rows pointing at the source's stored bytes), in the source's organization, finished like the source.
 * For the dashboard's tests and bench: "a job page with 2,000 events and 200 screenshots" (issue 27).
 */
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { Artifact } from '../../src/store/entities/artifact.entity.js';
import { JobEvent } from '../../src/store/entities/job-event.entity.js';
import { Job } from '../../src/store/entities/job.entity.js';

export interface LargeJobOptions {
  events: number;
  screenshots: number;
}

const STEP_EVENTS = new Set(['page.visited', 'step.started', 'step.passed']);

export async function cloneIntoLargeJob(store: DataSource, sourceJobId: string, { events, screenshots }: LargeJobOptions): Promise<string> {
  const source = await store.getRepository(Job).findOneByOrFail({ id: sourceJobId });
  const history = await store.getRepository(JobEvent).find({ where: { jobId: sourceJobId }, order: { seq: 'ASC' } });
  const shots = await store.getRepository(Artifact).find({ where: { jobId: sourceJobId, kind: 'screenshot' } });
  const steps = history.filter((event) => STEP_EVENTS.has(event.type));
  if (steps.length === 0 || (shots.length === 0 && screenshots > 0)) throw new Error(`job ${sourceJobId} has no steps or no screenshots to repeat`);
  const head = history.filter((event) => event.type.startsWith('job.') && !/^job\.(passed|failed|errored|cancelled)$/.test(event.type));
  const tail = history.filter((event) => /^job\.(passed|failed|errored|cancelled)$/.test(event.type));

  const id = randomUUID();
  await store.getRepository(Job).insert({ ...source, id, sourceKey: null, parentJobId: null, workflowId: null, checkId: null, task: `${source.task ?? 'Replay'} (×${events} events)` });
  const rows: Array<Partial<JobEvent>> = [];
  const push = (type: string, data: Record<string, unknown>, at: Date) => rows.push({ jobId: id, seq: rows.length, type, at, data });
  for (const event of head) push(event.type, event.data as Record<string, unknown>, event.at);
  const stepsPerRound = steps.filter((event) => event.type === 'step.started').length || 1;
  const artifacts: Array<Partial<Artifact>> = [];
  let round = 0;
  while (rows.length < events - tail.length) {
    for (const event of steps) {
      if (rows.length >= events - tail.length) break;
      const data = { ...(event.data as Record<string, unknown>) };
      if (typeof data.index === 'number') data.index = round * stepsPerRound + data.index;
      push(event.type, data, new Date(event.at.getTime() + round * 1000));
      if (event.type === 'step.passed' && artifacts.length < screenshots && rows.length < events - tail.length) {
        const shot = shots[artifacts.length % shots.length]!;
        const artifactId = randomUUID();
        artifacts.push({ ...shot, id: artifactId, jobId: id, stepIndex: typeof data.index === 'number' ? data.index : null, name: `step-${artifacts.length + 1}.png` });
        push('artifact.created', { artifactId, kind: shot.kind, name: `step-${artifacts.length}.png`, sizeBytes: shot.sizeBytes }, event.at);
      }
    }
    round += 1;
  }
  for (const event of tail) push(event.type, event.data as Record<string, unknown>, event.at);
  for (let start = 0; start < artifacts.length; start += 100) await store.getRepository(Artifact).insert(artifacts.slice(start, start + 100));
  for (let start = 0; start < rows.length; start += 500) await store.getRepository(JobEvent).insert(rows.slice(start, start + 500));
  return id;
}
