/** How an MCP server introduces itself to a client. */
export interface McpServerInfo {
  name: string;
  version: string;
}

/** How both transports (`qa mcp` over stdio, `/mcp` over streamable HTTP) introduce themselves. */
export const QA_MCP_SERVER: McpServerInfo = { name: 'qa', version: '0.1.0' };
