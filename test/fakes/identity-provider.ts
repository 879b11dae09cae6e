/**
 * A local stand-in for an OpenID Connect provider (the wire format openid-client speaks), a real HTTP server on
 * 127.0.0.1: the discovery document, a JWKS that publishes the signing key and the next one (rotation as providers
 * do it: a key is published before it signs), the authorize endpoint (a scripted person: the test says which account
 * the next sign-in picks, and the provider redirects back with `code` and `state`), and the token endpoint (the
 * client secret, the single-use code, its redirect URI and the PKCE S256 verifier checked; an RS256 ID token with
 * `sub`, `email`, `email_verified`, `nonce`). A test can make the next ID token misbehave (another nonce, a key the
 * provider never published, already expired) to see the service refuse it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { listenOnLoopback } from '../fixtures/loopback.js';

export interface FakeAccount {
  sub: string;
  email?: string;
  emailVerified?: boolean;
  name?: string;
}

/** How the next ID token departs from a good one. */
export interface TokenTampering {
  nonce?: string;
  /** Signed with a key the JWKS never published. */
  unpublishedKey?: boolean;
  /** Seconds from now; negative: already expired. */
  expiresIn?: number;
  audience?: string;
}

export interface TokenRequestRecord {
  status: number;
  error?: string;
}

export interface FakeIdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The account the next authorize request signs in as (it stays until changed). */
  signInAs(account: FakeAccount): void;
  /** The next ID token departs from a good one so. */
  tamperNextToken(tampering: TokenTampering): void;
  /** The next key starts signing; a new next key is published; the previous one stays published a while. */
  rotateKeys(): Promise<void>;
  /** The kid that signs now. */
  signingKid(): string;
  tokenRequests: TokenRequestRecord[];
  close(): Promise<void>;
}

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

interface IssuedCode {
  account: FakeAccount;
  redirectUri: string;
  nonce: string | undefined;
  codeChallenge: string;
}

async function newKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const kid = randomBytes(8).toString('hex');
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

export async function startFakeIdentityProvider(options: { redirectUri: string; clientId?: string; clientSecret?: string }): Promise<FakeIdentityProvider> {
  const clientId = options.clientId ?? 'qa-service';
  const clientSecret = options.clientSecret ?? randomBytes(16).toString('hex');
  let current = await newKey();
  let next = await newKey();
  let retired: SigningKey[] = [];
  let account: FakeAccount | undefined;
  let tampering: TokenTampering | undefined;
  const codes = new Map<string, IssuedCode>();
  const tokenRequests: TokenRequestRecord[] = [];
  let issuer = '';

  const tokenError = (res: ServerResponse, status: number, error: string) => {
    tokenRequests.push({ status, error });
    json(res, status, { error });
  };

  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await readForm(req);
    if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) return tokenError(res, 401, 'invalid_client');
    if (form.get('grant_type') !== 'authorization_code') return tokenError(res, 400, 'unsupported_grant_type');
    const code = form.get('code') ?? '';
    const issued = codes.get(code);
    codes.delete(code); // single use, whatever happens next
    if (issued === undefined) return tokenError(res, 400, 'invalid_grant');
    if (form.get('redirect_uri') !== issued.redirectUri) return tokenError(res, 400, 'invalid_grant');
    const verifier = form.get('code_verifier') ?? '';
    if (createHash('sha256').update(verifier).digest('base64url') !== issued.codeChallenge) return tokenError(res, 400, 'invalid_grant');

    const tamper = tampering ?? {};
    tampering = undefined;
    const key = tamper.unpublishedKey ? await newKey() : current;
    const nowSeconds = Math.floor(Date.now() / 1000);
    const idToken = await new SignJWT({
      email: issued.account.email,
      email_verified: issued.account.emailVerified ?? true,
      name: issued.account.name,
      nonce: tamper.nonce ?? issued.nonce,
    })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
      .setIssuer(issuer)
      .setSubject(issued.account.sub)
      .setAudience(tamper.audience ?? clientId)
      .setIssuedAt(tamper.expiresIn !== undefined && tamper.expiresIn < 0 ? nowSeconds + tamper.expiresIn - 600 : nowSeconds)
      .setExpirationTime(nowSeconds + (tamper.expiresIn ?? 600))
      .sign(key.privateKey);
    tokenRequests.push({ status: 200 });
    json(res, 200, { access_token: randomBytes(16).toString('hex'), token_type: 'Bearer', expires_in: 600, id_token: idToken, scope: 'openid email profile' });
  }

  function authorize(url: URL, res: ServerResponse): void {
    const redirectUri = url.searchParams.get('redirect_uri');
    if (url.searchParams.get('client_id') !== clientId || redirectUri !== options.redirectUri) return json(res, 400, { error: 'invalid_request' });
    const target = new URL(redirectUri);
    const state = url.searchParams.get('state');
    if (state !== null) target.searchParams.set('state', state);
    if (account === undefined || url.searchParams.get('code_challenge_method') !== 'S256' || !url.searchParams.get('code_challenge')) {
      target.searchParams.set('error', account === undefined ? 'access_denied' : 'invalid_request');
    } else {
      const code = randomBytes(16).toString('base64url');
      codes.set(code, { account, redirectUri, nonce: url.searchParams.get('nonce') ?? undefined, codeChallenge: url.searchParams.get('code_challenge')! });
      target.searchParams.set('code', code);
    }
    res.writeHead(302, { location: target.href });
    res.end();
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer || 'http://127.0.0.1');
    const route = `${req.method} ${url.pathname}`;
    const done = (error: unknown) => json(res, 500, { error: 'server_error', error_description: String(error) });
    if (route === 'GET /.well-known/openid-configuration') {
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_post'],
        scopes_supported: ['openid', 'email', 'profile'],
      });
    }
    if (route === 'GET /jwks') return json(res, 200, { keys: [current, next, ...retired].map((key) => key.jwk) });
    if (route === 'GET /authorize') return authorize(url, res);
    if (route === 'POST /token') return void token(req, res).catch(done);
    json(res, 404, { error: 'not_found' });
  });
  const listening = await listenOnLoopback(server);
  issuer = listening.url;

  return {
    issuer,
    clientId,
    clientSecret,
    signInAs(chosen) {
      account = chosen;
    },
    tamperNextToken(chosen) {
      tampering = chosen;
    },
    async rotateKeys() {
      retired = [current];
      current = next;
      next = await newKey();
    },
    signingKid: () => current.kid,
    tokenRequests,
    close: () => listening.close(),
  };
}
