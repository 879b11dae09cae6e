/**
 * A process loads the heavy packages only for the parts it runs: Playwright and axe when the browser pool first
 * launches (or the first audit), Bolt and the Slack clients when chat is configured, and a `qa` process the store, the
 * servers and the MCP tools only for the verb that uses them. The composition root is built
 * in a plain Node process from `dist` (as `npm start` runs it), on SQLite, and the packages in its module cache are
 * read afterwards; the same build with a chat setting shows that the check sees a package that is loaded.
 */
import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CONFIG_VARIABLES } from '../support/qa-cli.js';

const run = promisify(execFile);

const WATCHED = ['playwright', 'playwright-core', '@axe-core/playwright', '@slack/bolt', '@slack/web-api', '@slack/socket-mode'];

/** Builds the services of `qa serve` with `env` in a fresh process; the watched packages it loaded, by name. */
async function packagesLoaded(env: Record<string, string>): Promise<string[]> {
  const folder = mkdtempSync(join(tmpdir(), 'qa-compose-loading-'));
  const script = `
    import { createRequire } from 'node:module';
    import { pathToFileURL } from 'node:url';
    const from = (path) => import(pathToFileURL(path).href);
    const { loadConfig } = await from('dist/src/config.js');
    const { createLogger } = await from('dist/src/logger.js');
    const { composeServices } = await from('dist/src/compose/index.js');
    const config = loadConfig(process.env, { isTTY: false });
    const services = await composeServices(config, createLogger({ level: 'silent', format: 'json' }));
    await services.close();
    const loaded = new Set(Object.keys(createRequire(import.meta.url).cache).map((file) => {
      const match = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(file);
      return match ? match[1] : '';
    }));
    console.log(JSON.stringify(${JSON.stringify(WATCHED)}.filter((name) => loaded.has(name))));
  `;
  const inherited = { ...process.env };
  for (const name of [...CONFIG_VARIABLES, 'NODE_OPTIONS']) delete inherited[name];
  try {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...inherited, SQLITE_PATH: join(folder, 'qa.sqlite'), ARTIFACTS_DIR: join(folder, 'artifacts'), ...env },
      timeout: 60_000,
    });
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as string[];
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('what the composition root loads', () => {
  it('loads neither Playwright nor Bolt for a process without a browser run and without chat', async () => {
    expect(await packagesLoaded({})).toEqual([]);
  });

  it('loads Bolt and the Slack clients once a chat setting is given, and still no Playwright', async () => {
    const loaded = await packagesLoaded({ CHAT_SIGNING_SECRET: 'test-signing-secret', CHAT_BOT_TOKEN: 'xoxb-test-token' });
    expect(loaded).toEqual(expect.arrayContaining(['@slack/bolt', '@slack/web-api']));
    expect(loaded.filter((name) => name.startsWith('playwright') || name.startsWith('@axe-core'))).toEqual([]);
  });
});

describe('what the qa program loads before a verb runs', () => {
  /** Imported with the program (the parsing of every verb), these cost each `qa` process, `qa --help` included. */
  const HEAVY = ['typeorm', 'mysql2', 'better-sqlite3', 'express', 'compromise', 'prom-client', 'zod-openapi', '@slack/bolt', 'playwright', 'playwright-core'];

  it('loads no store, server, tagger or MCP tools: each verb imports what it runs when it runs', async () => {
    const script = `
      import { createRequire } from 'node:module';
      import { pathToFileURL } from 'node:url';
      await import(pathToFileURL('dist/src/cli/program.js').href);
      const loaded = new Set(Object.keys(createRequire(import.meta.url).cache).map((file) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(file)?.[1]));
      console.log(JSON.stringify(${JSON.stringify(HEAVY)}.filter((name) => loaded.has(name))));
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { timeout: 60_000 });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual([]);
  });
});
