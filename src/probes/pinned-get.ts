import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { request } from 'node:https';
import type { LookupFunction } from 'node:net';
import { type AppError, ErrorCode, isAppError, operationalError } from '../core/errors.js';
import { formatIpAddress, parseIpAddress } from './ip-address.js';

/** Where one GET goes: the URL (its host names the server for SNI and the certificate) and the vetted address. */
export interface PinnedTarget {
  readonly url: URL;
  readonly address: string;
  readonly family: 4 | 6;
}

export interface PinnedGetOptions {
  readonly headers: Readonly<Record<string, string>>;
  /** Trusted CAs; undefined: Node's bundled roots. */
  readonly ca: ReadonlyArray<string | Buffer> | undefined;
  /** Aborting it destroys the connection wherever it is (DNS excepted: the address is already known). */
  readonly signal: AbortSignal;
}

export interface PinnedResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The whole body; an `AppError` (`probe.response_too_large`) as soon as it passes `maxBytes`. */
  readBody(maxBytes: number): Promise<Buffer>;
  /** Closes the connection without reading the body. */
  discard(): void;
}

const UNTRUSTED_CERTIFICATE = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_REVOKED',
]);

/** A connection failure in words an operator can act on. Node's own message is left out: it names only the code. */
function networkFailure(error: unknown, target: PinnedTarget): AppError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? 'unknown error';
  const where = `${target.url.hostname} (${target.address})`;
  const message = (() => {
    if (UNTRUSTED_CERTIFICATE.has(code)) return `the TLS certificate of ${where} is not signed by a trusted CA (${code})`;
    if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return `the TLS certificate of ${where} is outside its validity period (${code})`;
    if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `the TLS certificate of ${where} is not valid for the name ${target.url.hostname} (${code})`;
    if (code === 'ECONNREFUSED') return `${where} refused the connection (nothing listens on port ${target.url.port || 443}?)`;
    if (code === 'ECONNRESET' || code === 'EPIPE') return `${where} closed the connection before answering (${code})`;
    if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `${where} is unreachable from the worker (${code})`;
    if (code.startsWith('ERR_SSL_') || code === 'EPROTO') return `the TLS handshake with ${where} failed (${code}); the probe must serve HTTPS`;
    return `the request to ${where} failed (${code})`;
  })();
  return operationalError(ErrorCode.ProbeUnreachable, message, { cause: error });
}

/** Same address, whatever its spelling (`::FFFF:127.0.0.1` and `::ffff:7f00:1`). */
function sameAddress(a: string | undefined, b: string): boolean {
  const left = a === undefined ? null : parseIpAddress(a);
  const right = parseIpAddress(b);
  return left !== null && right !== null && formatIpAddress(left) === formatIpAddress(right);
}

function bodyReader(response: IncomingMessage) {
  return (maxBytes: number) =>
    new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          response.destroy();
          reject(operationalError(ErrorCode.ProbeResponseTooLarge, `the probe's response is larger than ${maxBytes / 1024} KiB; it must be a small JSON object`));
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => resolve(Buffer.concat(chunks)));
      response.on('error', (error) => reject(operationalError(ErrorCode.ProbeUnreachable, 'the connection broke while the probe answered', { cause: error })));
      response.on('close', () => {
        if (!response.complete) reject(operationalError(ErrorCode.ProbeUnreachable, 'the connection closed before the probe finished its answer'));
      });
    });
}

/**
 * One HTTPS GET to `target.address` and nowhere else. The hostname stays the request's host, so SNI, the Host
 * header and certificate verification all use the name; only the socket's DNS step is replaced, by a lookup that
 * answers the vetted address. So a second DNS answer (rebinding between check and connect) is never asked for.
 * No agent: a pooled socket is not re-checked, and probe calls are rare.
 */
export function pinnedGet(target: PinnedTarget, options: PinnedGetOptions): Promise<PinnedResponse> {
  const pinnedLookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const host = target.url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve, reject) => {
    const req = request(
      {
        method: 'GET',
        host,
        port: target.url.port === '' ? 443 : Number(target.url.port),
        path: `${target.url.pathname}${target.url.search}`,
        headers: { ...options.headers },
        agent: false,
        lookup: pinnedLookup,
        family: target.family,
        ca: options.ca as Array<string | Buffer> | undefined,
        rejectUnauthorized: true,
        signal: options.signal,
      },
      (response) => {
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          readBody: bodyReader(response),
          discard: () => {
            response.destroy();
            req.destroy();
          },
        });
      },
    );
    // Belt and braces for the pinning: a socket that reached any other address is dropped before TLS finishes.
    req.on('socket', (socket) => {
      const verify = () => {
        if (!sameAddress(socket.remoteAddress, target.address)) {
          req.destroy(operationalError(ErrorCode.ProbeAddressMismatch, `the connection to ${host} reached an address that was not checked`));
        }
      };
      if (socket.remoteAddress === undefined) socket.once('connect', verify);
      else verify();
    });
    req.on('error', (error) => reject(isAppError(error) ? error : networkFailure(error, target)));
    req.end();
  });
}
