import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { CHAT_WEBHOOK_PATH } from '../../bot/app.js';
import { BOT_SCOPES, INSTALL_PATH, REDIRECT_PATH } from '../../bot/oauth/install-routes.js';
import { createChatWorkspaces } from '../../src/jobs/chat/chat-workspaces.js';
import type { DemoApp } from '../fixtures/demo-app/index.js';
import type { FakeSlack, OAuthGrant } from '../fakes/slack-api.js';
import { CHAT_PUBLIC_BASE_URL as PUBLIC_BASE_URL, seedAcmeShop, useChatEndToEnd } from '../support/chat-service.js';
import { appMention, eventCallback, signSlackRequest, slackTs } from '../support/slack-requests.js';

const SECRET = 'e2e-chat-signing-secret';
const CLIENT_ID = '1111.2222';
const CLIENT_SECRET = 'e2e-client-secret';
const AUTHORIZE_URL = 'https://slack.example.test/oauth/v2/authorize';
const STATE_COOKIE = 'slack-app-oauth-state';
const TOKEN_KEY = randomBytes(32);

/** A workspace that installs the app through "Add to Slack" (not the fakes' default one). */
const GLOBEX = { teamId: 'T0GLOBEX1', teamName: 'Globex', botUserId: 'U0GLOBOT1', channelId: 'C0GLOBEX1', userId: 'U0GLOHUM1', adminId: 'U0GLOADM1' };

/**
 * Distribution to many workspaces: the OAuth v2 install flow against the service as `qa start` runs it, a fake Slack
 * that checks the client credentials and the redirect URI, and the demo shop. The browser's part (following the
 * redirect to Slack, Slack redirecting back with a code) is played by the test with the state and cookie the
 * service handed out.
 */
describe('installing the Slack app with OAuth v2', () => {
  const { store, parts } = useChatEndToEnd({
    slack: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
    chat: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, stateSecret: 'e2e-state-secret', tokenKey: TOKEN_KEY, signingSecret: SECRET, authorizeUrl: AUTHORIZE_URL },
  });
  let demo: DemoApp;
  let slack: FakeSlack;
  let base: string;
  beforeAll(() => void ({ demo, slack, running: { base } } = parts()));

  /** The organization and its shop repository, no workspace; the fake forgets the last test's calls. */
  beforeEach(async () => {
    slack.reset();
    await seedAcmeShop(store(), demo.url);
  });

  let codes = 0;
  /** A one-use code Slack would hand the browser after the person approved the install. */
  function grant(overrides: Partial<OAuthGrant> = {}): { code: string; token: string } {
    codes += 1;
    const token = `xoxb-globex-installed-${codes}-${randomBytes(6).toString('hex')}`;
    const code = `code-${codes}`;
    slack.addOAuthCode(code, { teamId: GLOBEX.teamId, teamName: GLOBEX.teamName, botUserId: GLOBEX.botUserId, authedUserId: GLOBEX.adminId, accessToken: token, redirectUri: `${PUBLIC_BASE_URL}${REDIRECT_PATH}`, ...overrides });
    return { code, token };
  }

  /** `GET /api/chat/install`: the redirect to Slack's authorize page, and the state it carries in the URL and a cookie. */
  async function startInstall(): Promise<{ authorize: URL; state: string; cookie: string }> {
    const response = await fetch(`${base}${INSTALL_PATH}`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const authorize = new URL(response.headers.get('location') ?? '');
    const state = authorize.searchParams.get('state') ?? '';
    const setCookie = response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${STATE_COOKIE}=`)) ?? '';
    expect(setCookie).toMatch(/HttpOnly/i);
    return { authorize, state, cookie: setCookie.split(';')[0]! };
  }

  /** Slack sends the browser back: `GET /api/chat/oauth_redirect?…` with the cookie the browser holds (if any). */
  async function callback(query: Record<string, string>, cookie?: string): Promise<{ status: number; page: string }> {
    const response = await fetch(`${base}${REDIRECT_PATH}?${new URLSearchParams(query).toString()}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    return { status: response.status, page: await response.text() };
  }

  async function install(code: string): Promise<{ status: number; page: string }> {
    const { state, cookie } = await startInstall();
    return callback({ code, state }, cookie);
  }

  const workspaceRows = async () => (await store().query('SELECT * FROM chat_workspaces')) as Record<string, unknown>[];

  /** A signed mention from the installed workspace; returns its thread. */
  async function mention(text: string): Promise<string> {
    const ts = slackTs();
    const event = appMention({ user: GLOBEX.userId, text: `<@${GLOBEX.botUserId}> ${text}`, channel: GLOBEX.channelId, teamId: GLOBEX.teamId, ts });
    const body = JSON.stringify(eventCallback(event, { teamId: GLOBEX.teamId, botUserId: GLOBEX.botUserId }));
    const response = await fetch(`${base}${CHAT_WEBHOOK_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', ...signSlackRequest(SECRET, body) }, body });
    expect(response.status).toBe(200);
    return ts;
  }
  const botMessages = (threadTs: string) => slack.messages(GLOBEX.channelId).filter((message) => message.thread_ts === threadTs && message.user === GLOBEX.botUserId);
  /** The tokens of every call that posted or edited a message in the workspace's channel. */
  const tokensUsed = () => [...new Set(slack.calls.filter((call) => ['chat.postMessage', 'chat.update'].includes(call.method) && call.params.channel === GLOBEX.channelId).map((call) => call.token))];

  it('sends the person to Slack with the scopes and a state bound to their browser, stores the installation encrypted and unconnected, and runs once connected', async () => {
    const { authorize, state, cookie } = await startInstall();
    expect(`${authorize.origin}${authorize.pathname}`).toBe(AUTHORIZE_URL);
    expect(authorize.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(authorize.searchParams.get('scope')?.split(',')).toEqual(BOT_SCOPES);
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${PUBLIC_BASE_URL}${REDIRECT_PATH}`);
    expect(state).not.toBe('');
    expect(cookie).toBe(`${STATE_COOKIE}=${state}`);

    const { code, token } = grant();
    const done = await callback({ code, state }, cookie);
    expect(done.status).toBe(200);
    expect(done.page).toContain('Installed');
    expect(done.page).toContain(`qa chat connect --team ${GLOBEX.teamId}`);

    // Stored, connected to no organization, the token only as ciphertext.
    const [row, ...others] = await workspaceRows();
    expect(others).toHaveLength(0);
    expect(row).toMatchObject({ team_id: GLOBEX.teamId, organization_id: null, bot_user_id: GLOBEX.botUserId, installed_by: GLOBEX.adminId, source: 'oauth' });
    expect(String(row!.bot_token_ciphertext)).toMatch(/^v1:/);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(token.slice('xoxb-'.length));

    // A mention before anyone connected it: the one polite answer, posted with the installed token; nothing runs.
    const waiting = await mention(`on ${demo.url}: open the home page`);
    const polite = await slack.waitFor(() => botMessages(waiting).find((message) => /not connected/i.test(message.text)), 20_000);
    expect(polite.text).toContain(`qa chat connect --team ${GLOBEX.teamId}`);
    expect(tokensUsed()).toEqual([token]);
    expect(await store().query('SELECT id FROM jobs')).toEqual([]);

    // Connected by an administrator: a task from that workspace runs, its progress posted with the installed token.
    await createChatWorkspaces({ dataSource: store(), tokenKey: TOKEN_KEY }).connect({ teamId: GLOBEX.teamId, organizationSlug: 'acme' });
    const thread = await mention(`on ${demo.url}: open the home page and check that the page says "Gadgets Galore Superstore"`);
    const final = await slack.waitFor(() => botMessages(thread).find((message) => message.metadata?.event_type === 'qa_job_progress' && /passed|failed|errored/i.test(message.text)), 60_000);
    expect(final.text).toMatch(/failed/i);
    const [job] = (await store().query('SELECT organization_id FROM jobs')) as { organization_id: string }[];
    const [{ id: acmeId }] = (await store().query("SELECT id FROM organizations WHERE slug = 'acme'")) as { id: string }[];
    expect(job?.organization_id).toBe(acmeId);
    expect(tokensUsed()).toEqual([token]);
  }, 120_000);

  it('refuses a missing, forged or reused state, a state without its cookie, a code used twice and a cancelled install, storing nothing', async () => {
    const refused = async (outcome: Promise<{ status: number; page: string }>) => {
      const { status, page } = await outcome;
      expect(status).toBe(400);
      expect(page).toContain('Not installed');
    };
    const { code } = grant();

    const missing = await startInstall();
    await refused(callback({ code }, missing.cookie));
    // A state the service did not sign, sent with a matching cookie (what an attacker controls).
    const forged = 'eyJhbGciOiJIUzI1NiJ9.eyJpbnN0YWxsT3B0aW9ucyI6e30sIm5vdyI6IjIwMjYtMDEtMDFUMDA6MDA6MDBaIn0.forged';
    await refused(callback({ code, state: forged }, `${STATE_COOKIE}=${forged}`));
    // A genuine state, but not this browser's: no cookie, or another install's cookie.
    const genuine = await startInstall();
    await refused(callback({ code, state: genuine.state }));
    const other = await startInstall();
    await refused(callback({ code, state: genuine.state }, other.cookie));
    // The person pressed Cancel on Slack's page.
    const cancelled = await startInstall();
    await refused(callback({ error: 'access_denied', state: cancelled.state }, cancelled.cookie));
    expect(await workspaceRows()).toEqual([]);

    // The code still works once; then neither it nor the state it came with works again.
    const first = await startInstall();
    expect((await callback({ code, state: first.state }, first.cookie)).status).toBe(200);
    const [installed] = await workspaceRows();
    const again = await startInstall();
    await refused(callback({ code, state: again.state }, again.cookie));
    const { code: otherTeamCode } = grant({ teamId: 'T0EVILCO1', teamName: 'Evil', botUserId: 'U0EVILBT1' });
    await refused(callback({ code: otherTeamCode, state: first.state }, first.cookie));
    expect(await workspaceRows()).toEqual([installed]);
  }, 60_000);

  it('replaces the token on a reinstall and keeps the connection', async () => {
    const firstInstall = grant();
    expect((await install(firstInstall.code)).status).toBe(200);
    const workspaces = createChatWorkspaces({ dataSource: store(), tokenKey: TOKEN_KEY });
    const { organizationId } = await workspaces.connect({ teamId: GLOBEX.teamId, organizationSlug: 'acme' });
    const [before] = await workspaceRows();

    const reinstall = grant();
    expect((await install(reinstall.code)).status).toBe(200);
    const [after, ...others] = await workspaceRows();
    expect(others).toHaveLength(0);
    expect(after!.bot_token_ciphertext).not.toBe(before!.bot_token_ciphertext);
    expect(await workspaces.find(GLOBEX.teamId)).toMatchObject({ organizationId, botToken: reinstall.token });

    // The bot answers with the new token.
    const thread = await mention('help');
    await slack.waitFor(() => botMessages(thread).find((message) => /replay/i.test(message.text)), 20_000);
    expect(tokensUsed()).toEqual([reinstall.token]);
  }, 60_000);
});
