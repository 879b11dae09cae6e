/**
 * A long run's history for a job that exists (a `review_required` job created through the API, which no worker
 * picks up): what a run of `steps` steps would leave, written straight into the store — `eventsPerStep` events a
 * step (step.started, planner calls, artifact.created, step.passed/failed), a PNG screenshot a step in the
 * artifact storage, and a failed step with its finding. The job page's long-list test and screenshots read it; a
 * real run of 200 steps would take minutes.
 */
import { createHash, randomUUID } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { DataSource } from 'typeorm';
import type { ArtifactStorage } from '../../../src/artifacts/artifact-storage.js';
import { Artifact } from '../../../src/store/entities/artifact.entity.js';
import { Finding } from '../../../src/store/entities/finding.entity.js';
import { JobEvent } from '../../../src/store/entities/job-event.entity.js';
import { Job } from '../../../src/store/entities/job.entity.js';

export interface LongJobOptions {
  jobId: string;
  steps: number;
  /** At least 3 (start, screenshot, end); the rest are planner calls. */
  eventsPerStep: number;
  /** The step (0-based) that fails with expected and actual; the run goes on (a disputed failure). */
  failingStep: number;
  /** Text put where a run writes what the page showed: step 1's description, a page title and URL, a console line, expected and actual. */
  hostile?: string;
}

/** A width × height PNG of one colour: a stand-in screenshot (crc32 and zlib from node). */
export function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x += 1) row.set([r, g, b], 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

export async function fillLongHistory(store: DataSource, storage: ArtifactStorage, options: LongJobOptions): Promise<{ events: number; screenshots: number }> {
  const job = await store.getRepository(Job).findOneByOrFail({ id: options.jobId });
  // The run ended a moment ago: its events are 100 ms apart.
  const start = Date.now() - (options.steps * options.eventsPerStep + 10) * 100;
  const events: Array<Pick<JobEvent, 'jobId' | 'seq' | 'type' | 'at' | 'data'>> = [];
  const event = (type: string, data: object) => events.push({ jobId: job.id, seq: events.length, type, at: new Date(start + events.length * 100), data });
  const artifacts: Artifact[] = [];
  const png = solidPng(640, 400, [90, 120, 200]);
  const sha256 = createHash('sha256').update(png).digest('hex');
  let failedFinding: Finding | undefined;

  event('job.created', { trigger: job.trigger, parentJobId: null });
  event('job.queued', {});
  event('job.started', { baseUrl: job.baseUrl, attempt: 1 });
  const { hostile } = options;
  if (hostile !== undefined) event('page.visited', { url: 'javascript:window.__pwned=4', title: hostile, status: 200, ms: 80 });
  for (let index = 0; index < options.steps; index += 1) {
    const description = hostile !== undefined && index === 0 ? hostile : `Click "Add item ${index + 1} to cart" and check the cart count`;
    event('step.started', { index, action: 'click', description, attempt: 1 });
    for (let call = 0; call < options.eventsPerStep - 3; call += 1) {
      event('planner.called', { stepIndex: index, model: 'fake-model', attempt: 1, promptTokens: 800 + call, completionTokens: 40, totalTokens: 840 + call, durationMs: 120, outcome: 'ok' });
    }
    const id = randomUUID();
    const storageKey = `${job.organizationId}/${job.id}/${id}`;
    await storage.put(storageKey, png);
    artifacts.push(Object.assign(new Artifact(), { id, organizationId: job.organizationId, jobId: job.id, kind: 'screenshot', name: `step-${index + 1}.png`, contentType: 'image/png', sizeBytes: png.length, sha256, storageKey, stepIndex: index }));
    event('artifact.created', { artifactId: id, kind: 'screenshot', name: `step-${index + 1}.png`, sizeBytes: png.length });
    if (index === options.failingStep) {
      const comparison = hostile !== undefined ? { expected: hostile, actual: [hostile, 'javascript:window.__pwned=5'] } : { expected: `Cart (${index + 1})`, actual: [`Cart (${index})`, 'Cart'] };
      event('step.failed', { index, ms: 3_010, kind: 'assertion_failed', message: `No text shows "Cart (${index + 1})"`, disputed: true, ...comparison });
      failedFinding = Object.assign(new Finding(), {
        id: randomUUID(), organizationId: job.organizationId, jobId: job.id, position: 0, kind: 'assertion_failed', severity: 'error',
        title: `Step ${index + 1} failed: Expect the text "Cart (${index + 1})"`, detail: `No text shows "Cart (${index + 1})"`, stepIndex: index,
        ...comparison, artifactIds: [id], disputedAt: null, disputedBy: null, disputeReason: null,
      });
    } else event('step.passed', { index, ms: 400 + (index % 7) * 90 });
  }
  event('job.failed', { findings: 1, errors: 1 });

  await store.transaction(async (manager) => {
    await manager.delete(JobEvent, { jobId: job.id });
    for (let at = 0; at < events.length; at += 500) await manager.insert(JobEvent, events.slice(at, at + 500));
    for (let at = 0; at < artifacts.length; at += 100) await manager.insert(Artifact, artifacts.slice(at, at + 100));
    if (failedFinding) await manager.insert(Finding, failedFinding);
    if (hostile !== undefined) {
      await manager.insert(Finding, Object.assign(new Finding(), {
        id: randomUUID(), organizationId: job.organizationId, jobId: job.id, position: 1, kind: 'console_error', severity: 'warning',
        title: `Console error: ${hostile}`, detail: `${hostile}\nat javascript:window.__pwned=6`, stepIndex: null, expected: null, actual: null, artifactIds: [],
        disputedAt: null, disputedBy: null, disputeReason: null,
      }));
    }
    await manager.update(Job, { id: job.id }, { status: 'failed', resolution: null, createdAt: new Date(start - 1_000), startedAt: new Date(start), finishedAt: new Date(start + events.length * 100) });
  });
  return { events: events.length, screenshots: artifacts.length };
}
