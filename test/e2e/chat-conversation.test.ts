import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { DemoApp } from '../fixtures/demo-app/index.js';
import { FAKE_WORKSPACE, type FakeSlack } from '../fakes/slack-api.js';
import { chatPerson, jobIdOf, type ChatPerson } from '../support/chat-person.js';
import { CHAT_PUBLIC_BASE_URL, seedAcmeShop, useChatEndToEnd } from '../support/chat-service.js';

const SECRET = 'e2e-chat-signing-secret';
const { teamId, userId, botUserId, botToken } = FAKE_WORKSPACE;
const ORDER_TASK = 'Sign in as the demo user, add the Desk Lamp to the cart, apply the coupon SAVE10, check that the total shows $90, check out and place the order';

/**
 * Whole conversations, as a team has them: the service as `qa start` runs it (HTTP, processors, a real browser)
 * with the chat receiver on, the demo shop as the app under test, and a fake Slack Web API that records every call.
 */
describe('a chat conversation, end to end over HTTP', () => {
  const { store, parts } = useChatEndToEnd({
    prepare: (fake) => fake.addToken(botToken, { teamId, botUserId, teamName: FAKE_WORKSPACE.teamName }),
    chat: { signingSecret: SECRET, botToken },
  });
  let demo: DemoApp;
  let slack: FakeSlack;
  let base: string;
  beforeAll(() => void ({ demo, slack, running: { base } } = parts()));

  /** The organization, its shop repository and the connected workspace (the store is emptied after each test). */
  beforeEach(() => seedAcmeShop(store(), demo.url, teamId));

  let person: ChatPerson;
  beforeAll(() => void (person = chatPerson({ base, slack, signingSecret: SECRET })));
  const mention = (text: string, threadTs?: string) => person.mention(text, threadTs);
  const replyInThread = (text: string, threadTs: string) => person.reply(text, threadTs);
  const botMessages = (threadTs: string) => person.botMessages(threadTs);
  const progressOf = (threadTs: string) => person.progressOf(threadTs);

  it('binds the channel, asks before a real side effect, takes the answers in the thread, and edits one progress message per job to its final state', async () => {
    // `use` binds the channel to the repository; the answer says so in the thread.
    const bindThread = await mention('use acme/shop');
    const bound = await slack.waitFor(() => botMessages(bindThread).find((message) => message.text.includes('now checks')), 20_000);
    expect(bound.text).toContain('acme/shop');

    // A task that would place a real order: the job asks first, in its progress message, numbered.
    const thread = await mention(ORDER_TASK);
    const asking = await slack.waitFor(() => progressOf(thread).find((message) => /question/i.test(message.text)), 30_000);
    const parentJobId = jobIdOf(asking);
    const [{ resolution }] = (await store().query('SELECT resolution FROM jobs WHERE id = ?', [parentJobId])) as { resolution: unknown }[];
    const questionCount = ((typeof resolution === 'string' ? JSON.parse(resolution) : resolution) as { questions: string[] }).questions.length;
    expect(questionCount).toBeGreaterThan(0);

    // Too few answers: the bot says what is missing and starts nothing.
    await replyInThread(questionCount > 1 ? '1. yes' : 'yes\nand another line', thread);
    const problem = await slack.waitFor(() => botMessages(thread).find((message) => /missing|answer line/i.test(message.text)), 20_000);
    expect(problem.text).toMatch(/question/i);

    // The right answers: a linked child job runs in the same thread, with its own progress message.
    const answers = Array.from({ length: questionCount }, (_unused, index) => `${index + 1}. Yes, place the order; it is a test store`).join('\n');
    await replyInThread(answers, thread);
    const childMessage = await slack.waitFor(() => progressOf(thread).find((message) => jobIdOf(message) !== parentJobId), 30_000);
    const childJobId = jobIdOf(childMessage);
    const final = await slack.waitFor(() => progressOf(thread).find((message) => jobIdOf(message) === childJobId && /passed|failed|errored/i.test(message.text)), 120_000);
    expect(final.text).toMatch(/passed/i);
    expect(demo.orders()).toHaveLength(1);

    // One message per job, edited as the job moved; the parent's shows it was answered.
    expect(progressOf(thread).map(jobIdOf).sort()).toEqual([parentJobId, childJobId].sort());
    const edits = slack.callsOf('chat.update').filter((call) => call.params.ts === childMessage.ts);
    expect(edits.length).toBeGreaterThanOrEqual(2);
    const [{ parent_job_id: parentOfChild }] = (await store().query('SELECT parent_job_id FROM jobs WHERE id = ?', [childJobId])) as { parent_job_id: string }[];
    expect(parentOfChild).toBe(parentJobId);
  }, 240_000);

  it('reports a failed expectation with its first failing screenshot, and takes “not a bug” in the thread', async () => {
    // The address given inline picks the organization's repository for it, without a binding.
    const thread = await mention(`on ${demo.url}: open the home page and check that the page says "Gadgets Galore Superstore"`);
    const final = await slack.waitFor(() => progressOf(thread).find((message) => /failed/i.test(message.text)), 60_000).catch((error: unknown) => {
      throw new Error(`${String(error)}\nthread: ${JSON.stringify(botMessages(thread).map((message) => message.text))}`);
    });
    const blocks = JSON.stringify(final.blocks ?? []);
    expect(blocks).toMatch(/Screenshot of step \d+/);
    expect(blocks).toContain(`${CHAT_PUBLIC_BASE_URL}/jobs/`);

    await mention('not a bug: the tagline changes every week', thread);
    const disputed = await slack.waitFor(() => botMessages(thread).find((message) => message.text.includes('not a bug')), 20_000);
    expect(disputed.text).toMatch(/Marked \d+ finding/);
    const rows = (await store().query('SELECT disputed_by, dispute_reason FROM findings WHERE job_id = ? AND disputed_at IS NOT NULL', [jobIdOf(final)])) as { disputed_by: string; dispute_reason: string }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]).toEqual({ disputed_by: `slack:${teamId}:${userId}`, dispute_reason: 'the tagline changes every week' });
  }, 180_000);
});
