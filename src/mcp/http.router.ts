import { Router, type RequestHandler } from 'express';
import { principalOf } from '../api/auth.js';
import { jsonBody } from '../api/json-body.js';
import { AppError, ErrorCode } from '../core/errors.js';
import { createServicePort, type ServicePortDeps } from './service-port.js';
import type { McpServerInfo } from './server-info.js';

export interface McpRouterDeps extends ServicePortDeps {
  /** The API's own authentication (src/api/auth.ts): an API key, or a ready session. */
  authenticate: RequestHandler;
  info: McpServerInfo;
}

const notAllowed: RequestHandler = (_req, _res, next) => {
  next(new AppError({ kind: 'user', code: ErrorCode.McpMethodNotAllowed, status: 405, message: 'The MCP endpoint is stateless: send JSON-RPC requests with POST' }));
};

/**
 * `/mcp`: the MCP tools over streamable HTTP, stateless (no session id: each POST is answered on its own, as JSON or
 * as a server-sent stream when a tool sends progress). The caller is authenticated as for the API, and the tools
 * call the use cases for that caller, so another organization's ids are not found, as in the API.
 */
export function createMcpRouter(deps: McpRouterDeps): Router {
  const router = Router();
  router.use(deps.authenticate);
  router.post('/', jsonBody('256kb'), async (req, res) => {
    // The MCP SDK (with its JSON-schema validator) is loaded at the first call, not with the service: it costs a
    // process about 0.25 s of CPU to load, and most deployments' processes never serve /mcp.
    const [{ StreamableHTTPServerTransport }, { createQaMcpServer }] = await Promise.all([import('@modelcontextprotocol/sdk/server/streamableHttp.js'), import('./tools.js')]);
    const server = createQaMcpServer(createServicePort(deps, principalOf(res)), deps.info);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  router.get('/', notAllowed);
  router.delete('/', notAllowed);
  return router;
}
