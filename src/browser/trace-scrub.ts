import { createHash } from 'node:crypto';
import type { TraceScrubber } from './trace-secrets.js';
import type { ZipEntry } from './zip.js';

export interface ScrubbedTrace {
  entries: ZipEntry[];
  /** Some entry held a secret (in any form) before scrubbing. */
  secretsFound: boolean;
  /** Screencast frames and screenshots left out (see `scrubTraceEntries`). */
  droppedImages: number;
}

/** Trace events whose file is a picture of the page. */
const IMAGE_EVENTS = new Set(['screencast-frame', 'screenshot']);
/** Where Playwright writes those pictures (1.5x: `screencast/`, `screenshots/`; older traces: `resources/<sha1>`). */
const IMAGE_FOLDERS = ['screencast/', 'screenshots/'];
const SHA1_NAME = /[0-9a-f]{40}/;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The entries of a Playwright trace with every secret masked.
 *
 * - Every entry is searched. One that is valid UTF-8 (the `.trace`/`.network` JSON lines, HTML and CSS of snapshots,
 *   request bodies) is scrubbed as text; any other (images, fonts) byte by byte, so a secret's bytes inside a binary
 *   are masked too, at the price of that file.
 * - Pictures of the page cannot be scrubbed: a secret typed into a text field, or shown by the page ("Signed in as
 *   …"), is in their pixels, and a password field's dots are no proof that nothing else showed it. So when the trace
 *   held any secret anywhere, every screencast frame and screenshot is left out, with the events that name them.
 *   A secret the run types is always in the text (the `fill` action's parameters), and one the site sends back is in
 *   the network log or the DOM snapshots, so a trace whose text held none keeps its pictures. (Not covered: a secret
 *   that arrives over a WebSocket, which traces do not record, and is only ever drawn on a canvas.) The DOM snapshots
 *   stay, masked, and the trace viewer shows them for every action.
 * - Resources are named by the SHA-1 of their content; a scrubbed one is renamed after its new content, and the
 *   references updated, because the hash of a short form body is a test for guesses at the password in it.
 */
export function scrubTraceEntries(entries: readonly ZipEntry[], scrubber: TraceScrubber): ScrubbedTrace {
  const renames = new Map<string, string>();
  let secretsFound = false;
  const scrubbed = entries.map((entry) => {
    const { data, text } = scrubContent(entry.data, scrubber);
    // Playwright names entries after hashes, pages and call ids; masked like their references in the text all the same.
    const name = scrubber.text(entry.name);
    if (name !== entry.name) secretsFound = true;
    if (data !== entry.data) {
      secretsFound = true;
      const hash = name.match(SHA1_NAME)?.[0];
      if (hash !== undefined && sha1(entry.data) === hash) renames.set(hash, sha1(data));
    }
    return { name, data, text };
  });

  let kept = scrubbed;
  let droppedImages = 0;
  if (secretsFound) {
    const images = new Set<string>();
    kept = scrubbed.map((entry) => {
      if (!entry.text || !entry.name.endsWith('.trace')) return entry;
      const lines = entry.data.toString('utf8').split('\n');
      const others = lines.filter((line) => {
        const file = imageFileOf(line);
        if (file !== undefined) images.add(file);
        return file === undefined;
      });
      return others.length === lines.length ? entry : { ...entry, data: Buffer.from(others.join('\n'), 'utf8') };
    });
    const before = kept.length;
    kept = kept.filter((entry) => !images.has(entry.name) && !IMAGE_FOLDERS.some((folder) => entry.name.startsWith(folder)));
    droppedImages = before - kept.length;
  }

  const seen = new Set<string>();
  const result: ZipEntry[] = [];
  for (const entry of kept) {
    const name = rename(entry.name, renames);
    // Two resources that differed only in a secret are one file once masked.
    if (seen.has(name)) continue;
    seen.add(name);
    result.push({ name, data: entry.text && renames.size > 0 ? renameReferences(entry.data, renames) : entry.data });
  }
  return { entries: result, secretsFound, droppedImages };
}

/** `data` itself when it holds no secret; `text` when it is UTF-8 (scrubbing keeps it so). */
function scrubContent(data: Buffer, scrubber: TraceScrubber): { data: Buffer; text: boolean } {
  const text = decodeText(data);
  const original = text ?? data.toString('latin1');
  const masked = scrubber.text(original);
  if (masked === original) return { data, text: text !== undefined };
  return { data: Buffer.from(masked, text === undefined ? 'latin1' : 'utf8'), text: text !== undefined };
}

function decodeText(data: Buffer): string | undefined {
  try {
    return utf8.decode(data);
  } catch {
    return undefined;
  }
}

const sha1 = (data: Buffer) => createHash('sha1').update(data).digest('hex');

/** The file a screencast-frame or screenshot event names, if `line` is one. */
function imageFileOf(line: string): string | undefined {
  if (!line.includes('"screencast-frame"') && !line.includes('"screenshot"')) return undefined;
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof event !== 'object' || event === null) return undefined;
  const { type, file, sha1: hash } = event as { type?: unknown; file?: unknown; sha1?: unknown };
  if (typeof type !== 'string' || !IMAGE_EVENTS.has(type)) return undefined;
  if (typeof file === 'string') return file;
  return typeof hash === 'string' ? `resources/${hash}` : '';
}

function rename(name: string, renames: ReadonlyMap<string, string>): string {
  const hash = name.match(SHA1_NAME)?.[0];
  const renamed = hash === undefined ? undefined : renames.get(hash);
  return renamed === undefined ? name : name.replace(hash!, renamed);
}

function renameReferences(data: Buffer, renames: ReadonlyMap<string, string>): Buffer {
  const text = data.toString('utf8');
  const replaced = text.replace(/[0-9a-f]{40}/g, (hash) => renames.get(hash) ?? hash);
  return replaced === text ? data : Buffer.from(replaced, 'utf8');
}
