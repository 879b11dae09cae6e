import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DataSource } from 'typeorm';
import type { HttpConfig } from '../config.js';
import { createHealthRouter } from './health.router.js';

export interface HttpServer {
  /** The port actually bound (useful with port 0). */
  port: number;
  close(): Promise<void>;
}

/** The HTTP side of the service. Routers are mounted here; the job API joins the health checks in its issue. */
export async function startHttpServer(config: HttpConfig, dataSource: DataSource): Promise<HttpServer> {
  const app = express();
  app.disable('x-powered-by');
  app.use(createHealthRouter(dataSource));
  const server: Server = await new Promise((resolve, reject) => {
    const listening = app.listen(config.port, config.host, (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
