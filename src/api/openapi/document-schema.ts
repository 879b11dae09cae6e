import { z } from 'zod';

/** 200 of GET /api/openapi.json: an OpenAPI 3.1 document (only its frame is checked; the rest is as generated). */
export const openApiDocumentSchema = z
  .object({
    openapi: z.literal('3.1.0'),
    info: z.object({ title: z.string(), version: z.string() }).loose(),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
    components: z.record(z.string(), z.unknown()),
  })
  .loose();
