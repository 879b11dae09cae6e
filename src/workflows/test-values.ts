import { createTraceScrubber, type TraceScrubber } from '../browser/trace-secrets.js';
import type { ConnectedRepository } from '../store/entities/connected-repository.entity.js';
import type { ProbeTarget } from './run-plan.js';

/** Reads one runtime secret by environment variable name (the server's environment). */
export type ReadSecret = (name: string) => string | undefined;

export interface RunSecrets {
  testValue(name: string): string | undefined;
  probeTarget(criterion: string): ProbeTarget;
  /**
   * Masks every configured test value, whether this run uses it or not, also in the encoded forms a page or a
   * trace carries it in (URL-encoded, JSON-escaped, …).
   */
  scrubber: TraceScrubber;
  /** The values themselves, for masking them in screenshots. */
  values: string[];
}

/**
 * The repository's test values and probe settings for one run, read from the environment now (never stored).
 * Semantic names map to environment variable names through `testValueSecretRefs`; a probe's URL and token are
 * test values named by its criterion's `evidenceProbeRefs` entry.
 */
export function runSecrets(repository: Pick<ConnectedRepository, 'testValueSecretRefs' | 'evidenceProbeRefs'>, readSecret: ReadSecret): RunSecrets {
  const values = new Map<string, string>();
  for (const [name, variable] of Object.entries(repository.testValueSecretRefs)) {
    const value = readSecret(variable);
    if (value !== undefined && value !== '') values.set(name, value);
  }
  const scrubber = createTraceScrubber(values.values());
  return {
    scrubber,
    values: [...values.values()],
    testValue: (name) => values.get(name),
    probeTarget(criterion) {
      const refs = repository.evidenceProbeRefs[criterion];
      if (!refs) return { missing: `No evidence probe is configured for "${criterion}" (evidenceProbeRefs)` };
      const url = values.get(refs.urlValueRef);
      const token = values.get(refs.tokenValueRef);
      if (url === undefined || token === undefined) {
        const unset = [url === undefined ? refs.urlValueRef : undefined, token === undefined ? refs.tokenValueRef : undefined].filter(Boolean);
        return { missing: `The evidence probe for "${criterion}" needs test values ${unset.map((name) => `"${name}"`).join(' and ')}, which are not set on the worker` };
      }
      return { url, token };
    },
  };
}
