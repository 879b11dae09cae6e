/**
 * Routes of the Express app that the OpenAPI document leaves out, each with why: pages and files a browser loads,
 * not calls of the API. The route test accepts a route of the app only when it is an operation of the document or
 * listed here. `path` is as the route test reads it from the app (Express's own form; a RegExp route as its source).
 */
export const NOT_IN_DOCUMENT: readonly { method: string; path: string; why: string }[] = [
  { method: 'get', path: '/jobs/:page', why: 'the job links the bot posts: sign-in first, then the dashboard page (HTML)' },
  { method: 'get', path: '/jobs/:id/artifacts/:artifactId', why: "a job page's artifact link for a signed-in browser (the API's is /api/jobs/{id}/artifacts/{artifactId})" },
  { method: 'use', path: '/trace', why: "Playwright's trace viewer: static files" },
  { method: 'use', path: '/assets', why: "the dashboard's built files" },
  { method: 'get', path: '/.*/', why: "the dashboard's pages (index.html for a browser's navigation; a machine gets the JSON 404)" },
  { method: 'get', path: '/api/chat/install', why: "the chat app's install page, for a person's browser (a redirect to the chat platform)" },
  { method: 'get', path: '/api/chat/oauth_redirect', why: "the chat platform's OAuth redirect back: an HTML page" },
  { method: 'get', path: '/metrics', why: "Prometheus's text exposition format for a scraper, not a JSON call (docs/operations.md#metrics)" },
  { method: 'post', path: '/mcp', why: "the Model Context Protocol's JSON-RPC for coding agents (docs/mcp.md): the MCP tools' own schemas describe it, and MCP clients read them with tools/list" },
  { method: 'get', path: '/mcp', why: 'MCP streamable HTTP: answers 405 (the server is stateless and opens no stream)' },
  { method: 'delete', path: '/mcp', why: 'MCP streamable HTTP: answers 405 (no session to end)' },
];
