import type { Command } from 'commander';
import { serveOverStdio } from '../../mcp/stdio.js';
import { createQaMcpServer, QA_MCP_SERVER } from '../../mcp/tools.js';
import { apiClientOf } from '../client-verbs.js';
import type { CliContext } from '../context.js';
import { createRestPort } from '../mcp-port.js';

/**
 * `qa mcp`: the MCP tools for a local coding agent (Claude Code, Cursor, …) over stdio, each a call of the running
 * service's REST API (QA_API_URL, QA_API_KEY), as the other client verbs make. Runs until the agent closes stdin;
 * stdout carries the protocol only. docs/mcp.md has the agents' configuration.
 */
export function registerMcp(program: Command, context: CliContext): void {
  program
    .command('mcp')
    .description('serve the QA tools to a coding agent over MCP on stdio (needs QA_API_URL and QA_API_KEY)')
    .action(async () => {
      await serveOverStdio(createQaMcpServer(createRestPort(apiClientOf(context)), QA_MCP_SERVER));
    });
}
