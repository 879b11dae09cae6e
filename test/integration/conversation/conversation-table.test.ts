/**
 * The `/qa` conversation (src/jobs/conversation/) through both of its adapters, with one table: each row says what a
 * person says (in words both channels share), and what must come of it. The chat adapter gets Slack deliveries (the
 * chat-event job over the real inbox, posting to the fake Slack); the pull-request adapter gets `issue_comment`
 * deliveries (the handler over the real store, asking the fake code host for the pull request, permissions and
 * replies). Jobs go to the real store on a queue nobody works: what a turn starts is the subject, not the run.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import type { ConversationDeps } from '../../../bot/conversation/deps.js';
import { handleChatEvent } from '../../../bot/conversation/handle-event.js';
import { createSlackPoster } from '../../../bot/slack/poster.js';
import { createSlackClients } from '../../../bot/slack/web-client.js';
import { createCodehostClient } from '../../../src/codehost/codehost-client.js';
import { createPullRequestConversation } from '../../../src/codehost/pull-request-conversation.js';
import { ErrorCode } from '../../../src/core/errors.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { createChannelBindings } from '../../../src/jobs/chat/channel-bindings.js';
import { createChatInbox, type ChatDelivery, type ChatInbox } from '../../../src/jobs/chat/chat-inbox.js';
import { createChatWorkspaces } from '../../../src/jobs/chat/chat-workspaces.js';
import { createCheckService } from '../../../src/jobs/check-service.js';
import { previewDeploymentUrl } from '../../../src/jobs/codehost/pull-request-records.js';
import { createNotificationOutbox } from '../../../src/jobs/notification-outbox.js';
import { findCodehostRepository } from '../../../src/repos/codehost-repositories.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { setCapabilityPaused } from '../../../src/store/execution-flags.js';
import { connectInstallation } from '../../../src/store/repository-admission.js';
import { createWriteBatch } from '../../../src/store/write-batch.js';
import type { CodehostEventHandler } from '../../../src/webhooks/codehost/codehost-handler.js';
import { issueCommentHandler } from '../../../src/webhooks/codehost/issue-comment-handler.js';
import { chatEventStarter } from '../../../src/workflows/chat-event-starter.js';
import { startFakeCodehost, type FakeCodehost } from '../../fakes/codehost-api.js';
import { FAKE_WORKSPACE, startFakeSlack, type FakeSlack } from '../../fakes/slack-api.js';
import { insertCheck, insertRepository } from '../../support/check-fixtures.js';
import { examplePayload } from '../../support/codehost-deliveries.js';
import { useTestStore } from '../../support/dialects.js';
import { silentLogger } from '../../support/logger.js';
import { appMention, channelMessage, eventCallback, slackTs } from '../../support/slack-requests.js';
import { jobServiceOn } from '../notify/notify-fixtures.js';

const RUNNABLE_TASK = 'Check that the pricing page lists three plans';
/** The rule planner asks two questions about it (a changed account, deleted data). */
const REVIEW_TASK = 'Cancel the Pro subscription and delete the demo account';

/** What a person says, in words both channels share; `check` is an index into the row's checks, or another organization's. */
type Say = { task: string } | { replay: string } | { replayById: number | 'another organization' } | { answer: string[] } | { help: true };

/** What the adapters say instead of starting something; each adapter has its own words for each. */
type Said = 'help' | 'check_unknown' | 'check_ambiguous' | 'check_not_replayable' | 'answer_problem' | 'refused';

type Expected =
  | { starts: 'task'; task: string }
  | { starts: 'replay'; check: number }
  /** A child of the conversation's job that asked, carrying the answers. */
  | { starts: 'answer' }
  /** A reply, and nothing started; `candidates`: the checks it must list by id (and no other). */
  | { says: Said; candidates?: number[]; containing?: string };

interface Row {
  name: string;
  checks?: ['active' | 'draft', string][];
  /** Said first, in the same conversation. */
  before?: Say[];
  paused?: 'ai';
  say: Say;
  expected: Expected;
}

const SHOP_CHECKS: Row['checks'] = [
  ['active', 'Check the home page'],
  ['active', 'Check the pricing page lists three plans'],
  ['draft', 'Check the order history page'],
  ['active', 'Check the cart total'],
  ['draft', 'Check the cart is empty'],
];

const TABLE: Row[] = [
  { name: 'a task starts a job', say: { task: RUNNABLE_TASK }, expected: { starts: 'task', task: RUNNABLE_TASK } },
  { name: 'a fragment of one active check replays it, whatever its case', checks: SHOP_CHECKS, say: { replay: 'HOME page' }, expected: { starts: 'replay', check: 0 } },
  { name: 'an exact task replays its check', checks: SHOP_CHECKS, say: { replay: 'check the pricing page lists three plans' }, expected: { starts: 'replay', check: 1 } },
  { name: 'an id replays its check', checks: SHOP_CHECKS, say: { replayById: 3 }, expected: { starts: 'replay', check: 3 } },
  { name: 'a fragment of several active checks lists them, drafts left out', checks: SHOP_CHECKS, say: { replay: 'page' }, expected: { says: 'check_ambiguous', candidates: [0, 1] } },
  // The one rule for inactive checks: a draft is never a candidate, so one active match among drafts is replayed.
  { name: 'a fragment of one active check and a draft replays the active one', checks: SHOP_CHECKS, say: { replay: 'the cart' }, expected: { starts: 'replay', check: 3 } },
  { name: 'a fragment of drafts only says the check has not passed', checks: SHOP_CHECKS, say: { replay: 'order history' }, expected: { says: 'check_not_replayable', containing: 'Check the order history page' } },
  { name: 'the id of a draft says the check has not passed', checks: SHOP_CHECKS, say: { replayById: 4 }, expected: { says: 'check_not_replayable', containing: 'Check the cart is empty' } },
  { name: 'words that fit no check say so', checks: SHOP_CHECKS, say: { replay: 'the moon landing' }, expected: { says: 'check_unknown', containing: 'the moon landing' } },
  { name: "another organization's check id is unknown", checks: SHOP_CHECKS, say: { replayById: 'another organization' }, expected: { says: 'check_unknown' } },
  { name: 'numbered answers answer the waiting job', before: [{ task: REVIEW_TASK }], say: { answer: ['2) yes, it is test data', '1. yes, the demo user'] }, expected: { starts: 'answer' } },
  {
    name: 'answers go to the job still waiting when a newer one asks nothing',
    before: [{ task: REVIEW_TASK }, { task: RUNNABLE_TASK }],
    say: { answer: ['1. yes', '2. yes'] },
    expected: { starts: 'answer' },
  },
  { name: 'a wrong count of answers says what is missing', before: [{ task: REVIEW_TASK }], say: { answer: ['yes'] }, expected: { says: 'answer_problem', containing: 'There are 2 questions and this reply has 1 answer line' } },
  { name: 'help says what the bot can do', say: { help: true }, expected: { says: 'help' } },
  { name: 'a task while AI execution is paused is refused', paused: 'ai', say: { task: RUNNABLE_TASK }, expected: { says: 'refused', containing: 'AI execution is paused' } },
  { name: 'a replay while AI execution is paused still starts', paused: 'ai', checks: SHOP_CHECKS, say: { replay: 'home page' }, expected: { starts: 'replay', check: 0 } },
];

/** One channel's way into the conversation. */
interface Adapter {
  /** Starts a new conversation (a thread, a pull request) for a row. */
  begin(): void;
  /** Says `text` (the channel's words for a `Say`) and waits until the turn is handled; returns the replies posted. */
  say(what: Say, words: (what: Say) => string): Promise<string[]>;
  /** The channel's words for each outcome. */
  saidAs: Record<Said, RegExp>;
}

interface Fixture {
  organizationId: string;
  repositoryId: string;
}

/** The table, run through one adapter; `setUp` seeds what the adapter needs and returns it. */
function conversationTable(channel: string, store: () => DataSource, setUp: () => Promise<{ adapter: Adapter; fixture: Fixture }>) {
  describe(`the /qa conversation through the ${channel} adapter`, () => {
    let adapter: Adapter;
    let fixture: Fixture;
    beforeEach(async () => {
      ({ adapter, fixture } = await setUp());
      adapter.begin();
    });

    const jobs = () => store().getRepository(Job).find();

    it.each(TABLE)('$name', async (row) => {
      const checkIds: string[] = [];
      for (const [status, task] of row.checks ?? []) checkIds.push(await insertCheck(store(), fixture.organizationId, fixture.repositoryId, status, task));
      const { organization: other } = await createApiKey(store(), `other-${randomUUID().slice(0, 8)}`);
      const foreignCheck = await insertCheck(store(), other.id, await insertRepository(store(), other.id, { owner: 'globex', name: 'portal' }), 'active', 'Check the home page');
      const words = (what: Say): string => {
        if ('replayById' in what) return `replay ${what.replayById === 'another organization' ? foreignCheck : checkIds[what.replayById]!}`;
        if ('replay' in what) return `replay ${what.replay}`;
        if ('task' in what) return what.task;
        if ('help' in what) return 'help';
        return what.answer.join('\n');
      };
      for (const before of row.before ?? []) expect(await adapter.say(before, words)).toEqual([]);
      const made = new Set((await jobs()).map((job) => job.id));
      const asking = (await jobs()).find((job) => job.status === 'review_required');
      if (row.paused) await setCapabilityPaused(store(), row.paused, true, fixture.organizationId);

      const replies = await adapter.say(row.say, words);

      const started = (await jobs()).filter((job) => !made.has(job.id));
      const { expected } = row;
      if ('starts' in expected) {
        expect(replies).toEqual([]);
        expect(started).toHaveLength(1);
        const [job] = started;
        expect(job!.organizationId).toBe(fixture.organizationId);
        // A natural-language job gets a draft check of its own, which a passing run compiles.
        if (expected.starts === 'task') expect(job).toMatchObject({ task: expected.task, repositoryId: fixture.repositoryId, parentJobId: null });
        if (expected.starts === 'replay') expect(job).toMatchObject({ task: null, checkId: checkIds[expected.check] });
        if (expected.starts === 'answer') expect(job).toMatchObject({ parentJobId: asking!.id });
      } else {
        expect(started).toEqual([]);
        expect(replies).toHaveLength(1);
        const [reply] = replies;
        expect(reply).toMatch(adapter.saidAs[expected.says]);
        if (expected.containing) expect(reply).toContain(expected.containing);
        if (expected.candidates) {
          const listed = checkIds.filter((id) => reply!.includes(id));
          expect(listed).toEqual(expected.candidates.map((index) => checkIds[index]));
        }
      }
    });
  });
}

const store = useTestStore('mysql');
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** The job core as compose builds it, for one test. */
function services() {
  const built = jobServiceOn(store());
  closers.push(built.close);
  return { jobs: built.jobs, queue: built.queue, checks: createCheckService(store()), threads: createNotificationOutbox(store()) };
}

// Chat: a thread per row, in the fake workspace's channel bound to acme/shop.
{
  const { teamId, channelId, userId, botUserId, botToken } = FAKE_WORKSPACE;
  let slack: FakeSlack;
  beforeAll(async () => {
    slack = await startFakeSlack();
    slack.addToken(botToken, FAKE_WORKSPACE);
  });
  afterAll(async () => {
    await slack?.stop();
  });

  conversationTable('chat', store, async () => {
    slack.reset();
    const { organization, principal } = await createApiKey(store(), 'acme');
    const repositoryId = await insertRepository(store(), organization.id, { baseUrl: 'http://127.0.0.1:9' });
    const writes = createWriteBatch(store());
    closers.push(() => writes.close());
    const { jobs, queue, checks, threads } = services();
    const inbox: ChatInbox = createChatInbox({ dataSource: store(), writes, starter: chatEventStarter(queue) });
    const workspaces = createChatWorkspaces({ dataSource: store(), tokenKey: undefined });
    await workspaces.connect({ teamId, organizationSlug: 'acme' });
    const bindings = createChannelBindings(store());
    await bindings.bind(principal, { teamId, channelId, repository: 'acme/shop', boundBy: userId });
    const clients = createSlackClients({ apiUrl: slack.url });
    const deps: ConversationDeps = {
      events: inbox,
      workspaces,
      bindings,
      threads,
      jobs,
      checks,
      defaultBotToken: botToken,
      poster: (token) => createSlackPoster(clients.clientFor(token)),
      publicBaseUrl: 'https://qa.example.test',
      logger: silentLogger(),
    };
    let thread: string | undefined;
    const adapter: Adapter = {
      begin: () => {
        thread = undefined;
      },
      async say(what, words) {
        const ts = slackTs();
        // Answers are thread replies; everything else is a mention, the first one opening the row's thread.
        const event =
          'answer' in what
            ? channelMessage({ user: userId, text: words(what), channel: channelId, teamId, ts, threadTs: thread! })
            : appMention({ user: userId, text: `<@${botUserId}> ${words(what)}`, channel: channelId, teamId, ts, ...(thread ? { threadTs: thread } : {}) });
        thread ??= ts;
        const delivery: ChatDelivery = { eventId: `Ev${ts.replace('.', '')}`, teamId, kind: 'answer' in what ? 'thread_reply' : 'app_mention', payload: eventCallback(event, { teamId }) };
        const before = slack.messages(channelId).length;
        expect(await inbox.accept(delivery)).toBe('accepted');
        await handleChatEvent(delivery.eventId, deps);
        return slack
          .messages(channelId)
          .slice(before)
          .filter((message) => message.user === botUserId)
          .map((message) => `${message.text}\n${JSON.stringify(message.blocks ?? [])}`);
      },
      saidAs: {
        help: /What I can do/,
        check_unknown: /^No check matches “/,
        check_ambiguous: /^More than one check matches “/,
        check_not_replayable: /has not passed yet, so there is nothing to replay/,
        answer_problem: /The questions:\n1\. /,
        refused: /^Sorry, I couldn’t do that: /,
      },
    };
    return { adapter, fixture: { organizationId: organization.id, repositoryId } };
  });
}

// Pull requests: pull request #7 of acme/shop per row (a new number each row), commented on by a collaborator.
{
  const APP_ID = 5150;
  const INSTALLATION = 424242;
  const HEAD = 'a'.repeat(40);
  const BOT = 'qa-bot';
  // Test keys are made here, never committed.
  const appKeys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
  let codehost: FakeCodehost;
  let pullNumber = 7;
  let commentId = 8_000_000;
  beforeAll(async () => {
    codehost = await startFakeCodehost({ appId: APP_ID, publicKey: appKeys.publicKey, botName: BOT });
    codehost.addInstallation(INSTALLATION);
  });
  afterAll(async () => {
    await codehost?.close();
  });

  /** A recorded `issue_comment` payload made into a comment by carol on pull request `pullNumber` of acme/shop. */
  function comment(body: string): Record<string, unknown> {
    const payload = examplePayload('issue_comment', 'created') as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a recorded payload, changed field by field
    const createdAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    payload.comment = { ...payload.comment, id: (commentId += 1), body, created_at: createdAt, updated_at: createdAt, user: { ...payload.comment.user, login: 'carol', type: 'User' } };
    payload.issue = { ...payload.issue, number: pullNumber, user: { ...payload.issue.user, login: 'octocat' }, pull_request: { url: `https://api.codehost.example/repos/acme/shop/pulls/${pullNumber}` } };
    payload.repository = { ...payload.repository, name: 'shop', full_name: 'acme/shop', owner: { ...payload.repository.owner, login: 'acme' } };
    payload.installation = { id: INSTALLATION };
    return payload;
  }

  conversationTable('pull-request', store, async () => {
    codehost.comments.splice(0);
    const { organization } = await createApiKey(store(), 'acme');
    const repositoryId = await insertRepository(store(), organization.id, { providerInstallationId: String(INSTALLATION), baseUrl: 'http://127.0.0.1:9' });
    await connectInstallation(store(), 'codehost', String(INSTALLATION), 'acme');
    codehost.setPermission('acme/shop', 'carol', 'write');
    const { jobs, checks, threads } = services();
    const handler: CodehostEventHandler = issueCommentHandler({
      botName: BOT,
      findRepository: (coordinates) => findCodehostRepository(store(), coordinates),
      pullRequests: createPullRequestConversation(createCodehostClient({ appId: APP_ID, privateKey: appKeys.privateKey, apiUrl: codehost.url })),
      threads,
      jobs,
      checks,
      deployments: (id, sha, environment) => previewDeploymentUrl(store(), id, sha, environment),
    });
    const adapter: Adapter = {
      begin: () => {
        pullNumber += 1;
        codehost.setPull('acme/shop', pullNumber, { headSha: HEAD, author: 'octocat' });
      },
      async say(what, words) {
        const text = 'answer' in what ? `/qa answer\n${words(what)}` : `/qa ${words(what)}`;
        const before = codehost.comments.length;
        await handler({ id: randomUUID(), provider: 'codehost', deliveryId: randomUUID(), event: 'issue_comment', payload: comment(text), attempts: 1 }, { logger: silentLogger() });
        return codehost.comments.slice(before).map((posted) => posted.body);
      },
      saidAs: {
        help: /What I can do on this pull request/,
        check_unknown: new RegExp(ErrorCode.PrCommentCheckUnknown.replace('.', '\\.')),
        check_ambiguous: new RegExp(ErrorCode.PrCommentCheckAmbiguous.replace('.', '\\.')),
        check_not_replayable: new RegExp(ErrorCode.PrCommentCheckNotReplayable.replace('.', '\\.')),
        answer_problem: new RegExp(ErrorCode.ClarificationAnswerCount.replace('.', '\\.')),
        refused: /Sorry, I couldn’t do that: .*execution\.paused/s,
      },
    };
    return { adapter, fixture: { organizationId: organization.id, repositoryId } };
  });
}
