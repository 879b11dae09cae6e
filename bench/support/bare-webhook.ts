/**
 * bench:webhooks' peer: a bare Express endpoint that reads the raw body, checks `x-codehost-signature-256` with
 * Octokit's `verify` (the same check, the same library as the service's receiver) and answers 202; nothing stored,
 * nothing queued. The ratio to it is what durability costs: the receipt, its queue job, and their one commit.
 */
import express from 'express';
import { verify } from '@octokit/webhooks-methods';
import { startHttpServer, type HttpServer } from '../../src/api/server.js';

export const BARE_WEBHOOK_PATH = '/hooks';

export async function startBareWebhook(secret: string, host: string): Promise<{ url: string; server: HttpServer }> {
  const app = express();
  app.disable('x-powered-by');
  app.post(BARE_WEBHOOK_PATH, express.raw({ type: () => true, limit: '1mb' }), async (req, res) => {
    const signature = req.headers['x-codehost-signature-256'];
    const body = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
    if (typeof signature !== 'string' || body === '' || !(await verify(secret, body, signature))) {
      res.status(401).json({ error: { code: 'webhook.signature_invalid' } });
      return;
    }
    res.status(202).json({ deliveryId: req.headers['x-codehost-delivery'] });
  });
  const server = await startHttpServer({ host, port: 0 }, app);
  return { url: `http://${host}:${server.port}${BARE_WEBHOOK_PATH}`, server };
}
