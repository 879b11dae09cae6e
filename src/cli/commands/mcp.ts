import type { Command } from 'commander';
import { apiClientOf } from '../client-verbs.js';
import type { CliContext } from '../context.js';
import { QA_MCP_SERVER } from '../../mcp/server-info.js';

/**
 * `qa mcp`: the MCP tools for a local coding agent (Claude Code, Cursor, …) over stdio, each a call of the running
 * service's REST API (QA_API_URL, QA_API_KEY), as the other client verbs make. Runs until the agent closes stdin;
 * stdout carries the protocol only. docs/mcp.md has the agents' configuration.
 * The MCP SDK and the tools' schemas (which reach the store's column limits, so TypeORM) load only when the verb runs:
 * imported with the program, they cost every `qa` process, `qa --help` included, over a second.
 */
export function registerMcp(program: Command, context: CliContext): void {
  program
    .command('mcp')
    .description('serve the QA tools to a coding agent over MCP on stdio (needs QA_API_URL and QA_API_KEY)')
    .action(async () => {
      const [{ serveOverStdio }, { createQaMcpServer }, { createRestPort }] = await Promise.all([
        import('../../mcp/stdio.js'),
        import('../../mcp/tools.js'),
        import('../mcp-port.js'),
      ]);
      await serveOverStdio(createQaMcpServer(createRestPort(apiClientOf(context)), QA_MCP_SERVER));
    });
}
