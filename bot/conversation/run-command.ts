import { ErrorCode, isAppError } from '../../src/core/errors.js';
import { actorName, type Principal } from '../../src/core/principal.js';
import type { CheckService } from '../../src/jobs/check-service.js';
import { chatJobKey } from '../../src/jobs/chat/chat-inbox.js';
import type { CreateJobInput } from '../../src/jobs/job-service.js';
import * as replies from '../blocks/replies.js';
import type { ChatCommand } from './commands.js';
import type { ChannelTarget, ChatReply, ConversationDeps } from './deps.js';
import { threadKey, type Conversation } from './conversation.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Say = (content: replies.MessageContent) => ChatReply;
type CheckLine = Awaited<ReturnType<CheckService['list']>>[number];

/** Turns the job core's refusal `code` into null, for a reply that explains it; anything else goes on up. */
const nullWhen =
  (code: ErrorCode) =>
  (error: unknown): null => {
    if (isAppError(error) && error.code === code) return null;
    throw error;
  };

/** The `channelContext` of a job started from chat: where notify posts its progress and the answers come from. */
export function chatChannelContext(conversation: Conversation, threadTs: string): Record<string, unknown> {
  return { channel: 'chat', provider: 'slack', teamId: conversation.teamId, channelId: conversation.channelId, threadTs, userId: conversation.userId };
}

/**
 * What a command does. A job it starts says nothing here: its progress message (notify) is the answer, in the same
 * thread. Everything else answers with a short reply.
 */
export async function runCommand(command: ChatCommand, conversation: Conversation, principal: Principal, deps: ConversationDeps): Promise<ChatReply | null> {
  const say: Say = (content) => ({ channelId: conversation.channelId, threadTs: conversation.threadTs, ...content });
  switch (command.kind) {
    case 'help':
      return say(replies.help());
    case 'invalid':
      return say(replies.plain(command.message));
    case 'checks': {
      const target = await deps.bindings.find(principal, conversation.teamId, conversation.channelId);
      const checks = await deps.checks.list(principal, { repositoryId: target?.repositoryId, limit: 20 });
      return say(replies.checkList(checks));
    }
    case 'status': {
      if (!UUID.test(command.jobId)) return say(replies.notAJobId(command.jobId));
      const jobId = command.jobId.toLowerCase();
      const view = await deps.jobs.get(principal, jobId).catch(nullWhen(ErrorCode.JobNotFound));
      if (!view) return say(replies.unknownJob(jobId));
      const link = `${deps.publicBaseUrl}/api/jobs/${view.job.id}`;
      return say(replies.jobStatus({ id: view.job.id, status: view.job.status, task: view.job.task, findings: view.findings.length, link }));
    }
    case 'cancel':
      return cancel(command.jobId, principal, deps, say);
    case 'use': {
      const target = await deps.bindings
        .bind(principal, {
          teamId: conversation.teamId,
          channelId: conversation.channelId,
          repository: command.repository,
          ...(command.baseUrl ? { baseUrl: command.baseUrl } : {}),
          boundBy: conversation.userId,
        })
        .catch(nullWhen(ErrorCode.RepositoryNotFound));
      return say(target ? replies.bound(target.repository, target.baseUrl) : replies.unknownRepository(command.repository));
    }
    case 'dispute':
      return dispute(command.reason, conversation, principal, deps, say);
    case 'replay':
      return replay(command.check, conversation, principal, deps, say);
    case 'task': {
      const target = await targetOf(command.baseUrl, conversation, principal, deps);
      const thread = await threadFor(conversation, `<@${conversation.userId}> asked: ${command.task}`, deps);
      const inThread: Say = (content) => ({ channelId: conversation.channelId, threadTs: thread, ...content });
      if (!target) return inThread(replies.needsTarget());
      return startJob(
        principal,
        {
          repositoryId: target.repositoryId,
          naturalLanguageTask: command.task,
          baseUrl: target.baseUrl,
          networkAllowlist: target.networkAllowlist,
          trigger: 'chat',
          channelContext: chatChannelContext(conversation, thread),
          sourceKey: chatJobKey(conversation.eventId),
        },
        inThread,
        deps,
      );
    }
  }
}

/**
 * Creates a job whose thread is open. The job says nothing here (its progress message is the answer); a refusal of
 * the job core (a paused capability, a limit) is said in that thread, where a slash command's opening message
 * already is, never loose in the channel.
 */
async function startJob(principal: Principal, input: CreateJobInput, inThread: Say, deps: ConversationDeps): Promise<ChatReply | null> {
  try {
    await deps.jobs.create(principal, input);
    return null;
  } catch (error) {
    if (isAppError(error) && error.kind !== 'unexpected') return inThread(replies.refused(error.message));
    throw error;
  }
}

/** Cancels one of the organization's jobs; an unknown id (another organization's included) and a finished job are said so. */
async function cancel(wanted: string, principal: Principal, deps: ConversationDeps, say: Say): Promise<ChatReply> {
  if (!UUID.test(wanted)) return say(replies.notAJobId(wanted));
  const jobId = wanted.toLowerCase();
  try {
    await deps.jobs.cancel(principal, jobId);
    return say(replies.plain(`Cancelled job \`${jobId}\`.`));
  } catch (error) {
    if (!isAppError(error) || (error.code !== ErrorCode.JobNotFound && error.code !== ErrorCode.JobNotCancellable)) throw error;
    // A finished job is said to be so, with its status; an unknown one gets the words of an id nobody has.
    const view = error.code === ErrorCode.JobNotCancellable ? await deps.jobs.get(principal, jobId).catch(nullWhen(ErrorCode.JobNotFound)) : null;
    return say(view ? replies.notCancellable(jobId, view.job.status) : replies.unknownJob(jobId));
  }
}

/** The channel's binding, with an inline address taking the place of its base URL; or the repository of that address. */
async function targetOf(baseUrl: string | null, conversation: Conversation, principal: Principal, deps: ConversationDeps): Promise<ChannelTarget | null> {
  const bound = await deps.bindings.find(principal, conversation.teamId, conversation.channelId);
  if (bound) return baseUrl ? { ...bound, baseUrl } : bound;
  return baseUrl ? deps.bindings.forUrl(principal, baseUrl) : null;
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
  if (!token) throw new Error('no bot token to open a thread with');
  const poster = deps.poster(token);
  const tag = { eventType: OPENING_EVENT_TYPE, eventPayload: { event_id: eventId } };
  if (await deps.events.startOpening(eventId)) {
    const found = await poster.findTagged(channelId, tag);
    if (found !== null) return deps.events.recordOpening(eventId, found);
  }
  const ts = await poster.post({ channelId, threadTs: null, ...replies.plain(opening), tag });
  return deps.events.recordOpening(eventId, ts);
}

/**
 * The check a replay names: an id finds it anywhere in the organization (it may belong to another repository than
 * the channel's); words find it among the channel's checks (the organization's when the channel is not bound), an
 * exact task before a fragment of one. Another organization's id is not found, like an id nobody has.
 */
async function findCheck(wanted: string, repositoryId: string | undefined, principal: Principal, deps: ConversationDeps): Promise<{ check: CheckLine } | { reply: replies.MessageContent }> {
  const needle = wanted.trim().toLowerCase();
  if (UUID.test(needle)) {
    const view = await deps.checks.get(principal, needle).catch(nullWhen(ErrorCode.CheckNotFound));
    return view ? { check: view.check } : { reply: replies.unknownCheck(wanted) };
  }
  const checks = await deps.checks.list(principal, { repositoryId, limit: 200 });
  const exact = checks.filter((check) => check.task.toLowerCase() === needle);
  const matches = exact.length > 0 ? exact : checks.filter((check) => check.task.toLowerCase().includes(needle));
  if (matches.length === 0) return { reply: replies.unknownCheck(wanted) };
  if (matches.length > 1) return { reply: replies.ambiguousCheck(wanted, matches.slice(0, 10)) };
  return { check: matches[0]! };
}

async function replay(wanted: string, conversation: Conversation, principal: Principal, deps: ConversationDeps, say: Say): Promise<ChatReply | null> {
  const target = await deps.bindings.find(principal, conversation.teamId, conversation.channelId);
  const found = await findCheck(wanted, target?.repositoryId, principal, deps);
  if ('reply' in found) return say(found.reply);
  const { check } = found;
  if (check.status !== 'active') return say(replies.checkNotReplayable(check.task));
  const repository = target && target.repositoryId === check.repositoryId ? target : await deps.bindings.forRepository(principal, check.repositoryId);
  const thread = await threadFor(conversation, `<@${conversation.userId}> asked to replay: ${check.task}`, deps);
  const inThread: Say = (content) => ({ channelId: conversation.channelId, threadTs: thread, ...content });
  return startJob(
    principal,
    {
      repositoryId: check.repositoryId,
      checkId: check.id,
      baseUrl: repository.baseUrl,
      networkAllowlist: repository.networkAllowlist,
      trigger: 'chat',
      channelContext: chatChannelContext(conversation, thread),
      sourceKey: chatJobKey(conversation.eventId),
    },
    inThread,
    deps,
  );
}

async function dispute(reason: string, conversation: Conversation, principal: Principal, deps: ConversationDeps, say: Say): Promise<ChatReply> {
  const jobs = conversation.threadTs ? await deps.threads.inThread(threadKey(conversation.teamId, conversation.channelId, conversation.threadTs)) : [];
  const failed = jobs.find((job) => job.status === 'failed' && job.organizationId === principal.organizationId);
  if (!failed) return say(replies.plain('Say `not a bug: <reason>` in the thread of a failed job; this thread has none.'));
  const count = (await deps.jobs.disputeFindings(principal, failed.id, { by: actorName(principal), reason })).length;
  if (count === 0) return say(replies.plain('That job has no failing findings to dispute.'));
  return say(replies.plain(`Marked ${count} finding(s) of job \`${failed.id}\` as not a bug: “${replies.escapeMrkdwn(reason)}”. A replay of its check that fails the same way will warn instead of failing.`));
}
