import { ErrorCode, operationalError, userError, type AppError } from '../../core/errors.js';

export interface FetchLimits {
  /** Bytes received, and bytes of the checked-out files (checked before anything is written). */
  maxBytes: number;
  maxFiles: number;
  /** Wall time of the whole fetch: init, fetch, listing and checkout. */
  timeoutMs: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { maxBytes: 512 * 1024 * 1024, maxFiles: 100_000, timeoutMs: 5 * 60_000 };

const MIB = 1024 * 1024;

/** The coded errors of the three bounds, each saying which bound and by how much. */
export function boundErrors(limits: FetchLimits) {
  return {
    timeout: (what: string): AppError =>
      operationalError(ErrorCode.RepositoryFetchTimeout, `Fetching ${what} took more than ${limits.timeoutMs} ms; git was stopped`, {
        status: 504,
        details: { timeoutMs: limits.timeoutMs },
      }),
    tooLarge: (bytes: number, measured: 'received' | 'checked_out'): AppError =>
      userError(
        ErrorCode.RepositoryTooLarge,
        `The revision is over the size bound: ${(bytes / MIB).toFixed(1)} MiB ${measured === 'received' ? 'received so far' : 'of files'}, more than ${(limits.maxBytes / MIB).toFixed(1)} MiB`,
        { status: 413, details: { limitBytes: limits.maxBytes, bytes, measured } },
      ),
    /** `atLeast`: the listing was stopped at `files`, so there are more. */
    tooManyFiles: (files: number, atLeast: boolean): AppError =>
      userError(ErrorCode.RepositoryTooManyFiles, `The revision has ${atLeast ? 'at least ' : ''}${files} files, more than the bound of ${limits.maxFiles}`, {
        status: 413,
        details: { limit: limits.maxFiles, files },
      }),
  };
}
