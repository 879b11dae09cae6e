import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { CHAT_WEBHOOK_PATH } from '../../bot/app.js';
import { ANSWER_YES } from '../../bot/blocks/actions.js';
import { createLogger } from '../../src/logger.js';
import type { DemoApp } from '../fixtures/demo-app/index.js';
import { FAKE_WORKSPACE, type FakeSlack, type RecordedCall, type StoredMessage } from '../fakes/slack-api.js';
import { jobIdOf } from '../support/chat-person.js';
import { seedAcmeShop, startChatProcess, useChatEndToEnd, type ChatProcess } from '../support/chat-service.js';
import { testMysqlUrl } from '../support/databases.js';
import { appMention, blockActionsPayload, channelMessage, eventCallback, FORM_CONTENT_TYPE, signSlackRequest, slackTs } from '../support/slack-requests.js';

const SECRET = 'e2e-chat-faults-signing-secret';
const { teamId, channelId, userId, botUserId, botToken } = FAKE_WORKSPACE;
const CHAT = { signingSecret: SECRET, botToken };
/** One short browser run against the demo shop (one page, one assertion). */
const QUICK_TASK = 'Check that the pricing page lists three plans';
/** The rule planner asks one yes/no side-effect question before it would run this. */
const REVIEW_TASK = 'Delete the demo account';
/** Several steps (sign-in, cart, coupon): long enough to stop its worker in the middle of it. */
const LONG_TASK = 'Sign in as the demo user, add the Desk Lamp to the cart, apply the coupon SAVE10 and check that the total shows $90';
/** The final text of a job's progress message (bot/blocks/progress.ts): `QA job <id> passed …`. */
const FINAL = /^QA job \S+ (passed|failed|errored|cancelled)\b/;

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read field by field
  body: any;
}

/** A POST to the chat receiver of `base`, signed unless told otherwise. */
async function post(
  base: string,
  body: string,
  { contentType = 'application/json', sign = SECRET, timestamp, headers = {} }: { contentType?: string; sign?: string | null; timestamp?: number; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const signature = sign === null ? {} : signSlackRequest(sign, body, timestamp);
  const response = await fetch(`${base}${CHAT_WEBHOOK_PATH}`, { method: 'POST', headers: { 'content-type': contentType, ...signature, ...headers }, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, body: parsed };
}

const mentionBody = (text: string, fields: { ts?: string; eventId?: string; team?: string; user?: string; userTeam?: string; threadTs?: string } = {}) => {
  const event = appMention({ user: fields.user ?? userId, text: `<@${botUserId}> ${text}`, channel: channelId, teamId: fields.userTeam ?? fields.team ?? teamId, ts: fields.ts ?? slackTs(), ...(fields.threadTs ? { threadTs: fields.threadTs } : {}) });
  return eventCallback(event, { teamId: fields.team ?? teamId, ...(fields.eventId ? { eventId: fields.eventId } : {}) });
};

const botReplies = (slack: FakeSlack, threadTs: string) => slack.messages(channelId).filter((message) => message.thread_ts === threadTs && message.user === botUserId);
const progressOf = (slack: FakeSlack, threadTs: string) => botReplies(slack, threadTs).filter((message) => message.metadata?.event_type === 'qa_job_progress');
/** The calls that put a job's final state into Slack and were answered ok. */
const finalDeliveries = (slack: FakeSlack) => slack.calls.filter((call) => ['chat.postMessage', 'chat.update'].includes(call.method) && call.outcome === 'ok' && FINAL.test(String(call.params.text)));
const okProgressPosts = (slack: FakeSlack) => slack.callsOf('chat.postMessage').filter((call) => call.outcome === 'ok' && JSON.stringify(call.params.metadata ?? null).includes('qa_job_progress'));
const outcomes = (calls: RecordedCall[]) => calls.map((call) => `${call.method}:${call.outcome}`);

/** Polls `probe` until it holds; rejects after `timeoutMs`. */
async function eventually(probe: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until the outbox records the job's final state as delivered (the commit follows Slack's answer). */
async function finalRecorded(store: DataSource, jobId: string): Promise<void> {
  await eventually(async () => {
    const [row] = (await store.query('SELECT final_delivered FROM job_notifications WHERE job_id = ?', [jobId])) as { final_delivered: number | string }[];
    return Number(row?.final_delivered) === 1;
  }, `job ${jobId}'s final state recorded as delivered`);
}

/** The progress message of the thread once it shows a final state; on time-out, says what the thread and the store show. */
async function finalMessage(slack: FakeSlack, store: DataSource, threadTs: string, timeoutMs: number): Promise<StoredMessage> {
  try {
    return await slack.waitFor(() => progressOf(slack, threadTs).find((message) => FINAL.test(message.text)), timeoutMs);
  } catch (error) {
    const jobs = await store.query('SELECT j.id, j.status, n.final_delivered, n.attempts, n.last_error, n.delivered_seq FROM jobs j LEFT JOIN job_notifications n ON n.job_id = j.id');
    throw new Error(`${String(error)}\nthread: ${JSON.stringify(progressOf(slack, threadTs).map((message) => message.text))}\njobs: ${JSON.stringify(jobs)}`);
  }
}

/** The log lines of the in-process service, as JSON objects. */
const logLines: Array<Record<string, unknown>> = [];
const recordingLogger = createLogger({ level: 'info', format: 'json' }, { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) });

/**
 * The faults of the chat issue, as an operator and an attacker meet them: malformed and hostile requests, bots and
 * outsiders, a Slack Web API that is down or refuses for good. The service runs as `qa start` in this process.
 */
describe('chat faults: one service (qa start)', () => {
  const { store, parts } = useChatEndToEnd({
    prepare: (fake) => fake.addToken(botToken, { teamId, botUserId, teamName: FAKE_WORKSPACE.teamName }),
    chat: CHAT,
    service: { logger: recordingLogger },
  });
  let demo: DemoApp;
  let slack: FakeSlack;
  let base: string;
  beforeAll(() => void ({ demo, slack, running: { base } } = parts()));
  beforeEach(async () => {
    slack.reset();
    logLines.length = 0;
    await seedAcmeShop(store(), demo.url, teamId);
  });

  const count = async (sql: string, params: unknown[] = []) => Number(((await store().query(sql, params)) as { n: number | string }[])[0]!.n);
  const jobCount = () => count('SELECT COUNT(*) AS n FROM jobs');

  /** Mentions the bot in a new thread and waits for the bot's first reply there. */
  async function ask(text: string): Promise<StoredMessage> {
    const ts = slackTs();
    expect((await post(base, JSON.stringify(mentionBody(text, { ts })))).status).toBe(200);
    return slack.waitFor(() => botReplies(slack, ts)[0], 20_000);
  }

  it('refuses unsigned, forged, stale, future, oversized and unparsable requests with coded 4xx answers, and stores nothing', async () => {
    const body = JSON.stringify(mentionBody(QUICK_TASK));
    const now = Math.floor(Date.now() / 1000);
    const cases: Array<[string, Promise<Answer>, number, string]> = [
      ['unsigned', post(base, body, { sign: null }), 401, 'chat.signature_missing'],
      ['only a timestamp', post(base, body, { sign: null, headers: { 'X-Slack-Request-Timestamp': String(now) } }), 401, 'chat.signature_missing'],
      ['signed with another secret', post(base, body, { sign: 'not-the-secret' }), 401, 'chat.signature_invalid'],
      ['a garbage signature', post(base, body, { sign: null, headers: { 'X-Slack-Request-Timestamp': String(now), 'X-Slack-Signature': 'v0=zz' } }), 401, 'chat.signature_invalid'],
      ['stale by six minutes', post(base, body, { timestamp: now - 6 * 60 }), 401, 'chat.request_stale'],
      ['six minutes in the future', post(base, body, { timestamp: now + 6 * 60 }), 401, 'chat.request_stale'],
      ['a timestamp that is no number', post(base, body, { sign: null, headers: { 'X-Slack-Request-Timestamp': '1e9', 'X-Slack-Signature': signSlackRequest(SECRET, body)['X-Slack-Signature'] } }), 401, 'chat.request_stale'],
      ['over the body limit', post(base, JSON.stringify(mentionBody('x'.repeat(300 * 1024)))), 413, 'request.too_large'],
      ['not JSON', post(base, '{"type":"event_callback",'), 400, 'request.invalid_json'],
    ];
    for (const [what, answer, status, code] of cases) {
      const { status: got, body: answered } = await answer;
      expect({ what, status: got, code: answered?.error?.code }).toEqual({ what, status, code });
    }
    // A body altered after signing: the signature no longer matches.
    const signed = signSlackRequest(SECRET, body);
    const tampered = await fetch(`${base}${CHAT_WEBHOOK_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', 'X-Slack-Signature': signed['X-Slack-Signature'], 'X-Slack-Request-Timestamp': signed['X-Slack-Request-Timestamp'] }, body: body.replace(QUICK_TASK, 'Delete the demo account') });
    expect([tampered.status, ((await tampered.json()) as Answer['body']).error.code]).toEqual([401, 'chat.signature_invalid']);

    expect(await count('SELECT COUNT(*) AS n FROM chat_event_receipts')).toBe(0);
    expect(await jobCount()).toBe(0);
    expect(slack.calls.filter((call) => call.method.startsWith('chat.'))).toEqual([]);
  });

  it('answers signed bodies it cannot use with a coded 400, and ignores unknown kinds with a log line', async () => {
    const garbage: Array<[string, string, string, string]> = [
      ['a form payload that is not JSON', new URLSearchParams({ payload: '{"type":"block_actions",' }).toString(), FORM_CONTENT_TYPE, 'request.invalid_json'],
      ['an empty form payload', 'payload=', FORM_CONTENT_TYPE, 'request.invalid_json'],
      ['a form payload that is JSON but no object', new URLSearchParams({ payload: '[1,2,3]' }).toString(), FORM_CONTENT_TYPE, 'request.invalid'],
      ['a form payload that is JSON null', new URLSearchParams({ payload: 'null' }).toString(), FORM_CONTENT_TYPE, 'request.invalid'],
      ['JSON that is no object', '[]', 'application/json', 'request.invalid'],
      ['JSON null', 'null', 'application/json', 'request.invalid'],
      ['a JSON string', '"event_callback"', 'application/json', 'request.invalid'],
      ['a form sent as text', 'payload=%7B%7D', 'text/plain', 'request.invalid_json'],
      ['an object of no kind (Bolt would hold it 3 s, then answer 404)', '{}', 'application/json', 'request.invalid'],
      ['an event without its event_id', JSON.stringify({ ...mentionBody(QUICK_TASK), event_id: undefined }), 'application/json', 'request.invalid'],
    ];
    for (const [what, body, contentType, code] of garbage) {
      const answer = await post(base, body, { contentType });
      expect({ what, status: answer.status, code: answer.body?.error?.code }).toEqual({ what, status: 400, code });
    }
    // A kind the bot does not handle is acknowledged (Slack would retry otherwise) and logged, and starts nothing.
    const reaction = eventCallback({ type: 'reaction_added', user: userId, reaction: 'tada', item: { type: 'message', channel: channelId, ts: slackTs() }, event_ts: slackTs() }, { teamId });
    expect((await post(base, JSON.stringify(reaction))).status).toBe(200);
    await slack.waitFor(() => logLines.find((line) => line.kind === 'reaction_added' && String(line.msg).includes('does not handle')), 5_000);
    // Slack's URL check still works beside all this.
    expect(await post(base, JSON.stringify({ token: 'x', challenge: 'ch-42', type: 'url_verification' }))).toEqual({ status: 200, body: { challenge: 'ch-42' } });
    expect(await jobCount()).toBe(0);
  });

  it('keeps and answers a mention with lone surrogates, control bytes, deeply nested blocks, credentials or a huge text: nothing is lost', async () => {
    // Slack's JSON may carry a lone UTF-16 surrogate as an escape; it is valid JSON but no valid Unicode.
    const surrogate = await ask('status abc\ud83d');
    expect(surrogate.text).toContain('abc\ufffd');
    expect(surrogate.text).toContain('is not a job id');
    const reversed = await ask('status \udc00x\ud800');
    expect(reversed.text).toContain('\ufffdx\ufffd');

    const control = await ask('status a\u0000b\u0007c\u001b[31m');
    expect(control.text).toContain('is not a job id');

    // Rich-text blocks nested deeper than MariaDB's JSON takes (32 levels): the text still gets its answer.
    const deepTs = slackTs();
    let deep: unknown = { type: 'text', text: 'deep' };
    for (let level = 0; level < 40; level += 1) deep = { type: 'rich_text_section', elements: [deep] };
    const nested = mentionBody('status deep-blocks', { ts: deepTs });
    expect((await post(base, JSON.stringify({ ...nested, event: { ...nested.event, blocks: [deep] } }))).status).toBe(200);
    expect((await slack.waitFor(() => botReplies(slack, deepTs)[0], 20_000)).text).toContain('`deep-blocks` is not a job id');
    expect(control.text).toContain('is not a job id');

    // An address with credentials in it is refused, without the password being repeated in the thread.
    const credentials = await ask(`on http://ada:s3cret@${new URL(demo.url).host}: ${QUICK_TASK}`);
    expect(credentials.text).toContain('carries a user name or password');
    expect(credentials.text).not.toContain('s3cret');

    const huge = await ask(`on ${demo.url}: ${'check the cart '.repeat(10_000)}`);
    expect(huge.text).toMatch(/That task is \d+ characters long; the most is 4000/);

    // Every delivery was stored and handled once; none started a job.
    await eventually(async () => (await count('SELECT COUNT(*) AS n FROM chat_event_receipts WHERE settled_at IS NOT NULL AND replied_at IS NOT NULL')) === 6, 'every delivery answered');
    expect(await count('SELECT COUNT(*) AS n FROM chat_event_receipts')).toBe(6);
    expect(await jobCount()).toBe(0);
  });

  it('ignores messages from bots, itself included, and politely refuses people of another workspace', async () => {
    const thread = slackTs();
    const ignored = [
      // Another app's bot mentioning us.
      eventCallback({ ...appMention({ user: 'U0OTHERBOT', text: `<@${botUserId}> ${QUICK_TASK}`, channel: channelId, teamId }), bot_id: 'B0OTHER01' }, { teamId }),
      // Our own message echoed back as a thread message, and as a bot_message.
      eventCallback({ ...channelMessage({ user: botUserId, text: '1. yes', channel: channelId, teamId, threadTs: thread }), bot_id: `B${teamId.slice(1)}` }, { teamId }),
      eventCallback({ ...channelMessage({ user: botUserId, text: '1. yes', channel: channelId, teamId, threadTs: thread }), subtype: 'bot_message', bot_id: 'B0OTHER01' }, { teamId }),
      // Ourselves mentioning ourselves without a bot_id (a user token of the bot user).
      eventCallback(appMention({ user: botUserId, text: `<@${botUserId}> ${QUICK_TASK}`, channel: channelId, teamId, threadTs: thread }), { teamId }),
    ];
    for (const body of ignored) expect((await post(base, JSON.stringify(body))).status).toBe(200);

    // Someone of another workspace in a shared channel: one polite refusal, no job.
    const outsiderTs = slackTs();
    const outsider = mentionBody(`on ${demo.url}: ${QUICK_TASK}`, { ts: outsiderTs, user: 'U0STRANGER', userTeam: 'T0OUTSIDE' });
    expect((await post(base, JSON.stringify(outsider))).status).toBe(200);
    const refusal = await slack.waitFor(() => botReplies(slack, outsiderTs)[0], 20_000);
    expect(refusal.text).toMatch(/only members of the workspace/);

    // A person's help request after all of them is answered: the bots' deliveries were handled (dropped) before it.
    const help = await ask('help');
    expect(help.text).toMatch(/What I can do/);
    expect(botReplies(slack, thread)).toEqual([]);
    expect(slack.callsOf('chat.postMessage').map((call) => call.params.thread_ts).sort()).toEqual([outsiderTs, help.thread_ts].sort());
    expect(await jobCount()).toBe(0);
  });

  it('refuses an outsider who answers a side-effect question, by reply or by button: the job keeps waiting for a member', async () => {
    const ts = slackTs();
    expect((await post(base, JSON.stringify(mentionBody(`on ${demo.url}: ${REVIEW_TASK}`, { ts })))).status).toBe(200);
    const asking = await slack.waitFor(() => progressOf(slack, ts).find((message) => /needs answers/.test(message.text)), 30_000);
    const jobId = jobIdOf(asking);

    // A guest of another workspace in the shared channel answers in the thread, then clicks Yes.
    const stranger = { user: 'U0STRANGER', teamId: 'T0OUTSIDE' };
    const reply = eventCallback(channelMessage({ user: stranger.user, text: 'yes', channel: channelId, teamId: stranger.teamId, threadTs: ts }), { teamId });
    expect((await post(base, JSON.stringify(reply))).status).toBe(200);
    const click = blockActionsPayload({ teamId, channelId, userId: stranger.user, messageTs: asking.ts, threadTs: ts, actions: [{ actionId: ANSWER_YES, value: jobId }] });
    const clickBody = new URLSearchParams({ payload: JSON.stringify({ ...click, user: { ...click.user, team_id: stranger.teamId } }) }).toString();
    expect((await post(base, clickBody, { contentType: FORM_CONTENT_TYPE })).status).toBe(200);

    const refusals = await slack.waitFor(() => {
      const found = botReplies(slack, ts).filter((message) => /only members of the workspace/.test(message.text));
      return found.length === 2 ? found : undefined;
    }, 20_000);
    expect(refusals).toHaveLength(2);
    await eventually(async () => (await count('SELECT COUNT(*) AS n FROM chat_event_receipts WHERE replied_at IS NOT NULL')) === 2, 'both refusals recorded');
    expect(await statusOf(jobId)).toBe('review_required');
    expect(await jobCount()).toBe(1);
  });

  it('gives a workspace connected to no organization one polite reply, however often Slack delivers the mention', async () => {
    const stranger = { teamId: 'T0NOORG01', botUserId: 'U0QABOT09' };
    const ts = slackTs();
    const body = JSON.stringify({ ...mentionBody(`on ${demo.url}: ${QUICK_TASK}`, { ts, team: stranger.teamId, eventId: 'EvNOORG0001' }), authorizations: [{ team_id: stranger.teamId, user_id: stranger.botUserId, is_bot: true }] });
    for (const retry of ['', '1', '2']) {
      expect((await post(base, body, { headers: retry ? { 'X-Slack-Retry-Num': retry, 'X-Slack-Retry-Reason': 'http_timeout' } : {} })).status).toBe(200);
    }
    const reply = await slack.waitFor(() => slack.messages(channelId).find((message) => message.thread_ts === ts), 20_000);
    expect(reply.text).toContain(`qa chat connect --team ${stranger.teamId}`);
    // The one delivery stored was answered (its reply recorded as posted) once.
    await eventually(async () => (await count('SELECT COUNT(*) AS n FROM chat_event_receipts WHERE replied_at IS NOT NULL')) === 1, 'the reply recorded');
    expect(await count('SELECT COUNT(*) AS n FROM chat_event_receipts')).toBe(1);
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);
    expect(await jobCount()).toBe(0);
  });

  it('rides out Slack being down during a run (503, 429 with Retry-After, dropped connections): the job passes and its final state is delivered once', async () => {
    // The first post (the job queued) goes through; then every edit meets a Slack that is down, until it recovers.
    slack.failNext('chat.update', { status: 503 });
    slack.failNext('chat.update', { status: 429, retryAfter: 1 });
    slack.dropNext('chat.update');
    const ts = slackTs();
    expect((await post(base, JSON.stringify(mentionBody(`on ${demo.url}: ${LONG_TASK}`, { ts })))).status).toBe(200);

    const final = await finalMessage(slack, store(), ts, 60_000);
    const jobId = jobIdOf(final);
    expect(final.text).toMatch(/passed/);
    const [job] = (await store().query('SELECT status FROM jobs WHERE id = ?', [jobId])) as { status: string }[];
    expect(job!.status).toBe('passed');
    await finalRecorded(store(), jobId);
    const [outbox] = (await store().query('SELECT attempts, last_error FROM job_notifications WHERE job_id = ?', [jobId])) as { attempts: number; last_error: string | null }[];
    expect([Number(outbox!.attempts), outbox!.last_error]).toEqual([0, null]);

    // Every planned failure happened, in order, and still: one progress message, its final state delivered once.
    const updates = slack.callsOf('chat.update');
    expect(outcomes(updates).slice(0, 4)).toEqual(['chat.update:http 503', 'chat.update:http 429', 'chat.update:dropped', 'chat.update:ok']);
    expect(progressOf(slack, ts)).toHaveLength(1);
    expect(okProgressPosts(slack)).toHaveLength(1);
    expect(finalDeliveries(slack)).toHaveLength(1);
    // Retry-After was honoured: the edit after the 429 came no sooner than a second later.
    expect(updates[2]!.at.getTime() - updates[1]!.at.getTime()).toBeGreaterThanOrEqual(1_000);
  }, 90_000);

  it('gives up a progress message or reply Slack refuses for good (channel_not_found) with a log line, and the job is unaffected', async () => {
    slack.failNext('chat.postMessage', { error: 'channel_not_found', times: 5 });
    const ts = slackTs();
    expect((await post(base, JSON.stringify(mentionBody(`on ${demo.url}: ${QUICK_TASK}`, { ts })))).status).toBe(200);
    const stopped = await slack.waitFor(() => logLines.find((line) => line.msg === 'progress delivery stopped'), 30_000);
    expect(JSON.stringify(stopped)).toContain('channel_not_found');

    const [job] = (await store().query('SELECT id FROM jobs')) as { id: string }[];
    await eventually(async () => ['passed', 'failed', 'errored'].includes(await statusOf(job!.id)), 'the job to finish', 60_000);
    expect(await statusOf(job!.id)).toBe('passed');
    // One attempt, no retries: the delivery's queue job is done and the outbox says why.
    expect(outcomes(slack.callsOf('chat.postMessage'))).toEqual(['chat.postMessage:channel_not_found']);
    const [outbox] = (await store().query('SELECT final_delivered, last_error FROM job_notifications WHERE job_id = ?', [job!.id])) as { final_delivered: number; last_error: string | null }[];
    expect(outbox!.last_error).toMatch(/channel_not_found/);
    expect(await count("SELECT COUNT(*) AS n FROM agenda_jobs WHERE name = 'notify-delivery' AND next_run_at IS NOT NULL")).toBe(0);

    // A reply refused so is not retried either: its chat-event job fails once, with a log line, and is not run again.
    const helpTs = slackTs();
    expect((await post(base, JSON.stringify(mentionBody('help', { ts: helpTs })))).status).toBe(200);
    const failed = await slack.waitFor(() => logLines.find((line) => line.msg === 'job failed' && JSON.stringify(line).includes('channel_not_found')), 20_000);
    expect(failed.kind).toBe('user');
    await eventually(async () => (await count("SELECT COUNT(*) AS n FROM agenda_jobs WHERE name = 'chat-event' AND failed_at IS NOT NULL AND next_run_at IS NULL")) === 1, 'the reply given up');
    expect(outcomes(slack.callsOf('chat.postMessage').filter((call) => call.params.thread_ts === helpTs))).toEqual(['chat.postMessage:channel_not_found']);
    expect(await count('SELECT COUNT(*) AS n FROM chat_event_receipts WHERE replied_at IS NOT NULL')).toBe(0);
  }, 90_000);

  async function statusOf(jobId: string): Promise<string> {
    const [row] = (await store().query('SELECT status FROM jobs WHERE id = ?', [jobId])) as { status: string }[];
    return row?.status ?? 'missing';
  }
});

/**
 * Faults across processes, as a scaled-out deployment meets them: the service as `qa serve` in this process, and
 * real `qa` processes beside it on the same MySQL database (one more `qa serve`, a `qa start` that runs the work).
 */
describe('chat faults: several processes (qa serve, qa start, qa worker)', () => {
  const { store, parts } = useChatEndToEnd({
    prepare: (fake) => fake.addToken(botToken, { teamId, botUserId, teamName: FAKE_WORKSPACE.teamName }),
    chat: CHAT,
    service: { role: 'serve' },
  });
  const artifactsDir = mkdtempSync(join(tmpdir(), 'qa-chat-faults-'));
  const spawned: ChatProcess[] = [];
  let demo: DemoApp;
  let slack: FakeSlack;
  let base: string;
  let serve: ChatProcess;
  let start: ChatProcess;

  const spawn = async (verb: 'serve' | 'worker' | 'start', env: Record<string, string> = {}) => {
    const started = await startChatProcess(verb, { databaseUrl: testMysqlUrl(), artifactsDir, chat: { ...CHAT, apiUrl: slack.url }, env });
    spawned.push(started);
    return started;
  };

  beforeAll(async () => {
    ({ demo, slack, running: { base } } = parts());
    [serve, start] = await Promise.all([spawn('serve'), spawn('start')]);
  }, 120_000);
  afterAll(async () => {
    for (const { process: running } of spawned) {
      if (running.child.exitCode !== null || running.child.signalCode !== null) continue;
      // A graceful stop closes the browsers it launched; a process that hangs is killed.
      running.child.kill('SIGTERM');
      const timer = setTimeout(() => running.child.kill('SIGKILL'), 15_000);
      await running.exited;
      clearTimeout(timer);
    }
    rmSync(artifactsDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    slack.reset();
    await seedAcmeShop(store(), demo.url, teamId);
  });
  const count = async (sql: string, params: unknown[] = []) => Number(((await store().query(sql, params)) as { n: number | string }[])[0]!.n);

  it('starts one job and posts one message for a mention Slack retried to three different processes at once', async () => {
    const ts = slackTs();
    const body = JSON.stringify(mentionBody(`on ${demo.url}: ${QUICK_TASK}`, { ts, eventId: 'EvRETRIED0001' }));
    const retry = (n: number): Record<string, string> => (n === 0 ? {} : { 'X-Slack-Retry-Num': String(n), 'X-Slack-Retry-Reason': 'http_timeout' });
    const answers = await Promise.all([base, serve.base, start.base].map((target, n) => post(target, body, { headers: retry(n) })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    // Slack gives up after three retries; one more, late, from the first process, still changes nothing.
    expect((await post(base, body, { headers: retry(3) })).status).toBe(200);

    const final = await finalMessage(slack, store(), ts, 60_000);
    expect(final.text).toMatch(/passed/);
    await finalRecorded(store(), jobIdOf(final));
    const jobs = (await store().query('SELECT id FROM jobs')) as { id: string }[];
    expect(jobs.map((job) => job.id)).toEqual([jobIdOf(final)]);
    expect(progressOf(slack, ts)).toHaveLength(1);
    expect(okProgressPosts(slack)).toHaveLength(1);
    expect(finalDeliveries(slack)).toHaveLength(1);
    const receipts = (await store().query('SELECT event_id FROM chat_event_receipts')) as { event_id: string }[];
    expect(receipts).toEqual([{ event_id: 'EvRETRIED0001' }]);
  }, 90_000);

  it('delivers the final state once when the worker running the job is killed mid-run and another takes over', async () => {
    const ts = slackTs();
    expect((await post(serve.base, JSON.stringify(mentionBody(`on ${demo.url}: ${LONG_TASK}`, { ts })))).status).toBe(200);
    // The job runs in `qa start` and its message shows a step: kill that process with no chance to clean up.
    const running = await slack.waitFor(() => progressOf(slack, ts).find((message) => /running step/.test(message.text)), 60_000);
    start.process.child.kill('SIGKILL');
    await start.process.exited;
    expect(FINAL.test(progressOf(slack, ts)[0]!.text)).toBe(false);

    // Another worker takes over once the dead one's locks expire (a short lock lifetime here), and finishes.
    await spawn('worker', { QUEUE_LOCK_LIFETIME_MS: '3000' });
    const final = await finalMessage(slack, store(), ts, 90_000);
    expect(jobIdOf(final)).toBe(jobIdOf(running));
    expect(final.text).toMatch(/passed/);
    await finalRecorded(store(), jobIdOf(final));
    // It was the run's second attempt that finished it: the new worker resumed the job the dead one had started.
    const [job] = (await store().query('SELECT run_attempt FROM jobs WHERE id = ?', [jobIdOf(final)])) as { run_attempt: number }[];
    expect(Number(job!.run_attempt)).toBeGreaterThanOrEqual(2);
    expect(await count("SELECT COUNT(*) AS n FROM job_events WHERE job_id = ? AND type = 'job.resumed'", [jobIdOf(final)])).toBeGreaterThanOrEqual(1);
    expect(progressOf(slack, ts)).toHaveLength(1);
    expect(okProgressPosts(slack)).toHaveLength(1);
    expect(finalDeliveries(slack)).toHaveLength(1);
  }, 150_000);
});
