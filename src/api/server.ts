import type { Express } from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpConfig } from '../config.js';

export interface HttpServer {
  /** The port actually bound (useful with port 0). */
  port: number;
  close(): Promise<void>;
}

/** Binds the app (app.ts) to the configured address. */
export async function startHttpServer(config: HttpConfig, app: Express): Promise<HttpServer> {
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
