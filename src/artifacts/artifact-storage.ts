import type { Readable } from 'node:stream';

/**
 * Where artifact bytes live. Keys are opaque, chosen by the caller, and never shown outside the service: the API
 * serves artifacts by id through an authenticated route, so no storage path or URL leaves the process.
 */
export interface ArtifactStorage {
  /** Stores `content` under `key`, replacing nothing: a key already taken is an error. */
  put(key: string, content: Buffer): Promise<void>;
  /** The bytes under `key`, as a stream; rejects with `artifact.missing` when there are none. */
  open(key: string): Promise<Readable>;
  /** Removes `key`; no error when it is already gone. */
  remove(key: string): Promise<void>;
}

/** A key is path-like segments of safe characters: nothing that could climb out of the storage root. */
export const ARTIFACT_KEY = /^(?:[A-Za-z0-9][A-Za-z0-9._-]{0,127})(?:\/[A-Za-z0-9][A-Za-z0-9._-]{0,127}){0,7}$/;

export function isArtifactKey(key: string): boolean {
  return ARTIFACT_KEY.test(key) && !key.split('/').some((segment) => segment === '.' || segment === '..');
}
