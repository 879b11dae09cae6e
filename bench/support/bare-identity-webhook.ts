/**
 * bench:identity's peer: a bare Express endpoint that reads the raw body, checks `x-identity-signature` with the
 * service's own check (src/webhooks/identity/identity-signature.ts: parse, HMAC against the secret, 5-minute
 * freshness) and answers 202; nothing parsed, stored or queued. The ratio to it is what the receipt costs.
 */
import express from 'express';
import { startHttpServer, type HttpServer } from '../../src/api/server.js';
import { identitySignatureMatches, parseIdentitySignature, signatureFresh } from '../../src/webhooks/identity/identity-signature.js';

export const BARE_IDENTITY_PATH = '/identity-hooks';

export async function startBareIdentityWebhook(secret: string, host: string): Promise<{ url: string; server: HttpServer }> {
  const app = express();
  app.disable('x-powered-by');
  app.post(BARE_IDENTITY_PATH, express.raw({ type: () => true, limit: '256kb' }), (req, res) => {
    const header = req.headers['x-identity-signature'];
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const signature = typeof header === 'string' ? parseIdentitySignature(header) : null;
    if (!signature || !identitySignatureMatches(signature, raw, [secret]) || !signatureFresh(signature, new Date())) {
      res.status(401).json({ error: { code: 'webhook.signature_invalid' } });
      return;
    }
    res.status(202).json({ deliveryId: req.headers['x-identity-delivery-id'] });
  });
  const server = await startHttpServer({ host, port: 0 }, app);
  return { url: `http://${host}:${server.port}${BARE_IDENTITY_PATH}`, server };
}
