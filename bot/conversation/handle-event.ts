import { isAppError } from '../../src/core/errors.js';
import { chatPrincipal, type Principal } from '../../src/core/principal.js';
import { chatJobKey } from '../../src/jobs/chat/chat-inbox.js';
import * as replies from '../blocks/replies.js';
import { ANSWER_YES } from '../blocks/actions.js';
import { answerInThread, awaitingInThread, runCommand } from './run-command.js';
import { answerLines, parseCommand } from './commands.js';
import type { Conversation } from './conversation.js';
import type { ChatReply, ChatWorkspace, ConversationDeps, StoredChatEvent } from './deps.js';
import { authorizations, buttonPress, messageEnvelope, slashCommand } from './slack-payloads.js';

function conversationOf(event: StoredChatEvent): Conversation | null {
  const base = { eventId: event.eventId, teamId: event.teamId };
  switch (event.kind) {
    case 'app_mention':
    case 'thread_reply': {
      const parsed = messageEnvelope.safeParse(event.payload);
      if (!parsed.success) return null;
      const message = parsed.data.event;
      return {
        ...base,
        channelId: message.channel,
        threadTs: message.thread_ts ?? message.ts,
        userId: message.user,
        userTeamId: message.user_team ?? message.team ?? event.teamId,
        text: message.text ?? '',
      };
    }
    case 'slash_command': {
      const parsed = slashCommand.safeParse(event.payload);
      if (!parsed.success) return null;
      const body = parsed.data;
      return { ...base, channelId: body.channel_id, threadTs: null, userId: body.user_id, userTeamId: body.team_id ?? event.teamId, text: body.text ?? '' };
    }
    case 'answer_button': {
      const parsed = buttonPress.safeParse(event.payload);
      if (!parsed.success) return null;
      const body = parsed.data;
      const channelId = body.channel?.id ?? body.container?.channel_id;
      const threadTs = body.container?.thread_ts ?? body.message?.thread_ts ?? body.container?.message_ts;
      if (channelId === undefined || threadTs === undefined) return null;
      return { ...base, channelId, threadTs, userId: body.user.id, userTeamId: body.user.team_id ?? event.teamId, text: '' };
    }
  }
}

/**
 * The `chat-event` job: what the bot does about one stored delivery. It decides once (`settle`: the job started, the
 * binding saved, the reply to post), then posts the reply once (`markReplied`); a rerun after a crash or a failed
 * post skips what is already done. A rerun whose first run died after starting a job but before settling finds that
 * job under the delivery's key (`chatJobKey`) and settles with no reply instead of starting another. A Slack failure
 * is thrown to the queue, which retries with back-off.
 */
export async function handleChatEvent(eventId: string, deps: ConversationDeps): Promise<void> {
  const event = await deps.events.load(eventId);
  if (!event) {
    deps.logger.warn({ eventId }, 'chat event not found; nothing to do');
    return;
  }
  const conversation = conversationOf(event);
  if (!conversation) {
    deps.logger.info({ eventId, kind: event.kind }, 'chat event without a channel or user; ignored');
    if (!event.settledAt) await deps.events.settle(eventId, null);
    return;
  }
  const workspace = await deps.workspaces.find(event.teamId);
  const token = workspace?.botToken ?? deps.defaultBotToken;
  let settled = event;
  if (!event.settledAt) {
    const decided = await decide(event, conversation, workspace, token !== null, deps);
    await deps.events.settle(eventId, decided as Record<string, unknown> | null);
    // What was stored wins: a run that raced this one may have settled first.
    settled = (await deps.events.load(eventId)) ?? event;
  }
  const reply = settled.reply as ChatReply | null;
  if (reply && !settled.repliedAt) {
    if (!token) {
      deps.logger.warn({ eventId, teamId: event.teamId }, 'no bot token for this workspace; the reply is not posted');
      return;
    }
    await deps.poster(token).post(reply);
    await deps.events.markReplied(eventId);
  }
}

function reply(conversation: Conversation, content: replies.MessageContent): ChatReply {
  return { channelId: conversation.channelId, threadTs: conversation.threadTs, ...content };
}

async function decide(
  event: StoredChatEvent,
  conversation: Conversation,
  workspace: ChatWorkspace | null,
  canReply: boolean,
  deps: ConversationDeps,
): Promise<ChatReply | null> {
  const botUserId = workspace?.botUserId ?? authorizations.safeParse(event.payload).data?.authorizations?.[0]?.user_id ?? null;
  if (event.kind === 'thread_reply' && botUserId && conversation.text.includes(`<@${botUserId}>`)) return null; // the mention handles it
  if (conversation.userId === botUserId) return null;
  if (!workspace?.organizationId) {
    // Replies in a thread are people talking to each other; only a request to the bot gets the one polite answer.
    if (event.kind === 'thread_reply' || !canReply) return null;
    return reply(conversation, replies.notConnected(event.teamId));
  }
  const principal = chatPrincipal(workspace.organizationId, event.teamId, conversation.userId);
  const member = conversation.userTeamId === event.teamId;
  // A first run that started a job (or answered with one) and died before settling did the delivery's work: the
  // job's progress message is its answer. Deciding again would read a thread that job has changed (its questions
  // look answered, its buttons stale) and say so.
  if (await deps.jobs.madeFor(principal, chatJobKey(event.eventId))) return null;
  try {
    if (event.kind === 'thread_reply') return await answerFromReply(conversation, principal, member, deps);
    if (!member) return reply(conversation, replies.outsider());
    if (event.kind === 'answer_button') return await answerFromButton(event, conversation, principal, deps);
    return await runCommand(parseCommand(conversation.text), conversation, principal, deps);
  } catch (error) {
    // A refusal of the job core (a paused capability, an unknown id, a wrong answer count) is said in the thread.
    if (isAppError(error) && error.kind !== 'unexpected') return reply(conversation, replies.refused(error.message));
    throw error;
  }
}

/** A person's reply in a thread whose job asked questions: the answers, or what is wrong with them. */
async function answerFromReply(conversation: Conversation, principal: Principal, member: boolean, deps: ConversationDeps): Promise<ChatReply | null> {
  if (!(await awaitingInThread(conversation, principal, deps))) return null;
  if (!member) return reply(conversation, replies.outsider());
  return answerInThread(answerLines(conversation.text), conversation, principal, deps);
}

/** Yes / No under a single yes-or-no question. */
async function answerFromButton(event: StoredChatEvent, conversation: Conversation, principal: Principal, deps: ConversationDeps): Promise<ChatReply | null> {
  const action = buttonPress.safeParse(event.payload).data?.actions?.[0];
  const job = await awaitingInThread(conversation, principal, deps);
  if (!action || !job || action.value !== job.id) {
    return reply(conversation, replies.plain('Those buttons belong to questions that are already answered or no longer open.'));
  }
  const questions = job.resolution!.questions;
  if (questions.length !== 1) return reply(conversation, replies.answerProblem('This job asks more than one question; answer them in a reply, one line each.', questions));
  return answerInThread([action.action_id === ANSWER_YES ? 'yes' : 'no'], conversation, principal, deps);
}
