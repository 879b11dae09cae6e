/**
 * Response schemas of the API: what each route answers, on the wire (JSON: times as ISO 8601 strings). The routers
 * build their answers to these and parse them on the way out (unknown fields are stripped, so a new entity column
 * never leaks by accident); the dashboard imports the same files. zod and src/core only: no express, no typeorm.
 */
import { z } from 'zod';

export const idSchema = z.string();
export const timestampSchema = z.iso.datetime();

/** `{ "error": { "code", "message", "details"? } }`: every error answer of the API. */
export const errorResponseSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
