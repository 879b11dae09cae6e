import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright';
import { AppError } from '../core/errors.js';
import { scrubTraceEntries } from './trace-scrub.js';
import type { TraceScrubber } from './trace-secrets.js';
import { readZip, writeZip } from './zip.js';

/**
 * Starts a Playwright trace of everything the context does: DOM snapshots before and after each action, the
 * screencast, the network. Sources are left out: they are the service's code, not the run's.
 */
export async function startTrace(context: BrowserContext): Promise<void> {
  await context.tracing.start({ screenshots: true, snapshots: true, sources: false });
}

/**
 * Stops the context's trace and returns it as a `trace.zip` with every secret masked in every entry, in every form
 * a trace writes it in (`createTraceScrubber`), and without pictures of the page when any secret was there
 * (`scrubTraceEntries` says why). The unscrubbed trace exists only in a private temporary folder (mode 0700 under
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
      throw new AppError({ kind: 'unexpected', code: 'trace.unavailable', message: 'Playwright could not stop the trace', cause: error });
    }
    const raw = await readFile(path);
    try {
      return writeZip(scrubTraceEntries(readZip(raw), scrubber).entries);
    } catch (error) {
      throw new AppError({ kind: 'unexpected', code: 'trace.unreadable', message: 'The trace could not be opened to mask its secrets; it is not kept', cause: error });
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
