import { verifySlackRequest } from '@slack/bolt';
import { parse as parseQuery } from 'node:querystring';
import express, { type RequestHandler } from 'express';
import { AppError, ErrorCode } from '../../src/core/errors.js';
import { envelopeProblem } from './envelope.js';

/** Slack refuses to sign for longer; a request older (or newer) than this is a replay or a wrong clock. */
export const MAX_CLOCK_SKEW_SECONDS = 5 * 60;

function refused(code: ErrorCode, message: string): AppError {
  return new AppError({ kind: 'user', code, status: 401, message });
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Checks Slack's v0 request signature over the raw bytes with Bolt's `verifySlackRequest`, before Bolt's receiver
 * sees the request, so that a refusal is the API's coded JSON error (the receiver answers a bare 401) and a
 * timestamp too far in the future is refused as well as a stale one (Bolt refuses only stale ones). The bytes are
 * left on `req.rawBody`, which the receiver reads instead of the stream.
 */
export function verifySlackSignature(signingSecret: string, { bodyLimit, now = () => Date.now() }: { bodyLimit: string; now?: () => number }): RequestHandler[] {
  const readRaw = express.raw({ type: () => true, limit: bodyLimit });
  const verify: RequestHandler = (req, _res, next) => {
    const raw: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const timestamp = header(req.headers['x-slack-request-timestamp']);
    const signature = header(req.headers['x-slack-signature']);
    if (!timestamp || !signature) {
      next(refused(ErrorCode.ChatSignatureMissing, 'The request is not signed: X-Slack-Signature and X-Slack-Request-Timestamp are required'));
      return;
    }
    const seconds = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : Number.NaN;
    if (!Number.isFinite(seconds) || Math.abs(now() / 1000 - seconds) > MAX_CLOCK_SKEW_SECONDS) {
      next(refused(ErrorCode.ChatRequestStale, 'The request timestamp is more than 5 minutes from now; it is refused as a possible replay'));
      return;
    }
    try {
      // Bolt's own check (constant-time HMAC over `v0:<timestamp>:<body>`); this middleware only words the refusal.
      verifySlackRequest({ signingSecret, body: raw.toString('utf8'), headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': seconds }, nowMilliseconds: now() });
    } catch {
      next(refused(ErrorCode.ChatSignatureInvalid, 'The request signature does not match its body'));
      return;
    }
    // Bolt answers a body it cannot parse with a bare 400 (and one that is no object with a 500); say what is wrong.
    const unusable = unusableBody(header(req.headers['content-type']), raw);
    if (unusable) {
      next(unusable);
      return;
    }
    (req as { rawBody?: Buffer }).rawBody = raw;
    next();
  };
  return [readRaw, verify];
}

/**
 * Why Bolt's receiver could not use the body, read the way it reads it (a form body's `payload` field is JSON, other
 * form bodies are their fields, anything else is JSON), or null when it can. Everything Slack sends is an object
 * with the keys of its kind (`envelopeProblem`).
 */
function unusableBody(contentType: string | undefined, raw: Buffer): AppError | null {
  const text = raw.toString('utf8');
  let body: unknown;
  try {
    if (contentType === 'application/x-www-form-urlencoded') {
      const fields = parseQuery(text);
      body = typeof fields.payload === 'string' ? JSON.parse(fields.payload) : fields;
    } else {
      body = JSON.parse(text);
    }
  } catch {
    const where = contentType === 'application/x-www-form-urlencoded' ? 'The form field `payload` is' : 'The body is';
    return new AppError({ kind: 'user', code: ErrorCode.RequestInvalidJson, status: 400, message: `${where} not valid JSON` });
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return new AppError({ kind: 'user', code: ErrorCode.RequestInvalid, status: 400, message: 'The request is not a JSON object: Slack sends events, interactions and commands as objects' });
  }
  const problem = envelopeProblem(body as Record<string, unknown>);
  return problem === null ? null : new AppError({ kind: 'user', code: ErrorCode.RequestInvalid, status: 400, message: `The request is no Slack event, interaction or command the bot can file: ${problem}` });
}
