/**
 * What a listener hands over once it has acknowledged a request: the received payload, under a key that is the same
 * for every delivery of it. The job core's chat inbox (src/jobs/chat-inbox.ts) stores it and queues its handling in
 * one transaction; a key it has seen answers `duplicate`, so a retried delivery does nothing.
 */
export interface ReceivedChatEvent {
  /** Slack's `event_id`; for a slash command `cmd:<team>:<trigger_id>`, for a button `act:<team>:<trigger_id>`. */
  eventId: string;
  teamId: string;
  kind: ChatEventKind;
  payload: Record<string, unknown>;
}

export type ChatEventKind = 'app_mention' | 'thread_reply' | 'slash_command' | 'answer_button';

export interface ChatInboxPort {
  accept(event: ReceivedChatEvent): Promise<'accepted' | 'duplicate'>;
}
