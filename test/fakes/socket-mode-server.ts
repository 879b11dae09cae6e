/**
 * A local stand-in for Slack's Socket Mode endpoint: a real WebSocket server (`ws`) on 127.0.0.1 that greets each
 * client with `hello`, pushes envelopes to it and hands back the client's ack. The fake Web API
 * (`startFakeSlack({ socketMode: true })`) answers `apps.connections.open` with `connectionUrl()`, so a real
 * `SocketModeClient` or Bolt `App({ socketMode: true })` connects here exactly as it would to Slack.
 * Wire format: https://docs.slack.dev/apis/events-api/using-socket-mode and @slack/socket-mode 3
 * (`SocketModeClient.onWebSocketMessage`, which waits for `hello` before it counts as connected).
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export type EnvelopeType = 'events_api' | 'interactive' | 'slash_commands';

/** What a client sends back for an envelope: `{ envelope_id, payload? }` (payload: the ack's response, if any). */
export interface SocketAck {
  envelope_id: string;
  payload?: Record<string, unknown>;
}

export interface SendOptions {
  /** Slack's redelivery counter; 0 for a first delivery. */
  retryAttempt?: number;
  /** Why Slack redelivers, e.g. `timeout`; '' for a first delivery. */
  retryReason?: string;
  /** Default: true except for events_api (Slack lets slash commands and interactions answer in the ack). */
  acceptsResponsePayload?: boolean;
  /** How long to wait for a client and then for its ack. Default 3000 ms, Slack's own ack deadline. */
  timeoutMs?: number;
}

export interface FakeSocketModeServer {
  /** `ws://127.0.0.1:<port>/link/` */
  url: string;
  /** A fresh connection URL like Slack's (`…/link/?ticket=…&app_id=…`); what apps.connections.open returns. */
  connectionUrl(appId: string): string;
  /** Open client connections now. */
  readonly openConnections: number;
  /** Connections accepted since start (a reconnect counts again). */
  readonly totalConnections: number;
  /** Every parsed message clients sent (acks), in order. */
  received: SocketAck[];
  /** Resolves once at least `count` connections were accepted since start. */
  waitForConnection(count?: number, timeoutMs?: number): Promise<void>;
  /** Sends an envelope to the newest open connection; resolves with the client's ack, rejects after the timeout. */
  send(type: EnvelopeType, payload: Record<string, unknown>, options?: SendOptions): Promise<SocketAck>;
  /** Asks clients to reconnect the way Slack does before it recycles a host (`{"type":"disconnect"}`). */
  requestReconnect(reason?: 'warning' | 'refresh_requested' | 'link_disabled'): void;
  /** Drops every connection without a close frame: a network failure. */
  dropConnections(): void;
  /** Waits up to 1 s for clients to finish closing, then cuts the rest and stops. Disconnect your clients first. */
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 3000;
/** Slack pings every few seconds; @slack/socket-mode disconnects after 30 s without a server ping. */
const PING_INTERVAL_MS = 10_000;

export async function startFakeSocketModeServer(): Promise<FakeSocketModeServer> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `ws://127.0.0.1:${port}/link/`;

  const open: WebSocket[] = [];
  const received: SocketAck[] = [];
  const waitingAcks = new Map<string, (ack: SocketAck) => void>();
  let totalConnections = 0;
  let ticket = 0;

  server.on('connection', (socket, request) => {
    totalConnections += 1;
    open.push(socket);
    socket.send(
      JSON.stringify({
        type: 'hello',
        num_connections: open.length,
        debug_info: { host: 'applink-fake', build_number: 1, approximate_connection_time: 18060 },
        // The app id travels in the connection URL (see `connectionUrl`).
        connection_info: { app_id: new URL(request.url ?? '/', url).searchParams.get('app_id') ?? '' },
      }),
    );
    const ping = setInterval(() => socket.ping(), PING_INTERVAL_MS);
    ping.unref();
    socket.on('message', (data: Buffer) => {
      let message: SocketAck;
      try {
        message = JSON.parse(data.toString('utf8')) as SocketAck;
      } catch {
        return; // Slack ignores what it cannot parse; so does the fake
      }
      received.push(message);
      waitingAcks.get(message.envelope_id)?.(message);
    });
    socket.on('close', () => {
      clearInterval(ping);
      open.splice(open.indexOf(socket), 1);
    });
    socket.on('error', () => undefined); // a dropped client is a test scenario, not a crash
  });
  const waitUntil = async (condition: () => boolean, timeoutMs: number, what: string) => {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`fake Socket Mode server: ${what} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  return {
    url,
    connectionUrl: (appId) => {
      ticket += 1;
      return `${url}?ticket=fake-ticket-${ticket}&app_id=${encodeURIComponent(appId)}`;
    },
    get openConnections() {
      return open.length;
    },
    get totalConnections() {
      return totalConnections;
    },
    received,
    waitForConnection: (count = 1, timeoutMs = DEFAULT_TIMEOUT_MS) =>
      waitUntil(() => totalConnections >= count && open.length > 0, timeoutMs, `no connection #${count}`),

    async send(type, payload, options = {}) {
      const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      await waitUntil(() => open.some((socket) => socket.readyState === socket.OPEN), timeoutMs, 'no open client');
      const socket = [...open].reverse().find((candidate) => candidate.readyState === candidate.OPEN) as WebSocket;
      const envelopeId = randomUUID();
      const acked = new Promise<SocketAck>((resolve, reject) => {
        const timer = setTimeout(() => {
          waitingAcks.delete(envelopeId);
          reject(new Error(`fake Socket Mode server: no ack for ${type} envelope ${envelopeId} within ${timeoutMs} ms`));
        }, timeoutMs);
        waitingAcks.set(envelopeId, (ack) => {
          clearTimeout(timer);
          waitingAcks.delete(envelopeId);
          resolve(ack);
        });
      });
      socket.send(
        JSON.stringify({
          envelope_id: envelopeId,
          type,
          payload,
          accepts_response_payload: options.acceptsResponsePayload ?? type !== 'events_api',
          ...(type === 'events_api'
            ? { retry_attempt: options.retryAttempt ?? 0, retry_reason: options.retryReason ?? '' }
            : {}),
        }),
      );
      return acked;
    },

    requestReconnect(reason = 'refresh_requested') {
      const message = JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'applink-fake' } });
      for (const socket of open) socket.send(message);
    },
    dropConnections() {
      for (const socket of [...open]) socket.terminate();
    },
    async close() {
      // Bolt's `app.stop()` resolves before the client's close handshake ends; cutting the socket mid-handshake leaves
      // the client's 30 s handshake timer running (Jest then does not exit). Give clients that are leaving a moment.
      await waitUntil(() => open.length === 0, 1000, 'clients still connected').catch(() => undefined);
      for (const socket of [...open]) socket.terminate();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
