/**
 * The two HTTP servers `bench/api.bench.ts` measures: the service's app composed as `qa serve` composes it (no
 * job processors: runnable jobs are only enqueued), and a bare Express app as the peer.
 */
import { randomUUID } from 'node:crypto';
import express from 'express';
import type { DataSource } from 'typeorm';
import { startHttpServer, type HttpServer } from '../../src/api/server.js';
import { startServe } from '../../src/compose/index.js';
import type { Config } from '../../src/config.js';
import type { EventFeed } from '../../src/jobs/event-feed.js';
import type { Logger } from '../../src/logger.js';
import { createRulePlanner } from '../../src/planner/rule-planner.js';
import type { Queue } from '../../src/queue/index.js';

export interface BenchApi {
  base: string;
  feed: EventFeed;
  queue: Queue;
  /** Reads the event feed has made so far. */
  feedReads(): number;
  close(): Promise<void>;
}

/** The real app on a random loopback port. Nothing runs the queue: no worker is started. */
export async function startServiceApi(config: Config, logger: Logger, dataSource: DataSource): Promise<BenchApi> {
  let reads = 0;
  const api = await startServe({ ...config, http: { ...config.http, port: 0 } }, logger, {
    dataSource,
    planner: createRulePlanner(),
    readSecret: () => undefined,
    feedRead: (read) => (jobId, after) => {
      reads++;
      return read(jobId, after);
    },
  });
  return {
    base: `http://${config.http.host}:${api.port}`,
    feed: api.services.feed,
    queue: api.services.queue,
    feedReads: () => reads,
    close: () => api.stop(),
  };
}

/** The peer: Express with its JSON body parser, a POST answering 202 and a GET answering a small JSON object. */
export async function startBareExpress(host: string): Promise<{ base: string; server: HttpServer }> {
  const app = express();
  app.disable('x-powered-by');
  app.post('/things', express.json({ limit: '256kb' }), (req, res) => {
    res.status(202).json({ id: randomUUID(), received: Object.keys(req.body as object).length });
  });
  app.get('/things/:id', (req, res) => {
    res.json({ thing: { id: req.params.id, status: 'queued', createdAt: new Date() }, events: [] });
  });
  const server = await startHttpServer({ host, port: 0 }, app);
  return { base: `http://${host}:${server.port}`, server };
}
