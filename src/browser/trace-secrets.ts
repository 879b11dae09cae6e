import { createScrubber, type Scrubber } from '../core/secrets.js';

/**
 * A scrubber for Playwright traces: it masks each secret as typed and in every form a trace writes it in. Only
 * `createTraceScrubber` makes one, so code that needs the encodings masked cannot be handed a plain scrubber.
 */
export interface TraceScrubber extends Scrubber {
  readonly masksEncodings: true;
}

export function createTraceScrubber(secrets: Iterable<string>): TraceScrubber {
  // The same lower bound as createScrubber: shorter values cannot be told apart from ordinary text.
  const values = [...secrets].filter((secret) => secret.length >= 3);
  return { ...createScrubber(values.flatMap(secretVariants)), masksEncodings: true };
}

type Encoding = (text: string) => string;

const json: Encoding = (text) => JSON.stringify(text).slice(1, -1);
/** JSON writers that escape everything outside ASCII (Python's json.dumps, many loggers). */
const jsonAscii: Encoding = (text) => json(text).replace(/[^\x20-\x7e]/g, unicodeEscape);
/** JSON made safe to inline in HTML (Express's `json escape`, Next.js, serialize-javascript). */
const jsonHtml: Encoding = (text) => json(text).replace(/[<>&'\u2028\u2029]/g, unicodeEscape);
const uriComponent: Encoding = (text) => encodeURIComponent(text);
const uri: Encoding = (text) => encodeURI(text);
/** application/x-www-form-urlencoded, as a browser submits a form: spaces as `+`, and `!'()~` escaped too. */
const form: Encoding = (text) => new URLSearchParams([['', text]]).toString().slice(1);
const html: Encoding = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
const htmlHex: Encoding = (text) => html(text).replace(/&#39;/g, '&#x27;');
const lowerHex: Encoding = (text) => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());

function unicodeEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

const ENCODINGS: readonly Encoding[] = [json, jsonAscii, jsonHtml, uriComponent, uri, form, html, htmlHex];
const MAX_JSON_DEPTH = 4;

/**
 * The strings a trace may hold `secret` as: as typed, in lower and upper case (an email shown as the site stores
 * it), JSON-escaped (action parameters, logs, snapshots; up to four levels deep), percent-encoded (URLs, form bodies,
 * with either hex case), HTML-escaped (page source), each encoding of each of those, and base64 (an
 * `Authorization: Basic` header). Non-ASCII forms also come as their UTF-8 bytes read as Latin-1, which is how they
 * look when a binary entry is searched byte by byte.
 */
export function secretVariants(secret: string): string[] {
  const variants = new Set<string>();
  const add = (variant: string) => {
    variants.add(variant);
    variants.add(lowerHex(variant));
  };
  for (const base of new Set([secret, secret.toLowerCase(), secret.toUpperCase()])) {
    add(base);
    // Two deep covers a JSON document in a query string, a form body quoted in JSON, and the like.
    for (const outer of ENCODINGS) {
      const once = encode(outer, base);
      if (once === undefined) continue;
      add(once);
      for (const inner of ENCODINGS) {
        const twice = encode(inner, once);
        if (twice !== undefined) add(twice);
      }
    }
    // JSON in JSON in JSON (a log line quoting an evaluated string, in an event line) escapes again each time.
    for (let nested = json(json(base)), depth = 3; depth <= MAX_JSON_DEPTH; depth++) {
      nested = json(nested);
      add(nested);
    }
  }
  for (const core of base64Cores(secret)) variants.add(core);
  for (const variant of [...variants]) {
    const bytes = Buffer.from(variant, 'utf8').toString('latin1');
    if (bytes !== variant) variants.add(bytes);
  }
  return [...variants];
}

function encode(encoding: Encoding, text: string): string | undefined {
  try {
    return encoding(text);
  } catch {
    return undefined; // encodeURIComponent refuses lone surrogates; such a form cannot occur in a URL either.
  }
}

/** Shorter base64 runs would match ordinary base64 (images inlined in snapshots) by chance. */
const MIN_BASE64_CORE = 8;

/**
 * Base64 of the secret wherever it starts in the encoded bytes: for each of the three alignments, the characters
 * that depend on the secret's bytes only (https://www.leeholmes.com/searching-for-content-in-base-64-strings/).
 * Standard and URL-safe alphabets.
 */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const cores: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const core = encoded.slice(Math.ceil((shift * 8) / 6), Math.floor(((shift + bytes.length) * 8) / 6));
    if (core.length >= MIN_BASE64_CORE) cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return cores;
}
