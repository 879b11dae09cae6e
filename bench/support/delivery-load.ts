/**
 * bench:webhooks' and bench:identity's sender, as the provider is. Code host: signed `pull_request` deliveries (a
 * recorded payload from `@octokit/webhooks-examples`, its PR number and head SHA made unique per delivery) with the
 * `x-codehost-*` headers. Identity provider: signed `user.updated` deliveries of a user of its own each (docs/people.md,
 * "Identity webhooks"), `x-identity-signature` and `x-identity-delivery-id`. Every other one a redelivery of an earlier
 * delivery id with the same bytes. Runs in a child process
 * (delivery-process.ts) so building and signing bodies never shares the measured servers' event loop.
 *
 * - `closed`: `clients` keep-alive connections, each sending its next delivery when the last is answered; latency from
 *   sending to the answer's last byte. What the receiver sustains.
 * - `paced`: delivery i due at i / rate over `clients` connections (each sends its next when due or when answered);
 *   latency from the due time, so a receiver that falls behind cannot hide it by slowing the sender; the phase lasts
 *   twice its length at most, so the achieved rate shows how far behind it fell.
 */
import { createHash, createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import http from 'node:http';
import { sign } from '@octokit/webhooks-methods';
import type { WebhookDefinition } from '@octokit/webhooks-examples';
import { percentile } from './stats.js';
import { runInChild } from './child-run.js';

export interface DeliveryOrder {
  /** The receiver's full URL. */
  url: string;
  secret: string;
  mode: 'closed' | 'paced';
  clients: number;
  /** Measured seconds, after `warmupSeconds` sent the same way and not counted. */
  seconds: number;
  warmupSeconds: number;
  /** Deliveries per second (paced only). */
  rate?: number;
  /** Makes this phase's delivery ids its own, so another phase's are not redeliveries. */
  prefix: string;
  /** Whose deliveries (default `codehost`). */
  provider?: 'codehost' | 'identity';
}

export interface DeliveryResult {
  /** Measured deliveries sent (warm-up excluded), of which `duplicates` redelivered an earlier id. */
  sent: number;
  duplicates: number;
  /** Measured deliveries answered 202. */
  accepted: number;
  errors: number;
  firstError?: string;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  /** The answers' `receipt` field (accepted, duplicate, in_progress, requeued), warm-up included; empty for a bare peer. */
  outcomes: Record<string, number>;
  /** Deliveries answered, warm-up included. */
  answeredAll: number;
  /** Every distinct delivery id sent and answered 202, warm-up included. */
  deliveryIds: string[];
}

const ANSWER_TIMEOUT_MS = 30_000;

interface Delivery {
  id: string;
  body: string;
  headers: Record<string, string>;
}

function template(): Record<string, unknown> & { pull_request: Record<string, unknown> & { head: Record<string, unknown> } } {
  const definitions = createRequire(import.meta.url)('@octokit/webhooks-examples') as WebhookDefinition[];
  const example = definitions.find((definition) => definition.name === 'pull_request')?.examples.find((candidate) => (candidate as { action?: string }).action === 'opened');
  if (!example) throw new Error('no recorded pull_request.opened payload in @octokit/webhooks-examples');
  return structuredClone(example) as never;
}

async function signed(secret: string, id: string, body: string): Promise<Delivery> {
  return {
    id,
    body,
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'x-codehost-event': 'pull_request',
      'x-codehost-delivery': id,
      'x-codehost-signature-256': await sign(secret, body),
      'user-agent': 'GitHub-Hookshot/bench',
    },
  };
}

/** A `user.updated` of user `<id>`, signed `t=<now ms>,v1=<HMAC of "<t>.<body>">`. */
function signedIdentity(secret: string, id: string): Delivery {
  const at = new Date().toISOString();
  const body = JSON.stringify({
    id,
    event: 'user.updated',
    data: { object: 'user', id: `user_${id}`, email: `${id}@bench.test`, email_verified: true, first_name: 'Bench', last_name: id, created_at: at, updated_at: at },
    created_at: at,
  });
  const t = Date.now();
  return {
    id,
    body,
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'x-identity-delivery-id': id,
      'x-identity-signature': `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`,
      'user-agent': 'identity-provider/bench',
    },
  };
}

function post(agent: http.Agent, url: URL, delivery: Delivery): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { agent, host: url.hostname, port: url.port, method: 'POST', path: url.pathname, headers: delivery.headers, timeout: ANSWER_TIMEOUT_MS },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer in ${ANSWER_TIMEOUT_MS} ms`)));
    request.on('error', reject);
    request.end(delivery.body);
  });
}

export async function sendDeliveries(order: DeliveryOrder): Promise<DeliveryResult> {
  const identity = order.provider === 'identity';
  const base = identity ? undefined : template();
  const url = new URL(order.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: order.clients });
  const originals: Delivery[] = [];
  /** Delivery n: even ones new, odd ones a redelivery of an earlier one picked at random (maybe still in flight). */
  async function delivery(n: number): Promise<{ delivery: Delivery; duplicate: boolean }> {
    if (n % 2 === 1 && originals.length > 0) return { delivery: originals[Math.floor(Math.random() * originals.length)]!, duplicate: true };
    const number = originals.length + 1;
    let made: Delivery;
    if (base) {
      base.number = number;
      base.pull_request.number = number;
      base.pull_request.head.sha = createHash('sha1').update(`${order.prefix}-${number}`).digest('hex');
      made = await signed(order.secret, `${order.prefix}-${number}`, JSON.stringify(base));
    } else {
      made = signedIdentity(order.secret, `${order.prefix}-${number}`);
    }
    originals.push(made);
    return { delivery: made, duplicate: false };
  }

  const latencies: number[] = [];
  const outcomes: Record<string, number> = {};
  const acceptedIds = new Set<string>();
  let sent = 0;
  let duplicates = 0;
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;
  let answeredAll = 0;
  const warmupMs = order.warmupSeconds * 1000;
  const start = performance.now() + 20;
  const measureFrom = start + warmupMs;
  const interval = order.mode === 'paced' ? 1000 / (order.rate ?? 1) : 0;
  const total = order.mode === 'paced' ? Math.round((order.warmupSeconds + order.seconds) * (order.rate ?? 1)) : Number.POSITIVE_INFINITY;
  const end = measureFrom + order.seconds * 1000;
  let lastAnswer = measureFrom;

  async function one(n: number, dueAt: number): Promise<void> {
    const { delivery: chosen, duplicate } = await delivery(n);
    const sentAt = order.mode === 'paced' ? dueAt : performance.now();
    let ok = false;
    try {
      const answer = await post(agent, url, chosen);
      ok = answer.status === 202;
      if (ok) {
        acceptedIds.add(chosen.id);
        const receipt = answer.text.startsWith('{') ? (JSON.parse(answer.text) as { receipt?: string }).receipt : undefined;
        if (receipt) outcomes[receipt] = (outcomes[receipt] ?? 0) + 1;
      } else firstError ??= `HTTP ${answer.status} ${answer.text.slice(0, 300)}`;
    } catch (error) {
      firstError ??= error instanceof Error ? error.message : String(error);
    }
    answeredAll += 1;
    const answered = performance.now();
    // Closed loop: what was sent after the warm-up. Paced: what was answered after it (a receiver that fell behind
    // answers the warm-up's deliveries late, and those late answers are the point).
    if ((order.mode === 'paced' ? answered : sentAt) < measureFrom) return;
    lastAnswer = Math.max(lastAnswer, answered);
    sent += 1;
    if (duplicate) duplicates += 1;
    if (ok) latencies.push(answered - sentAt);
    else errors += 1;
  }

  try {
    await Promise.all(
      Array.from({ length: order.clients }, async () => {
        for (;;) {
          const n = next++;
          if (order.mode === 'paced') {
            const due = start + n * interval;
            // A receiver that cannot keep up stretches the phase to twice its length at most: what was not sent by
            // then is not sent (`sent` falls short of the rate times the seconds).
            if (n >= total || performance.now() >= end + order.seconds * 1000) return;
            const wait = due - performance.now();
            if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
            await one(n, due);
          } else {
            if (performance.now() >= end) return;
            await one(n, 0);
          }
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  const seconds = (lastAnswer - measureFrom) / 1000;
  return {
    sent,
    duplicates,
    accepted: latencies.length,
    errors,
    firstError,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: percentile(latencies, 100),
    outcomes,
    answeredAll,
    deliveryIds: [...acceptedIds],
  };
}

/** Runs `sendDeliveries` in a child process (delivery-process.ts) and resolves with its result. */
export function sendDeliveriesElsewhere(order: DeliveryOrder): Promise<DeliveryResult> {
  return runInChild(new URL('./delivery-process.ts', import.meta.url), order, 'delivery sender');
}
