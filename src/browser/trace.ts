import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright';
import { AppError, ErrorCode } from '../core/errors.js';
import { scrubTraceEntries } from './trace-scrub.js';
import type { TraceScrubber } from './trace-secrets.js';
import { readZip, writeZip, type ZipEntry } from './zip.js';

export interface TraceOptions {
  /**
   * Record the screencast (default true). A run that will type a secret can leave it out: `stopTrace` drops every
   * picture of a trace that held a secret, and a typed secret is always in the trace's text, so the frames would
   * only cost the browser their encoding, the trace its size and `stopTrace` its scrubbing.
   */
  screenshots?: boolean;
  /**
   * Record DOM snapshots before and after each action, and the network (default true). Without them the trace still
   * holds the actions and the console; Playwright (1.65) records a trace's network only with its DOM snapshots.
   */
  snapshots?: boolean;
}

/**
 * Starts a Playwright trace of everything the context does: the actions, DOM snapshots before and after each of
 * them, the screencast, the network and the console. Sources are left out: they are the service's code, not the run's.
 */
export async function startTrace(context: BrowserContext, options: TraceOptions = {}): Promise<void> {
  await context.tracing.start({ screenshots: options.screenshots ?? true, snapshots: options.snapshots ?? true, sources: false });
}

/** An `evaluate` of a script at least this long is a library the service injects (axe-core is ~650 kB), not a run's action. */
export const INJECTED_SCRIPT_MIN_CHARS = 64 * 1024;
/** How much of such a script the trace keeps: its opening comment says what it was (`/*! axe v4.14.1 …`). */
const INJECTED_SCRIPT_HEAD_CHARS = 80;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The trace with the source of injected libraries left out: each `evaluate` action whose script has at least
 * INJECTED_SCRIPT_MIN_CHARS characters keeps the script's first characters and its size. The action, its timing,
 * result and DOM snapshots stay. Without this, every accessibility audit adds a copy of axe-core to the trace, which
 * then dominates its size and the time to stop, read, scrub and zip it.
 */
export function leaveOutInjectedScripts(entries: readonly ZipEntry[]): ZipEntry[] {
  return entries.map((entry) => {
    if (!entry.name.endsWith('.trace') || entry.data.length < INJECTED_SCRIPT_MIN_CHARS) return entry;
    let text: string;
    try {
      text = utf8.decode(entry.data);
    } catch {
      return entry; // not JSON lines: left to the scrubber as it is
    }
    let changed = false;
    const lines = text.split('\n').map((line) => {
      if (line.length < INJECTED_SCRIPT_MIN_CHARS || !line.includes('"expression"')) return line;
      let event: { type?: unknown; params?: { expression?: unknown } };
      try {
        event = JSON.parse(line) as typeof event;
      } catch {
        return line;
      }
      const expression = event.params?.expression;
      if (event.type !== 'before' || typeof expression !== 'string' || expression.length < INJECTED_SCRIPT_MIN_CHARS) return line;
      changed = true;
      const kB = Math.round(Buffer.byteLength(expression, 'utf8') / 1024);
      event.params!.expression = `${expression.slice(0, INJECTED_SCRIPT_HEAD_CHARS)}… [a ${kB} kB script the service injected, left out of the trace]`;
      return JSON.stringify(event);
    });
    return changed ? { name: entry.name, data: Buffer.from(lines.join('\n'), 'utf8') } : entry;
  });
}

/**
 * Stops the context's trace and returns it as a `trace.zip` with every secret masked in every entry, in every form
 * a trace writes it in (`createTraceScrubber`), without pictures of the page when any secret was there
 * (`scrubTraceEntries` says why), and without the source of injected libraries (`leaveOutInjectedScripts`). The unscrubbed trace exists only in a private temporary folder (mode 0700 under
 * `tmpDir`), removed before this returns or throws.
 *
 * Resolves undefined when the context closed first (a cancelled or crashed run): Playwright keeps no trace then.
 * Throws `trace.unreadable` when the trace cannot be opened safely (too large, damaged): never an unscrubbed trace.
 */
export async function stopTrace(context: BrowserContext, scrubber: TraceScrubber, tmpDir: string = tmpdir()): Promise<Buffer | undefined> {
  const folder = await mkdtemp(join(tmpDir, 'qa-trace-'));
  try {
    const path = join(folder, 'trace.zip');
    try {
      await context.tracing.stop({ path });
    } catch (error) {
      if (context.isClosed()) return undefined;
      throw new AppError({ kind: 'unexpected', code: ErrorCode.TraceUnavailable, message: 'Playwright could not stop the trace', cause: error });
    }
    const raw = await readFile(path);
    try {
      return await writeZip(scrubTraceEntries(leaveOutInjectedScripts(await readZip(raw)), scrubber).entries);
    } catch (error) {
      throw new AppError({ kind: 'unexpected', code: ErrorCode.TraceUnreadable, message: 'The trace could not be opened to mask its secrets; it is not kept', cause: error });
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
