import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { verifyApiKey } from '../../src/identity/api-keys.js';
import { createChatWorkspaces, type ChatWorkspaces } from '../../src/jobs/chat/chat-workspaces.js';
import { WebhookReceipt } from '../../src/store/entities/webhook-receipt.entity.js';
import { openStore } from '../../src/store/open-store.js';
import { dropMysqlDatabase, testDialects, testMysqlUrl } from '../support/databases.js';
import { silentLogger } from '../support/logger.js';
import { freePort, qa, spawnQa, until } from '../support/qa-cli.js';

const messages = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { msg: string }).msg);

describe('qa (the real process)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'qa-test-cli-'));
  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('qa keys create prints a working key alone on the last line, and rejects a bad slug with exit 2', async () => {
    const path = join(folder, 'keys.sqlite');
    // A fresh database, so the run also migrates and logs: the logs must not reach stdout.
    const run = await qa(['keys', 'create', '--org', 'acme-qa'], { SQLITE_PATH: path, LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('applied migration');
    expect(run.stdout).not.toContain('"level"');
    const key = run.stdout.trim().split('\n').at(-1)!;
    expect(key).toMatch(/^qa_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    const dataSource = await openStore({ database: { kind: 'sqlite', path } }, silentLogger());
    try {
      expect((await verifyApiKey(dataSource, key))?.organization.slug).toBe('acme-qa');
    } finally {
      await dataSource.destroy();
    }
    const bad = await qa(['keys', 'create', '--org', 'Not A Slug'], { SQLITE_PATH: path, LOG_LEVEL: 'silent' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/slug/i);
  });

  it('qa flags pauses and resumes a capability for one organization or all, and refuses unknown ones', async () => {
    const path = join(folder, 'flags.sqlite');
    const env = { SQLITE_PATH: path, LOG_LEVEL: 'silent' };
    expect((await qa(['keys', 'create', '--org', 'acme'], env)).code).toBe(0);
    const paused = await qa(['flags', 'pause', 'ai', '--org', 'acme'], env);
    expect(paused.code).toBe(0);
    expect(paused.stdout).toContain('ai execution paused for organization "acme"');
    expect((await qa(['flags', 'pause', 'live'], env)).code).toBe(0);
    const dataSource = await openStore({ database: { kind: 'sqlite', path } }, silentLogger());
    try {
      const { pausedCapabilities } = await import('../../src/store/execution-flags.js');
      const [{ id }] = (await dataSource.query("SELECT id FROM organizations WHERE slug = 'acme'")) as { id: string }[];
      expect([...(await pausedCapabilities(dataSource, id!))].sort()).toEqual(['ai', 'live']);
      expect((await qa(['flags', 'resume', 'live'], env)).code).toBe(0);
      expect([...(await pausedCapabilities(dataSource, id!))]).toEqual(['ai']);
    } finally {
      await dataSource.destroy();
    }
    const unknownOrg = await qa(['flags', 'pause', 'ai', '--org', 'nobody'], env);
    expect([unknownOrg.code, unknownOrg.stderr.includes('No organization with slug "nobody"')]).toEqual([2, true]);
    const unknownCapability = await qa(['flags', 'pause', 'everything'], env);
    expect([unknownCapability.code, unknownCapability.stderr.includes('Unknown capability')]).toEqual([2, true]);
  });

  it('qa owners exclude and qa installations connect record what the repository rules check', async () => {
    const path = join(folder, 'admission.sqlite');
    const env = { SQLITE_PATH: path, LOG_LEVEL: 'silent' };
    expect((await qa(['keys', 'create', '--org', 'acme'], env)).code).toBe(0);
    const excluded = await qa(['owners', 'exclude', 'Spam-Bot'], env);
    expect([excluded.code, excluded.stdout.trim()]).toEqual([0, 'Owner "spam-bot" is excluded']);
    const connected = await qa(['installations', 'connect', '--installation', '42', '--org', 'acme'], env);
    expect(connected.code).toBe(0);
    const dataSource = await openStore({ database: { kind: 'sqlite', path } }, silentLogger());
    try {
      const admission = await import('../../src/store/repository-admission.js');
      const [{ id }] = (await dataSource.query("SELECT id FROM organizations WHERE slug = 'acme'")) as { id: string }[];
      expect(await admission.isOwnerExcluded(dataSource, [], 'spam-bot')).toBe(true);
      expect(await admission.isInstallationConnected(dataSource, 'codehost', '42', id!)).toBe(true);
    } finally {
      await dataSource.destroy();
    }
    const badOwner = await qa(['owners', 'exclude', 'not/an owner'], env);
    expect([badOwner.code, /not a code-host owner name/.test(badOwner.stderr)]).toEqual([2, true]);
    const noOrg = await qa(['installations', 'connect', '--installation', '7', '--org', 'nobody'], env);
    expect([noOrg.code, /No organization with slug "nobody"/.test(noOrg.stderr)]).toEqual([2, true]);
    expect((await qa(['installations', 'connect', '--org', 'acme'], env)).code).toBe(2);
  });

  it('qa webhooks list shows failed and dead deliveries, and redeliver queues one again; unknown or unfailed ids are refused', async () => {
    const path = join(folder, 'webhooks.sqlite');
    const env = { SQLITE_PATH: path, LOG_LEVEL: 'silent' };
    expect((await qa(['keys', 'create', '--org', 'acme'], env)).code).toBe(0);
    const at = new Date('2026-11-24T10:00:00.000Z');
    const dataSource = await openStore({ database: { kind: 'sqlite', path } }, silentLogger());
    try {
      const row = { provider: 'codehost', event: 'pull_request', bodySha256: 'a'.repeat(64), payload: {}, receivedAt: at, updatedAt: at };
      await dataSource.getRepository(WebhookReceipt).insert([
        { ...row, id: '00000000-0000-4000-8000-000000000001', deliveryId: 'dead-delivery', status: 'dead', attempts: 6, lastError: 'code host answered 502' },
        { ...row, id: '00000000-0000-4000-8000-000000000002', deliveryId: 'done-delivery', status: 'completed', attempts: 1 },
      ]);
    } finally {
      await dataSource.destroy();
    }

    const failed = await qa(['webhooks', 'list', '--failed'], env);
    expect([failed.code, failed.stdout.trim()]).toEqual([0, '00000000-0000-4000-8000-000000000001\tcodehost\tpull_request\tdead-delivery\tdead\tattempts=6\tcode host answered 502']);
    expect((await qa(['webhooks', 'list'], env)).stdout.trim().split('\n')).toHaveLength(2);

    const redelivered = await qa(['webhooks', 'redeliver', 'dead-delivery'], env);
    expect([redelivered.code, redelivered.stdout.trim()]).toEqual([0, 'Delivery dead-delivery is queued again']);
    expect((await qa(['webhooks', 'list', '--failed'], env)).stdout.trim()).toBe('No failed deliveries');
    const check = await openStore({ database: { kind: 'sqlite', path } }, silentLogger());
    try {
      expect(await check.getRepository(WebhookReceipt).findOneByOrFail({ deliveryId: 'dead-delivery' })).toMatchObject({ status: 'pending', attempts: 0 });
      expect(await check.query("SELECT name FROM agenda_jobs WHERE name = 'webhook-delivery'")).toHaveLength(1);
    } finally {
      await check.destroy();
    }

    const again = await qa(['webhooks', 'redeliver', 'done-delivery'], env);
    expect([again.code, /has not failed/.test(again.stderr)]).toEqual([2, true]);
    const unknown = await qa(['webhooks', 'redeliver', 'no-such-delivery'], env);
    expect([unknown.code, /No webhook delivery/.test(unknown.stderr)]).toEqual([2, true]);
  });

  it('qa chat connect and disconnect a workspace, print what they did, and refuse an unknown organization or team', async () => {
    const path = join(folder, 'chat.sqlite');
    const env = { SQLITE_PATH: path, LOG_LEVEL: 'silent' };
    expect((await qa(['keys', 'create', '--org', 'acme'], env)).code).toBe(0);
    const connected = await qa(['chat', 'connect', '--team', 'T0123ABCD', '--org', 'acme', '--name', 'Acme HQ'], env);
    expect([connected.code, connected.stdout.trim()]).toEqual([0, 'Slack workspace T0123ABCD (CHAT_BOT_TOKEN) is connected to organization "acme"']);
    const tokenKey = randomBytes(32);
    const workspaces = async <T>(work: (chat: ChatWorkspaces, organizationId: string) => Promise<T>): Promise<T> => {
      const dataSource = await openStore({ database: { kind: 'sqlite', path } }, silentLogger());
      try {
        const [{ id }] = (await dataSource.query("SELECT id FROM organizations WHERE slug = 'acme'")) as { id: string }[];
        return await work(createChatWorkspaces({ dataSource, tokenKey }), id!);
      } finally {
        await dataSource.destroy();
      }
    };
    await workspaces(async (chat, acme) => {
      expect(await chat.find('T0123ABCD')).toEqual({ teamId: 'T0123ABCD', teamName: 'Acme HQ', organizationId: acme, botUserId: null, botToken: null });
      await chat.saveInstallation({ teamId: 'T0OAUTH1', teamName: 'Installed', botUserId: 'U0BOT', botToken: 'xoxb-1-2-installed', installedBy: 'U1' });
    });
    const installed = await qa(['chat', 'connect', '--team', 'T0OAUTH1', '--org', 'acme'], env);
    expect([installed.code, installed.stdout.trim()]).toEqual([0, 'Slack workspace T0OAUTH1 (installed) is connected to organization "acme"']);

    const noOrg = await qa(['chat', 'connect', '--team', 'T0123ABCD', '--org', 'nobody'], env);
    expect([noOrg.code, /No organization with slug "nobody"/.test(noOrg.stderr)]).toEqual([2, true]);
    const badTeam = await qa(['chat', 'connect', '--team', 'general', '--org', 'acme'], env);
    expect([badTeam.code, /"general" is not a Slack team id/.test(badTeam.stderr)]).toEqual([2, true]);
    expect((await qa(['chat', 'connect', '--org', 'acme'], env)).code).toBe(2);

    const disconnected = await qa(['chat', 'disconnect', '--team', 'T0123ABCD'], env);
    expect([disconnected.code, disconnected.stdout.trim()]).toEqual([0, 'Slack workspace T0123ABCD is disconnected']);
    await workspaces(async (chat, acme) => {
      expect(await chat.find('T0123ABCD')).toMatchObject({ organizationId: null });
      expect(await chat.find('T0OAUTH1')).toMatchObject({ organizationId: acme, botToken: 'xoxb-1-2-installed' });
    });
    const unknown = await qa(['chat', 'disconnect', '--team', 'T0NEVER'], env);
    expect([unknown.code, unknown.stdout, unknown.stderr.trim()]).toEqual([2, '', 'No chat workspace T0NEVER: it was never connected or installed, so there is nothing to disconnect (check the team id)']);
  });

  it('qa migrate creates and migrates the embedded SQLite database, then exits 0', async () => {
    const path = join(folder, 'data', 'qa.sqlite');

    const run = await qa(['migrate'], { SQLITE_PATH: path });

    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(path)).toBe(true);
    expect(messages(run.stdout)).toContain('applied migration');
    expect(messages(run.stdout).at(-1)).toBe('database schema is up to date');
  });

  // Part of a run only when it covers MySQL (TEST_DIALECTS), like the blocks of forEachDialect.
  if (testDialects().includes('mysql')) it('qa migrate creates a missing MySQL database', async () => {
    const url = testMysqlUrl('_cli');
    await dropMysqlDatabase(url);
    try {
      const run = await qa(['migrate'], { DATABASE_URL: url });

      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(messages(run.stdout)[0]).toBe('created database');
    } finally {
      await dropMysqlDatabase(url);
    }
  });

  it('exits 2 with the configuration error on stderr', async () => {
    const run = await qa(['migrate'], { WORKER_CONCURRENCY: 'lots' });

    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'Invalid configuration: WORKER_CONCURRENCY must be an integer between 1 and 256 (got "lots")\n',
    );
  });

  it('exits 2 on an unknown verb, and 0 for --help', async () => {
    const unknown = await qa(['frobnicate'], {});
    const help = await qa(['--help'], {});

    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/migrate[\s\S]*worker[\s\S]*start/);
  });

  it.each([['serve'], ['worker'], ['start']])(
    'qa %s runs until SIGTERM, stops once however many signals follow, and exits 0',
    async (verb) => {
      const qaProcess = spawnQa([verb], {
        SQLITE_PATH: join(folder, `${verb}.sqlite`),
        ARTIFACTS_DIR: join(folder, `${verb}-artifacts`),
        PORT: String(await freePort()),
        SHUTDOWN_GRACE_MS: '2000',
      });
      const ready = () => qaProcess.run.stdout.includes('running; stop with SIGTERM or SIGINT');
      await until(() => ready() || qaProcess.child.exitCode !== null, `qa ${verb} to run`);
      if (!ready()) throw new Error(`qa ${verb} exited before running: ${(await qaProcess.exited).stderr}`);

      qaProcess.child.kill('SIGTERM');
      qaProcess.child.kill('SIGINT');
      const run = await qaProcess.exited;

      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(messages(run.stdout).filter((message) => message === 'stopping')).toHaveLength(1);
      expect(messages(run.stdout).at(-1)).toBe('stopped');
    },
  );
});
