import type { Response } from 'express';
import type { NamingSet } from '../core/naming.js';
import type { Principal } from '../core/principal.js';
import { positionOf, type ChangePosition } from '../jobs/job-changes.js';
import type { JobUpdatesFeed } from '../jobs/job-updates-feed.js';
import type { JobSummaryRow } from '../jobs/list-jobs.js';
import { encodeChangeCursor } from './cursors.js';
import { summaryBody } from './job-summaries.js';
import { responseOf } from './respond.js';
import { jobSchemas } from './schemas/jobs.js';

/** A heartbeat at least this often (the contract says 15 s), so clients and proxies can tell a quiet stream from a dead one. */
export const HEARTBEAT_MS = 10_000;

/** The feed hands every stream of an organization the same row objects: each is rendered once per naming set. */
const rendered = new WeakMap<JobSummaryRow, Partial<Record<NamingSet['set'], string>>>();

function jobLine(names: NamingSet, row: JobSummaryRow): string {
  const lines = rendered.get(row) ?? {};
  let line = lines[names.set];
  if (line === undefined) {
    const body = { type: names.record, cursor: encodeChangeCursor(positionOf(row)), [names.record]: summaryBody(names, row) };
    line = `${JSON.stringify(responseOf(jobSchemas[names.set].updateLine, body))}\n`;
    lines[names.set] = line;
    rendered.set(row, lines);
  }
  return line;
}

const heartbeatLine = (position: ChangePosition) => `${JSON.stringify({ type: 'heartbeat', cursor: encodeChangeCursor(position) })}\n`;

/**
 * NDJSON of the organization's jobs as they are created and change (GET …/updates): a heartbeat first (its cursor
 * is where this stream starts), then a line per written job in write order, and a heartbeat every `heartbeatMs`
 * carrying the latest position. A client resumes with the last cursor it read: nothing repeated, nothing missed.
 * The stream never ends by itself; the client leaving unsubscribes it.
 */
export function streamJobUpdates(
  res: Response,
  { updates, names, principal, after, heartbeatMs = HEARTBEAT_MS }: { updates: JobUpdatesFeed; names: NamingSet; principal: Principal; after?: ChangePosition; heartbeatMs?: number },
): void {
  let position = after ?? updates.now();
  res.status(200).type('application/x-ndjson');
  res.setHeader('cache-control', 'no-store');
  // Proxies that buffer (nginx) would hold the lines back.
  res.setHeader('x-accel-buffering', 'no');
  res.flushHeaders();
  res.write(heartbeatLine(position));
  const heartbeat = setInterval(() => res.write(heartbeatLine(position)), heartbeatMs);
  const unsubscribe = updates.follow(principal.organizationId, position, {
    advance(rows, next) {
      position = next;
      if (rows.length > 0) res.write(rows.map((row) => jobLine(names, row)).join(''));
    },
    end(reason) {
      clearInterval(heartbeat);
      // A failed read cuts the connection (the client resumes with its cursor); a closing server ends it.
      if (reason === 'failed') res.destroy();
      else res.end();
    },
  });
  res.on('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
  });
}
