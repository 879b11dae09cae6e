import { Router, type Response } from 'express';
import type { Principal } from '../core/principal.js';
import type { IngestionReads } from '../repos/ingestion-reads.js';
import type { IngestionEvent } from '../store/entities/ingestion-event.entity.js';
import { principalOf } from './auth.js';
import { parse } from './error-mapper.js';
import { guardPathIds, undecodablePathAsNotFound } from './ids.js';
import { ingestionDetailBody } from './ingestion-bodies.js';
import { iso, responseOf } from './respond.js';
import { afterQuery } from './requests/ingestions.js';
import { ingestionDetailSchema, ingestionEventSchema } from './schemas/ingestions.js';

const lineOf = (event: IngestionEvent) =>
  `${JSON.stringify(responseOf(ingestionEventSchema, { index: event.seq, type: event.type, at: iso(event.at), data: event.data as Record<string, unknown> }))}\n`;

/**
 * NDJSON history after `after`, then new events as they are committed (read every `pollMs`) until the run is over:
 * then the response ends cleanly. A read that fails cuts the connection, so a client tells a cut from the end and
 * resumes with `?after`.
 */
async function streamEvents(res: Response, reads: IngestionReads, principal: Principal, id: string, after: number, pollMs: number): Promise<void> {
  let last = after;
  let page = await reads.eventsAfter(principal, id, last); // 404 before any byte
  res.status(200).type('application/x-ndjson');
  res.setHeader('cache-control', 'no-store');
  res.flushHeaders();
  let closed = false;
  res.on('close', () => (closed = true));
  try {
    for (;;) {
      if (page.events.length > 0) {
        res.write(page.events.map(lineOf).join(''));
        last = page.events.at(-1)!.seq;
      }
      if (page.over) {
        res.end();
        return;
      }
      if (page.events.length === 0) await new Promise((resolve) => setTimeout(resolve, pollMs));
      if (closed) return;
      page = await reads.eventsAfter(principal, id, last);
    }
  } catch {
    res.destroy();
  }
}

/** `GET /api/ingestions/:id` (the run in full) and `GET /api/ingestions/:id/events` (NDJSON, `?after=n`). */
export function createIngestionsRouter(reads: IngestionReads, options: { pollMs?: number } = {}): Router {
  const router = Router();
  guardPathIds(router, { id: 'ingestion' });

  router.get('/:id', async (req, res) => {
    res.json(responseOf(ingestionDetailSchema, ingestionDetailBody(await reads.get(principalOf(res), req.params.id))));
  });

  router.get('/:id/events', async (req, res) => {
    const { after = -1 } = parse(afterQuery, req.query);
    await streamEvents(res, reads, principalOf(res), req.params.id, after, options.pollMs ?? 250);
  });

  router.use(undecodablePathAsNotFound('ingestion'));
  return router;
}
