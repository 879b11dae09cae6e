import * as z from 'zod';
import { ErrorCode, operationalError } from '../core/errors.js';

/** The longest evidence a result carries; longer evidence is cut with an ellipsis (it is shown, not parsed). */
export const MAX_EVIDENCE_CHARS = 2_000;

export interface ProbeVerdict {
  passed: boolean;
  evidence: string;
}

/** Spec 2.4: `passed` and `evidence`. Other fields are dropped here: only these two leave the client. */
const probeBodySchema = z.object({ passed: z.boolean(), evidence: z.string() });

const EXPECTED: Record<string, string> = { passed: 'a boolean (true or false)', evidence: 'a string' };
const SHAPE = '{"passed": boolean, "evidence": string}';

/** What a JSON value is, for a message; never the value itself (it may echo anything). */
function kindOf(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

function invalid(message: string) {
  return operationalError(ErrorCode.ProbeInvalidBody, message);
}

/** `text` cut to `max` characters with "…", never inside a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}

/**
 * The verdict in a probe's 2xx body, or an `AppError` (`probe.invalid_body`) saying what was wrong. `mask` runs on
 * the evidence before it is cut, so that a secret straddling the cut is still masked whole.
 */
export function readProbeBody(body: Uint8Array, contentType: string | undefined, mask: (text: string) => string = (text) => text): ProbeVerdict {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw invalid('the probe answered a body that is not UTF-8 text; it must be JSON ' + SHAPE);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const what = text.trim() === '' ? 'an empty body' : `a body that is not JSON (Content-Type: ${contentType ?? 'none'})`;
    throw invalid(`the probe answered ${what}; it must be JSON ${SHAPE}`);
  }
  const parsed = probeBodySchema.safeParse(json);
  if (!parsed.success) {
    if (kindOf(json) !== 'an object') throw invalid(`the probe answered ${kindOf(json)} where JSON ${SHAPE} was expected`);
    const record = json as Record<string, unknown>;
    const problems = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0])))].map((field) =>
      Object.hasOwn(record, field) ? `"${field}" must be ${EXPECTED[field]} (got ${kindOf(record[field])})` : `"${field}" is missing`,
    );
    throw invalid(`the probe's JSON is not ${SHAPE}: ${problems.join('; ')}`);
  }
  return { passed: parsed.data.passed, evidence: truncate(mask(parsed.data.evidence), MAX_EVIDENCE_CHARS) };
}
