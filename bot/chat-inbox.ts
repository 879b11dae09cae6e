import type { ChatDelivery, ChatInbox } from '../src/jobs/chat/chat-inbox.js';

/**
 * What a listener hands over once it has acknowledged a request: the received payload, under a key that is the same
 * for every delivery of it (Slack's `event_id`; for a slash command `cmd:<team>:<trigger_id>`, for a button
 * `act:<team>:<trigger_id>`). The job core's inbox stores it and queues its handling in one transaction; a key it
 * has seen answers `duplicate`, so a retried delivery does nothing.
 */
export type ReceivedChatEvent = ChatDelivery;
export type ChatEventKind = ChatDelivery['kind'];
export type ChatInboxPort = Pick<ChatInbox, 'accept'>;
