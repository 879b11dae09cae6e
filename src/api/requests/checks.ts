/** The request schemas of `/api/checks` (`/api/scenarios`): the router parses with them; the OpenAPI document is generated from them. */
import { z } from 'zod';

/** `repositoryId` and `projectId` are the same filter under the two naming sets; both are accepted on either path. */
export const listQuery = z.strictObject({
  repositoryId: z.string().min(1).max(64).optional(),
  projectId: z.string().min(1).max(64).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const sourceQuery = z.strictObject({ version: z.coerce.number().int().min(1).max(1_000_000).optional() });

/** A version number in its one canonical form; anything else names no version (404, like a malformed id). */
export const VERSION_PATH = /^[1-9][0-9]{0,8}$/;
