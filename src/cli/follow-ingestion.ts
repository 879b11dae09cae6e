import { ErrorCode, operationalError, userError } from '../core/errors.js';
import { isRetryable, type ApiClient } from './api-client.js';
import { printable, type OutputStream } from './terminal.js';

interface IngestionEventLine {
  index: number;
  type: string;
  data: Record<string, unknown>;
}

interface IngestionState {
  status: string;
  error: { code: string; message: string } | null;
}

const OVER = new Set(['succeeded', 'failed']);

function parseLine(line: string): IngestionEventLine {
  const value = JSON.parse(line) as Partial<IngestionEventLine>;
  if (typeof value.index !== 'number' || typeof value.type !== 'string') throw operationalError(ErrorCode.ApiBadResponse, 'The service sent an event line without index or type');
  return { index: value.index, type: value.type, data: value.data ?? {} };
}

/** One event as a line: its index, type and data as `key=value` pairs, server text made printable. */
export function ingestionEventText(event: IngestionEventLine): string {
  const fields = Object.entries(event.data).map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return printable(`[${event.index}] ${event.type}${fields.length > 0 ? ` ${fields.join(' ')}` : ''}`);
}

/**
 * Follows an ingestion's events (`GET /api/ingestions/:id/events`) until it is over, printing each once. A stream cut
 * before the end reconnects with `?after=<last index seen>` (up to `retries` times in a row, backing off); an error
 * answer (404…) is final. A failed ingestion ends in `ingestion.not_succeeded` naming its coded error.
 */
export async function followIngestion(
  deps: { client: ApiClient; out: OutputStream; retries?: number; backoffMs?: number; sleep?: (ms: number) => Promise<void> },
  ingestionRunId: string,
): Promise<void> {
  const { client, out, retries = 5, backoffMs = 250, sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)) } = deps;
  const path = `/api/ingestions/${encodeURIComponent(ingestionRunId)}`;
  let last: number | undefined;
  for (let failures = 0; ; ) {
    try {
      for await (const line of client.lines(`${path}/events${last === undefined ? '' : `?after=${last}`}`)) {
        const event = parseLine(line);
        if (last !== undefined && event.index <= last) continue;
        last = event.index;
        failures = 0;
        out.write(`${ingestionEventText(event)}\n`);
      }
      const state = (await client.call('GET', path)) as IngestionState;
      if (OVER.has(state.status)) {
        if (state.status === 'succeeded') return;
        throw userError(ErrorCode.IngestionNotSucceeded, printable(`Ingestion ${ingestionRunId} failed: ${state.error?.code ?? 'unknown'}: ${state.error?.message ?? ''}`), { details: { code: state.error?.code } });
      }
    } catch (error) {
      if (!isRetryable(error)) throw error;
    }
    failures += 1;
    if (failures > retries) {
      throw operationalError(ErrorCode.FollowLost, `Lost the events of ingestion ${ingestionRunId} after ${retries} reconnections; resume with: qa repos follow ${ingestionRunId}`);
    }
    await sleep(backoffMs * 2 ** (failures - 1));
  }
}
