import type { Readable, Writable } from 'node:stream';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/**
 * Serves `server` on `stdin` and `stdout` (stdout carries the protocol only: nothing else may write there) until the
 * client closes stdin, as a client does to stop a stdio server; resolves then.
 */
export async function serveOverStdio(server: McpServer, stdin: Readable = process.stdin, stdout: Writable = process.stdout): Promise<void> {
  const ended = new Promise<void>((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
  });
  await server.connect(new StdioServerTransport(stdin, stdout));
  await ended;
  await server.close();
}
