import type { Logger } from '../../src/logger.js';
import type { ChatInboxPort } from '../chat-inbox.js';

/** What every listener gets: it acknowledges, hands the payload to the inbox, and does nothing else. */
export interface ListenerDeps {
  inbox: ChatInboxPort;
  logger: Logger;
}
