/**
 * bench:chat's sender: signed Events API `app_mention` deliveries, open loop (delivery i is due at i / rate whatever
 * the answers do, as Slack sends), each a new `event_id`. Ack latency counts from the due time to the last byte of
 * the answer, so a server that falls behind cannot hide it by slowing the sender. Runs in a child process
 * (mention-process.ts) so the sender's work never shares the measured servers' event loop.
 */
import http from 'node:http';
import { appMention, eventCallback, signSlackRequest, slackTs } from '../../test/support/slack-requests.js';
import { percentile } from './stats.js';
import { runInChild } from './child-run.js';

export interface MentionOrder {
  /** The receiver's full URL (`http://127.0.0.1:<port>/api/webhooks/chat`). */
  url: string;
  signingSecret: string;
  rate: number;
  /** Measured seconds, after `warmupSeconds` sent the same way and not counted. */
  seconds: number;
  warmupSeconds: number;
  teamId: string;
  channelId: string;
  userId: string;
  /** The mention's text after `<@bot>`. */
  text: string;
  botUserId: string;
  /** Makes this run's event ids its own (`Ev<prefix><n>`), so a second run is not a redelivery. */
  eventPrefix: string;
}

export interface AckResult {
  /** Measured deliveries sent (warm-up excluded). */
  sent: number;
  acked: number;
  errors: number;
  firstError?: string;
  /** From the first measured due time to the last measured answer. */
  seconds: number;
  p50: number;
  p99: number;
  max: number;
  /** Acks that took longer than 1 s (Slack gives up at 3 s and retries). */
  overOneSecond: number;
  /** How late the sender itself was at its worst (its own scheduling on a busy machine), ms. */
  maxSendLag: number;
}

const ANSWER_TIMEOUT_MS = 30_000;

function deliver(agent: http.Agent, url: URL, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: url.pathname,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        timeout: ANSWER_TIMEOUT_MS,
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer in ${ANSWER_TIMEOUT_MS} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}

export async function openLoopMentions(order: MentionOrder): Promise<AckResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const url = new URL(order.url);
  const interval = 1000 / order.rate;
  const warmup = Math.round(order.warmupSeconds * order.rate);
  const total = warmup + Math.round(order.seconds * order.rate);
  const begin = performance.now() + 20;
  const due = (i: number) => begin + i * interval;
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let maxSendLag = 0;
  let lastAnswer = due(warmup);
  const inFlight: Promise<void>[] = [];
  try {
    for (let i = 0; i < total; i++) {
      const wait = due(i) - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      maxSendLag = Math.max(maxSendLag, performance.now() - due(i));
      const body = JSON.stringify(
        eventCallback(
          appMention({ user: order.userId, text: `<@${order.botUserId}> ${order.text}`, channel: order.channelId, teamId: order.teamId, ts: slackTs() }),
          { teamId: order.teamId, eventId: `Ev${order.eventPrefix}${i}`, botUserId: order.botUserId },
        ),
      );
      const headers = signSlackRequest(order.signingSecret, body) as unknown as Record<string, string>;
      const measured = i >= warmup;
      inFlight.push(
        deliver(agent, url, body, headers).then(
          (status) => {
            const answered = performance.now();
            if (!measured) return;
            lastAnswer = Math.max(lastAnswer, answered);
            if (status === 200) latencies.push(answered - due(i));
            else {
              errors++;
              firstError ??= `HTTP ${status}`;
            }
          },
          (error: unknown) => {
            if (!measured) return;
            errors++;
            firstError ??= error instanceof Error ? error.message : String(error);
          },
        ),
      );
    }
    await Promise.all(inFlight);
  } finally {
    agent.destroy();
  }
  return {
    sent: total - warmup,
    acked: latencies.length,
    errors,
    firstError,
    seconds: (lastAnswer - due(warmup)) / 1000,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: percentile(latencies, 100),
    overOneSecond: latencies.filter((ms) => ms > 1000).length,
    maxSendLag,
  };
}

/** Runs `openLoopMentions` in a child process (mention-process.ts) and resolves with its result. */
export function sendMentionsElsewhere(order: MentionOrder): Promise<AckResult> {
  return runInChild(new URL('./mention-process.ts', import.meta.url), order, 'mention sender');
}
