/** The request schemas of the admins' routes (keys, execution flags, installations); the OpenAPI document is generated from them. */
import { z } from 'zod';
import { CAPABILITIES } from '../../core/execution.js';

export const keyBody = z.strictObject({ label: z.string().trim().min(1).max(255).optional() });
/** A key's prefix, as `GET /api/keys` lists it; any other string names no live key (404). */
export const prefixParam = z.string().regex(/^[0-9a-f]{12}$/);
export const flagBody = z.strictObject({ paused: z.boolean() });
/** What an operator can pause; another word answers 404 `flags.unknown_capability`. */
export const capabilityParam = z.enum(CAPABILITIES);
/** A code-host installation id (digits); any other string names no reported installation (404). */
export const installationIdParam = z.string().regex(/^[1-9][0-9]{0,18}$/);
