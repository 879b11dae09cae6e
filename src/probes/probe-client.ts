import { lookup } from 'node:dns/promises';
import { performance } from 'node:perf_hooks';
import { rootCertificates } from 'node:tls';
import { ErrorCode, isAppError, operationalError, userError } from '../core/errors.js';
import { createAddressPolicy, type AddressPolicy } from './address-policy.js';
import { parseCidr, type Cidr } from './cidr.js';
import { parseIpAddress } from './ip-address.js';
import { pinnedGet, type PinnedTarget } from './pinned-get.js';
import { readProbeBody } from './probe-body.js';
import { checkProbeToken, checkProbeUrl } from './probe-request.js';

/** The whole call (DNS, connect, TLS, headers, body) must finish within this (issue 4). */
export const PROBE_TIMEOUT_MS = 10_000;
/** Spec 8 leaves the bound open; a verdict and a line of evidence fit many times over. */
export const MAX_PROBE_RESPONSE_BYTES = 64 * 1024;

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address of a host name, as `dns.lookup(name, { all: true })` answers. */
export type ResolveHost = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface ProbeClientOptions {
  /** Special-purpose ranges probes may reach anyway (`PROBE_ALLOW_CIDRS`), e.g. `127.0.0.1/32` in tests. */
  allowCidrs?: readonly string[];
  /** Deadline of a whole call; default PROBE_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Extra trusted CAs (PEM), added to Node's bundled roots: a test CA, or a private PKI. */
  ca?: string | readonly string[];
  /** DNS; default `dns.lookup` with `all` (the system resolver, as the rest of the process uses). */
  resolveHost?: ResolveHost;
  /** A monotonic clock in milliseconds, for `ms`; default `performance.now`. */
  now?: () => number;
}

export interface ProbeCall {
  /** The probe's HTTPS URL (resolved from the repository's secret; never shown whole). */
  url: string;
  /** Sent as `Authorization: Bearer <token>`; never appears in a result. */
  token: string;
  /** The job's hosts (the target's and `networkAllowlist`): the probe's host must be one of them. */
  allowedHosts: readonly string[];
  signal?: AbortSignal;
}

/** A verdict, or why there is none (the caller records it as a `probe_failed` finding). `ms`: the call's duration. */
export type ProbeResult = { ok: true; passed: boolean; evidence: string; ms: number } | { ok: false; reason: string; ms: number };

export interface ProbeClient {
  /** Calls one evidence probe. Never rejects: every failure, the remote side's or the input's, is `ok: false`. */
  call(input: ProbeCall): Promise<ProbeResult>;
}

const SHAPE = '{"passed": boolean, "evidence": string}';

/** The configured ranges; a bad one is a configuration error, thrown at construction, not per call. */
function allowedRanges(texts: readonly string[]): Cidr[] {
  return texts.map((text) => {
    const parsed = parseCidr(text);
    if (!parsed.ok) throw userError(ErrorCode.ProbeInvalidAllowCidr, `PROBE_ALLOW_CIDRS: ${parsed.problem}`);
    return parsed.cidr;
  });
}

function defaultResolveHost(hostname: string): Promise<readonly ResolvedAddress[]> {
  return lookup(hostname, { all: true, verbatim: true });
}

function duration(ms: number): string {
  return ms >= 1_000 ? `${ms / 1_000} s` : `${ms} ms`;
}

/** Settles like `promise`, or rejects with `signal.reason` as soon as the signal aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    // Handlers first: `promise` may still reject after the abort, and must not become an unhandled rejection.
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort)).catch(() => undefined);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The address to connect to: an IP-literal host as it is, a name through DNS; the first one the policy allows. A
 * name with both public and special addresses is not refused: only a checked address is ever connected to.
 */
async function pickAddress(url: URL, policy: AddressPolicy, resolveHost: ResolveHost): Promise<PinnedTarget> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = parseIpAddress(host);
  let candidates: readonly ResolvedAddress[];
  if (literal) {
    candidates = [{ address: host, family: literal.family }];
  } else {
    try {
      candidates = await resolveHost(host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'lookup failed';
      throw operationalError(ErrorCode.ProbeDnsFailed, `the probe host ${host} does not resolve (${code})`, { cause: error });
    }
    if (candidates.length === 0) throw operationalError(ErrorCode.ProbeDnsFailed, `the probe host ${host} resolves to no address`);
  }
  const checked = candidates.map((candidate) => ({ ...candidate, verdict: policy.check(candidate.address) }));
  const chosen = checked.find((candidate) => candidate.verdict.allowed);
  const parsed = chosen && parseIpAddress(chosen.address);
  if (chosen && parsed) return { url, address: chosen.address, family: parsed.family };
  const refused = checked.map(({ address, verdict }) => `${address} (${verdict.allowed ? 'allowed' : verdict.why})`).join(', ');
  throw userError(
    ErrorCode.ProbeAddressRefused,
    `refused to connect to ${host}: ${literal ? 'it is' : 'it resolves only to'} ${refused}. Probes reach public addresses only; ` +
      'an operator can allow a range with PROBE_ALLOW_CIDRS',
  );
}

function statusReason(status: number): string {
  if (status >= 300 && status < 400) {
    return `the probe answered HTTP ${status}, a redirect; redirects are not followed, so give the probe's final URL`;
  }
  if (status === 401 || status === 403) return `the probe answered HTTP ${status}; check the probe token`;
  return `the probe answered HTTP ${status}; it must answer 2xx with JSON ${SHAPE}`;
}

/**
 * The evidence-probe client (issue 4, spec 2.4): one HTTPS GET per call to a customer's read-only endpoint, with
 * the host checked against the job's allowlist, the address against private and special ranges (SSRF), no
 * redirects, cookies or compression, a deadline, a size bound and a strict body. Only `passed` and `evidence`
 * come back; the token never appears in anything the client returns.
 */
export function createProbeClient(options: ProbeClientOptions = {}): ProbeClient {
  const policy = createAddressPolicy(allowedRanges(options.allowCidrs ?? []));
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const extraCa = options.ca === undefined ? [] : typeof options.ca === 'string' ? [options.ca] : [...options.ca];
  // A `ca` replaces Node's roots; the extra CAs are added to them instead.
  const ca = extraCa.length === 0 ? undefined : [...rootCertificates, ...extraCa];
  const resolveHost = options.resolveHost ?? defaultResolveHost;
  const now = options.now ?? (() => performance.now());

  async function attempt(input: ProbeCall, signal: AbortSignal, scrub: (text: string) => string): Promise<{ passed: boolean; evidence: string }> {
    signal.throwIfAborted();
    checkProbeToken(input.token);
    const url = checkProbeUrl(input.url, input.allowedHosts);
    const target = await pickAddress(url, policy, resolveHost);
    signal.throwIfAborted();
    const response = await pinnedGet(target, {
      headers: {
        authorization: `Bearer ${input.token}`,
        accept: 'application/json',
        'accept-encoding': 'identity',
        'user-agent': 'qa-job-service-evidence-probe',
        connection: 'close',
      },
      ca,
      signal,
    });
    if (response.status < 200 || response.status > 299) {
      response.discard();
      throw operationalError(ErrorCode.ProbeBadStatus, statusReason(response.status));
    }
    const encoding = response.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      response.discard();
      throw operationalError(ErrorCode.ProbeInvalidBody, `the probe answered with Content-Encoding ${encoding}; it must answer uncompressed JSON`);
    }
    const declared = Number(response.headers['content-length'] ?? 0);
    if (declared > MAX_PROBE_RESPONSE_BYTES) {
      response.discard();
      throw operationalError(ErrorCode.ProbeResponseTooLarge, `the probe's response is ${declared} bytes, over the ${MAX_PROBE_RESPONSE_BYTES / 1024} KiB bound`);
    }
    const body = await response.readBody(MAX_PROBE_RESPONSE_BYTES);
    return readProbeBody(body, response.headers['content-type'], scrub);
  }

  return {
    async call(input) {
      const started = now();
      const elapsed = () => Math.round(now() - started);
      // A bearer token that a server, a TLS library or a bug puts into a message is masked, whatever its route.
      const scrub = (text: string) => (typeof input.token === 'string' && input.token !== '' ? text.split(input.token).join('[token]') : text);
      const controller = new AbortController();
      const timer = setTimeout(
        () => controller.abort(operationalError(ErrorCode.ProbeTimeout, `the probe did not answer within ${duration(timeoutMs)} (DNS, connection and the whole body)`)),
        timeoutMs,
      );
      const onCallerAbort = () => controller.abort(operationalError(ErrorCode.ProbeCancelled, 'the probe call was cancelled before it finished'));
      if (input.signal?.aborted) onCallerAbort();
      input.signal?.addEventListener('abort', onCallerAbort, { once: true });
      try {
        const verdict = await abortable(attempt(input, controller.signal, scrub), controller.signal);
        return { ok: true, passed: verdict.passed, evidence: verdict.evidence, ms: elapsed() };
      } catch (error) {
        const reason = isAppError(error) ? error.message : `the probe call failed unexpectedly (${error instanceof Error ? error.message : String(error)})`;
        return { ok: false, reason: scrub(reason), ms: elapsed() };
      } finally {
        clearTimeout(timer);
        input.signal?.removeEventListener('abort', onCallerAbort);
        controller.abort(); // closes whatever the call left open
      }
    },
  };
}
