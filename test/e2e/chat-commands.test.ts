import { randomUUID } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { ANSWER_NO } from '../../bot/blocks/actions.js';
import { HELP_TEXT } from '../../bot/blocks/replies.js';
import { createApiKey } from '../../src/identity/api-keys.js';
import { setCapabilityPaused } from '../../src/store/execution-flags.js';
import type { DemoApp } from '../fixtures/demo-app/index.js';
import { FAKE_WORKSPACE, type FakeSlack, type StoredMessage } from '../fakes/slack-api.js';
import { insertCheck, insertRepository } from '../support/check-fixtures.js';
import { chatPerson, jobIdOf, type ChatPerson } from '../support/chat-person.js';
import { seedAcmeShop, useChatEndToEnd } from '../support/chat-service.js';

const SECRET = 'e2e-chat-commands-secret';
const { teamId, botUserId, botToken, userId } = FAKE_WORKSPACE;
const HOME_TASK = 'open the home page and check that the page says "Welcome to Demo Shop"';
/** The rule planner asks one yes/no side-effect question for it, and plans only the start page when told no. */
const PURCHASE_TASK = 'Buy the cheapest item with the saved card';
const FINAL = /passed|failed|errored|cancelled/i;
const RUN_WAIT_MS = 120_000;
/** The bound of a test with one browser run. */
const ONE_RUN_TEST_MS = RUN_WAIT_MS + 30_000;

interface JobRow {
  status: string;
  base_url: string;
  repository_id: string;
  check_id: string | null;
}

/**
 * Every chat command as a person uses it, end to end: the service as `qa start` runs it with the chat receiver on,
 * the demo shop, and the fake Slack Web API. Replies are read where a person would see them (the thread, or the
 * channel for a slash command), and the store is read only to prove what a reply claims.
 */
describe('chat commands, end to end over HTTP', () => {
  const { store, parts } = useChatEndToEnd({
    prepare: (fake) => fake.addToken(botToken, { teamId, botUserId, teamName: FAKE_WORKSPACE.teamName }),
    chat: { signingSecret: SECRET, botToken },
  });
  let demo: DemoApp;
  let slack: FakeSlack;
  let base: string;
  let person: ChatPerson;
  let organizationId: string;
  beforeAll(() => {
    ({ demo, slack, running: { base } } = parts());
    person = chatPerson({ base, slack, signingSecret: SECRET });
  });
  beforeEach(async () => {
    // Each test reads the channel from scratch; every test waits for its jobs' final messages, so nothing of an
    // earlier test is still being posted.
    slack.reset();
    ({ organizationId } = await seedAcmeShop(store(), demo.url, teamId));
  });

  const shopId = async (): Promise<string> => {
    const [row] = (await store().query("SELECT id FROM repositories WHERE organization_id = ? AND name = 'shop'", [organizationId])) as { id: string }[];
    return row!.id;
  };
  const jobRow = async (jobId: string) => {
    const [row] = (await store().query('SELECT status, base_url, repository_id, check_id FROM jobs WHERE id = ?', [jobId])) as JobRow[];
    return row;
  };
  /** Says something in a new thread and returns the bot's first answer there. */
  const ask = async (text: string): Promise<StoredMessage> => person.answerIn(await person.mention(text));
  /**
   * The final progress message of a job in a thread (of the one `which` picks). A browser run takes seconds; the
   * bound only catches a hang, generous because the test machine's cores are shared.
   */
  const finalProgress = (thread: string, which: (message: StoredMessage) => boolean = () => true) =>
    slack.waitFor(() => person.progressOf(thread).find((message) => which(message) && FINAL.test(message.text)), RUN_WAIT_MS).catch(async (error: unknown) => {
      // What the store says, to tell a job that never finished from a final message that was not delivered.
      const jobs = await store().query('SELECT id, status, finished_at FROM jobs');
      const deliveries = await store().query('SELECT job_id, delivered_seq, final_delivered, attempts, last_error, last_delivered_at FROM job_notifications');
      const queue = await store().query('SELECT name, next_run_at, locked_at, last_run_at, last_finished_at, fail_reason FROM agenda_jobs');
      const thread_ = JSON.stringify(person.botMessages(thread).map((message) => message.text));
      const edits = slack.callsOf('chat.update').map((call) => `${call.at.toISOString()} ${String(call.params.ts)} ${String(call.params.text).slice(0, 40)}`);
      throw new Error(
        `${String(error)}\nthread: ${thread_}\njobs: ${JSON.stringify(jobs)}\ndeliveries: ${JSON.stringify(deliveries)}\nqueue: ${JSON.stringify(queue)}\nedits: ${JSON.stringify(edits)}`,
      );
    });

  /** Another organization with a repository, a compiled check and a job waiting for answers, started over its API. */
  async function seedGlobex(): Promise<{ jobId: string; checkId: string }> {
    const { key, organization } = await createApiKey(store(), 'globex');
    const repositoryId = await insertRepository(store(), organization.id, { owner: 'globex', name: 'portal', baseUrl: demo.url, networkAllowlist: ['localhost'] });
    const checkId = await insertCheck(store(), organization.id, repositoryId, 'active', 'Check the Globex secret launch page');
    const response = await fetch(`${base}/api/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ projectId: repositoryId, naturalLanguageTask: `${PURCHASE_TASK} for Globex`, baseUrl: demo.url, trigger: 'web' }),
    });
    const created = (await response.json()) as { jobId: string; status: string };
    expect(created.status).toBe('review_required');
    return { jobId: created.jobId, checkId };
  }

  it('answers `@qa help` in the thread and `/qa help` in the channel', async () => {
    const answer = await ask('help');
    expect(JSON.stringify(answer.blocks)).toContain(JSON.stringify(HELP_TEXT).slice(1, -1));

    await person.slash('help');
    const inChannel = await slack.waitFor(() => person.topLevel().find((message) => message.text.startsWith('What I can do')));
    expect(JSON.stringify(inChannel.blocks)).toContain('/qa` takes the same words');
  }, 30_000);

  it('`/qa <task>` opens a thread with what was asked, and the job lives in that thread', async () => {
    await person.mention('use acme/shop').then((thread) => person.answerIn(thread));
    await person.slash(HOME_TASK);

    const opening = await slack.waitFor(() => person.topLevel().find((message) => message.text.includes('asked:')));
    expect(opening.text).toBe(`<@${userId}> asked: ${HOME_TASK}`);
    const final = await finalProgress(opening.ts);
    expect(final.text).toMatch(/passed/i);
    // Nothing else went to the channel: the job's messages are all in the thread.
    expect(person.topLevel().map((message) => message.ts)).toEqual([opening.ts]);
    expect((await jobRow(jobIdOf(final)))!.status).toBe('passed');
  }, ONE_RUN_TEST_MS);

  it('`/qa <task>` is refused inside the thread it opened, not loose in the channel: no repository bound, AI paused', async () => {
    await person.slash(HOME_TASK);
    const unbound = await slack.waitFor(() => person.topLevel().find((message) => message.text.includes('asked:')));
    expect((await person.answerIn(unbound.ts)).text).toMatch(/Which app should I check\? Bind this channel with `@qa use/);

    // The job core's own refusal: an operator paused AI execution for the organization (`qa flags pause ai --org acme`).
    await person.mention('use acme/shop').then((thread) => person.answerIn(thread));
    await setCapabilityPaused(store(), 'ai', true, organizationId);
    await person.slash(HOME_TASK);
    const paused = await slack.waitFor(() => person.topLevel().find((message) => message.text.includes('asked:') && message.ts !== unbound.ts));
    expect((await person.answerIn(paused.ts)).text).toBe('Sorry, I couldn’t do that: AI execution is paused; try again once an operator resumes it.');

    expect(person.topLevel().map((message) => message.ts)).toEqual([unbound.ts, paused.ts]);
    expect(await store().query('SELECT id FROM jobs')).toEqual([]);
  }, 30_000);

  it('`@qa checks` lists the organization’s checks (the channel’s repository once bound), never another organization’s', async () => {
    const shop = await shopId();
    const admin = await insertRepository(store(), organizationId, { owner: 'acme', name: 'admin', baseUrl: demo.url });
    await insertCheck(store(), organizationId, shop, 'active', 'Check the pricing page lists three plans');
    await insertCheck(store(), organizationId, shop, 'draft', 'Check the cart total');
    await insertCheck(store(), organizationId, admin, 'active', 'Check the admin dashboard');
    await seedGlobex();

    const all = JSON.stringify((await ask('checks')).blocks);
    expect(all).toContain('Check the pricing page lists three plans (active, v1)');
    expect(all).toContain('Check the cart total (draft, v0)');
    expect(all).toContain('Check the admin dashboard');
    expect(all).not.toContain('Globex');

    await person.mention('use acme/shop').then((thread) => person.answerIn(thread));
    const bound = JSON.stringify((await ask('checks')).blocks);
    expect(bound).toContain('Check the pricing page lists three plans');
    expect(bound).not.toContain('Check the admin dashboard');
  }, 30_000);

  it('`@qa replay` finds a check by name fragment or by id anywhere in the organization, and says why it cannot otherwise', async () => {
    const shop = await shopId();
    const admin = await insertRepository(store(), organizationId, { owner: 'acme', name: 'admin', baseUrl: demo.url, networkAllowlist: ['localhost'] });
    const pricing = await insertCheck(store(), organizationId, shop, 'active', 'Check the pricing page lists three plans');
    const cart = await insertCheck(store(), organizationId, shop, 'active', 'Check the cart is empty');
    await insertCheck(store(), organizationId, shop, 'draft', 'Check the order history');
    const dashboard = await insertCheck(store(), organizationId, admin, 'active', 'Check the admin dashboard');
    const globex = await seedGlobex();
    await person.mention('use acme/shop').then((thread) => person.answerIn(thread));

    // A fragment that fits one check replays it in the thread, with no planner involved.
    const byName = await person.mention('replay PRICING page');
    const replayed = await finalProgress(byName);
    expect(replayed.text).toMatch(/passed/i);
    expect((await jobRow(jobIdOf(replayed)))!.check_id).toBe(pricing);

    // An id finds the check even when it belongs to another repository than the channel's.
    const byId = await person.mention(`replay ${dashboard}`);
    const other = await finalProgress(byId);
    expect(await jobRow(jobIdOf(other))).toMatchObject({ check_id: dashboard, repository_id: admin, status: 'passed' });

    // A fragment that fits several lists them, with ids to say which.
    const ambiguous = await ask('replay check the');
    expect(ambiguous.text).toMatch(/More than one check matches/);
    expect(ambiguous.text).toContain(pricing);
    expect(ambiguous.text).toContain(cart);

    // Unknown words, another organization's check id, and a check that never passed.
    expect((await ask('replay the moon landing')).text).toMatch(/No check matches “the moon landing”/);
    const foreign = await ask(`replay ${globex.checkId}`);
    expect(foreign.text).toBe(`No check matches “${globex.checkId}”. \`@qa checks\` lists them.`);
    expect((await ask('replay order history')).text).toMatch(/“Check the order history” has not passed yet/);

    // Only the two replays ran; the refusals started nothing.
    const jobs = (await store().query('SELECT check_id FROM jobs WHERE organization_id = ?', [organizationId])) as { check_id: string }[];
    expect(jobs.map((job) => job.check_id).sort()).toEqual([pricing, dashboard].sort());
  }, 2 * ONE_RUN_TEST_MS);

  it('`@qa status` and `@qa cancel` work on the organization’s jobs; another organization’s id looks unknown and is left alone', async () => {
    const globex = await seedGlobex();
    const jobThread = await person.mention(`on ${demo.url}: ${PURCHASE_TASK}`);
    const asking = await slack.waitFor(() => person.progressOf(jobThread).find((message) => /question/i.test(message.text)), 30_000);
    const jobId = jobIdOf(asking);

    const status = await ask(`status ${jobId}`);
    expect(status.text).toMatch(new RegExp(`Job \`${jobId}\` “${PURCHASE_TASK}” is \\*review_required\\*`));
    expect(status.text).toContain(`/jobs/${jobId}`);
    expect(status.text).not.toContain(`/api/jobs/`);

    expect((await ask(`cancel ${jobId.toUpperCase()}`)).text).toBe(`Cancelled job \`${jobId}\`.`);
    expect((await jobRow(jobId))!.status).toBe('cancelled');
    const again = await ask(`cancel ${jobId}`);
    expect(again.text).toMatch(new RegExp(`Job \`${jobId}\` is already \\*cancelled\\*`));

    // Another organization's job: the same answer as an id nobody has, naming nothing of it.
    const nobody = randomUUID();
    for (const verb of ['status', 'cancel']) {
      const foreign = await ask(`${verb} ${globex.jobId}`);
      const unknown = await ask(`${verb} ${nobody}`);
      expect(foreign.text).toBe(unknown.text.replace(nobody, globex.jobId));
      expect(foreign.text).toMatch(/can’t find job/);
      expect(foreign.text).not.toMatch(/Globex|review_required|cheapest/i);
    }
    expect((await jobRow(globex.jobId))!.status).toBe('review_required');

    expect((await ask('status 12345')).text).toBe('`12345` is not a job id (ids look like `6f1c2a9e-…`).');
    expect((await ask('cancel')).text).toBe('Say which job: `cancel <job id>`.');
  }, 60_000);

  it('the Yes / No buttons answer a side-effect question; a second click is told the question is closed', async () => {
    const thread = await person.mention(`on ${demo.url}: ${PURCHASE_TASK}`);
    const asking = await slack.waitFor(() => person.progressOf(thread).find((message) => JSON.stringify(message.blocks ?? []).includes(ANSWER_NO)), 30_000);
    const parentJobId = jobIdOf(asking);

    await person.click(asking, ANSWER_NO, parentJobId);
    const child = await finalProgress(thread, (message) => jobIdOf(message) !== parentJobId);
    expect(child.text).toMatch(/passed/i);
    expect(demo.orders()).toHaveLength(0);
    const [answered] = (await store().query('SELECT parent_job_id FROM jobs WHERE id = ?', [jobIdOf(child)])) as { parent_job_id: string }[];
    expect(answered!.parent_job_id).toBe(parentJobId);

    await person.click(asking, ANSWER_NO, parentJobId);
    const stale = await person.answerIn(thread, (message) => message.metadata === undefined && /already answered/.test(message.text));
    expect(stale.text).toMatch(/already answered or no longer open/);
    expect(person.progressOf(thread).map(jobIdOf).sort()).toEqual([parentJobId, jobIdOf(child)].sort());
  }, ONE_RUN_TEST_MS);

  it('`@qa use owner/name at <url>` binds the channel for the next task; an unknown repository is said so, and nothing is bound', async () => {
    // The repository's own address is unreachable: only the bound one can make the run pass.
    const storefront = await insertRepository(store(), organizationId, {
      owner: 'acme',
      name: 'storefront',
      baseUrl: 'https://storefront.invalid',
      networkAllowlist: ['localhost'],
    });
    await seedGlobex();

    expect((await ask('use acme/nope')).text).toBe('I don’t know the repository *acme/nope* in this organization. Connect it first (`qa repos connect`), then bind it with `@qa use acme/nope`.');
    expect((await ask('use globex/portal')).text).toContain('I don’t know the repository *globex/portal*');
    expect((await ask('use acme')).text).toMatch(/Say which repository/);
    expect(await store().query('SELECT channel_id FROM chat_channel_bindings')).toEqual([]);

    expect((await ask(`use Acme/Storefront at ${demo.url}`)).text).toBe(`This channel now checks *acme/storefront* at ${demo.url}.`);
    const thread = await person.mention(HOME_TASK);
    const final = await finalProgress(thread);
    expect(final.text).toMatch(/passed/i);
    expect(await jobRow(jobIdOf(final))).toMatchObject({ repository_id: storefront, base_url: demo.url, status: 'passed' });
  }, ONE_RUN_TEST_MS);
});
