import { Router } from 'express';
import { createOpenApiDocument } from './openapi/document.js';
import { API_COMPONENTS, API_OPERATIONS } from './openapi/operations.js';

/**
 * The API's version in the document: the spec sets no scheme (its section 9), so this is the interface's own, raised
 * when an answer changes in a way a generated client notices; not the package's.
 */
export const API_VERSION = '1.0.0';

/**
 * `GET /api/openapi.json`: public, like /healthz. It describes routes and shapes, never an organization's data, and a
 * client generator or a gateway fetches it without credentials. Generated on the first request, then kept.
 */
export function createOpenApiRouter(): Router {
  const router = Router();
  let document: ReturnType<typeof createOpenApiDocument> | undefined;
  router.get('/api/openapi.json', (_req, res) => {
    document ??= createOpenApiDocument(API_OPERATIONS, API_COMPONENTS, API_VERSION);
    res.setHeader('cache-control', 'no-cache');
    res.json(document);
  });
  return router;
}
