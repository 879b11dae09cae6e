import { ErrorCode, isAppError, operationalError } from '../../src/core/errors.js';
import type { Principal } from '../../src/core/principal.js';
import { chatJobKey } from '../../src/jobs/chat/chat-inbox.js';
import { createConversation, type ConversationPlace, type JobRequest, type JobTarget, type Outcome } from '../../src/jobs/conversation/conversation.js';
import * as replies from '../blocks/replies.js';
import type { ChatCommand } from './commands.js';
import type { ChannelTarget, ChatReply, ConversationDeps } from './deps.js';
import { threadKey, type Conversation } from './conversation.js';

/** What the chat says in its own words when a place refuses: a reply, already placed in its thread. */
type Said = ChatReply;

/** The `channelContext` of a job started from chat: where notify posts its progress and the answers come from. */
export function chatChannelContext(conversation: Conversation, threadTs: string): Record<string, unknown> {
  return { channel: 'chat', provider: 'slack', teamId: conversation.teamId, channelId: conversation.channelId, threadTs, userId: conversation.userId };
}

/** A chat thread as a place of the `/qa` conversation (src/jobs/conversation/), and where its replies go now. */
interface ChatPlace extends ConversationPlace<Said> {
  /** Where a reply goes: the request's thread, or the thread a slash command's job opened (null: the channel). */
  say(content: replies.MessageContent): ChatReply;
}

function chatPlace(conversation: Conversation, principal: Principal, deps: ConversationDeps): ChatPlace {
  let thread = conversation.threadTs;
  let binding: Promise<ChannelTarget | null> | undefined;
  const bound = () => (binding ??= deps.bindings.find(principal, conversation.teamId, conversation.channelId));
  const say = (content: replies.MessageContent): ChatReply => ({ channelId: conversation.channelId, threadTs: thread, ...content });

  /** The channel's binding, with an inline address taking the place of its base URL; or the repository of that address. */
  async function targetOf(baseUrl: string | null): Promise<ChannelTarget | null> {
    const target = await bound();
    if (target) return baseUrl ? { ...target, baseUrl } : target;
    return baseUrl ? deps.bindings.forUrl(principal, baseUrl) : null;
  }

  async function jobTarget(request: JobRequest): Promise<JobTarget | { said: Said }> {
    let target: ChannelTarget | null;
    if ('task' in request) {
      target = await targetOf(request.baseUrl);
      thread = await threadFor(conversation, `<@${conversation.userId}> asked: ${request.task}`, deps);
    } else {
      const channel = await bound();
      target = channel && channel.repositoryId === request.check.repositoryId ? channel : await deps.bindings.forRepository(principal, request.check.repositoryId);
      thread = await threadFor(conversation, `<@${conversation.userId}> asked to replay: ${request.check.task}`, deps);
    }
    // A refusal after the thread opened is said in it, where a slash command's opening message already is.
    if (!target) return { said: say(replies.needsTarget()) };
    return {
      repositoryId: 'task' in request ? target.repositoryId : request.check.repositoryId,
      baseUrl: target.baseUrl,
      networkAllowlist: target.networkAllowlist,
      trigger: 'chat',
      channelContext: chatChannelContext(conversation, thread),
    };
  }

  return {
    principal,
    sourceKey: chatJobKey(conversation.eventId),
    checkRepository: async () => (await bound())?.repositoryId,
    // An id finds a check anywhere in the organization: it may belong to another repository than the channel's.
    idsWithinRepository: false,
    async jobs() {
      if (!thread) return [];
      const jobs = await deps.threads.inThread(threadKey(conversation.teamId, conversation.channelId, thread));
      return jobs.filter((job) => job.organizationId === principal.organizationId);
    },
    closed: async () => null,
    jobTarget,
    say,
  };
}

/**
 * The chat adapter of the `/qa` conversation: a command of the channel's vocabulary (`use` binds the channel, the
 * rest is the conversation's), done in the request's thread. A job it starts says nothing here: its progress message
 * (notify) is the answer, in the same thread. Everything else answers with a short reply.
 */
export async function runCommand(command: ChatCommand, conversation: Conversation, principal: Principal, deps: ConversationDeps): Promise<ChatReply | null> {
  const place = chatPlace(conversation, principal, deps);
  if (command.kind === 'use') return bind(command, conversation, principal, deps, place);
  const outcome = await createConversation(deps).run(command, place);
  return sayOutcome(outcome, place, deps);
}

/** Answers to the questions of the thread's waiting job (a thread reply, a Yes / No button); null when none waits. */
export async function answerInThread(lines: string[], conversation: Conversation, principal: Principal, deps: ConversationDeps): Promise<ChatReply | null> {
  const place = chatPlace(conversation, principal, deps);
  return sayOutcome(await createConversation(deps).run({ kind: 'answer', lines }, place), place, deps);
}

/** The job of the thread waiting for answers, by the conversation's one rule. */
export async function awaitingInThread(conversation: Conversation, principal: Principal, deps: ConversationDeps) {
  return createConversation(deps).awaiting(chatPlace(conversation, principal, deps));
}

async function bind(command: Extract<ChatCommand, { kind: 'use' }>, conversation: Conversation, principal: Principal, deps: ConversationDeps, place: ChatPlace): Promise<ChatReply> {
  const target = await deps.bindings
    .bind(principal, {
      teamId: conversation.teamId,
      channelId: conversation.channelId,
      repository: command.repository,
      ...(command.baseUrl ? { baseUrl: command.baseUrl } : {}),
      boundBy: conversation.userId,
    })
    .catch((error: unknown) => {
      if (isAppError(error) && error.code === ErrorCode.RepositoryNotFound) return null;
      throw error;
    });
  return place.say(target ? replies.bound(target.repository, target.baseUrl) : replies.unknownRepository(command.repository));
}

/** The outcome in Slack's words, in the place's thread; null where the job (or nobody) speaks. */
function sayOutcome(outcome: Outcome<Said>, place: ChatPlace, deps: ConversationDeps): ChatReply | null {
  const { say } = place;
  switch (outcome.kind) {
    case 'done':
    // A thread reply with no job waiting for it is people talking to each other.
    // falls through
    case 'nothing_to_answer':
      return null;
    case 'said':
      return outcome.said;
    case 'help':
      return say(replies.help());
    case 'invalid':
      return say(replies.plain(outcome.message));
    case 'checks':
      return say(replies.checkList(outcome.checks));
    case 'check_unknown':
      return say(replies.unknownCheck(outcome.wanted));
    case 'check_ambiguous':
      return say(replies.ambiguousCheck(outcome.wanted, outcome.candidates));
    case 'check_not_replayable':
      return say(replies.checkNotReplayable(outcome.task));
    case 'nothing_to_rerun':
      return say(replies.plain('This thread has no job yet, so there is nothing to run again.'));
    case 'answer_problem':
      return say(replies.answerProblem(outcome.problem, outcome.questions));
    case 'not_a_job_id':
      return say(replies.notAJobId(outcome.text));
    case 'job_unknown':
      return say(replies.unknownJob(outcome.jobId));
    case 'job_status': {
      const link = `${deps.publicBaseUrl}/jobs/${outcome.job.id}`;
      return say(replies.jobStatus({ ...outcome.job, findings: outcome.findings, link }));
    }
    case 'cancelled':
      return say(replies.plain(`Cancelled job \`${outcome.jobId}\`.`));
    case 'not_cancellable':
      return say(replies.notCancellable(outcome.jobId, outcome.status));
    case 'no_failed_job':
      return say(replies.plain('Say `not a bug: <reason>` in the thread of a failed job; this thread has none.'));
    case 'no_failing_findings':
      return say(replies.plain('That job has no failing findings to dispute.'));
    case 'disputed':
      return say(
        replies.plain(
          `Marked ${outcome.count} finding(s) of job \`${outcome.jobId}\` as not a bug: “${replies.escapeMrkdwn(outcome.reason)}”. A replay of its check that fails the same way will warn instead of failing.`,
        ),
      );
    case 'refused':
      // The job core's refusal (a paused capability, a limit) is said in the thread, never loose in the channel.
      return say(replies.refused(outcome.error.message));
  }
}

/** The metadata of a slash command's opening message: the delivery it opens a thread for. */
export const OPENING_EVENT_TYPE = 'qa_chat_opening';

/**
 * The thread a job's messages go in: the request's own. A slash command has none, so the bot posts what was asked
 * at the top of the channel and the job's thread hangs from that message. The message is recorded before the job is
 * created, so a rerun after a crash reuses it; a run that died between the post and the record left a mark before
 * posting, and the rerun then finds the message by its metadata instead of posting a second opening.
 */
async function threadFor(conversation: Conversation, opening: string, deps: ConversationDeps): Promise<string> {
  if (conversation.threadTs) return conversation.threadTs;
  const { eventId, channelId } = conversation;
  const recorded = await deps.events.opening(eventId);
  if (recorded !== null) return recorded;
  const workspace = await deps.workspaces.find(conversation.teamId);
  const token = workspace?.botToken ?? deps.defaultBotToken;
  if (!token) throw operationalError(ErrorCode.ChatBotTokenMissing, `no bot token for team ${conversation.teamId.slice(0, 40)} to open a thread with`);
  const poster = deps.poster(token);
  const tag = { eventType: OPENING_EVENT_TYPE, eventPayload: { event_id: eventId } };
  if (await deps.events.startOpening(eventId)) {
    const found = await poster.findTagged(channelId, tag);
    if (found !== null) return deps.events.recordOpening(eventId, found);
  }
  const ts = await poster.post({ channelId, threadTs: null, ...replies.plain(opening), tag });
  return deps.events.recordOpening(eventId, ts);
}
