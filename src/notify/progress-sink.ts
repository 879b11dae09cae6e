import type { ChatChannelContext, CodehostChannelContext, NotifiedContext } from '../core/channel-context.js';
import type { ProgressView } from './progress-view.js';
export { DeliveryFailed } from './errors.js';

/** Where one job's progress goes: the organization that owns the job, and the conversation in its channel. */
export interface DeliveryTarget<C extends NotifiedContext = NotifiedContext> {
  /** The job's organization: a sink delivers only through a workspace (or installation) connected to it. */
  organizationId: string;
  context: C;
}

/**
 * A channel that shows a job's progress as one message, edited as the job moves (a chat thread today; a
 * pull-request comment later). Failures are thrown as `DeliveryFailed`; anything else thrown counts as retryable.
 */
export interface ProgressSink<C extends NotifiedContext = NotifiedContext> {
  /** Posts the job's message (`handle` null) or edits it to show `view`; returns the message's handle. */
  deliver(target: DeliveryTarget<C>, view: ProgressView, handle: string | null): Promise<{ handle: string }>;
  /** The handle of the job's message if one was posted (by a worker that died before recording it), else null. */
  recover(target: DeliveryTarget<C>, jobId: string): Promise<string | null>;
}

/** The sink of each notified channel this process can deliver to. */
export interface ProgressSinks {
  chat?: ProgressSink<ChatChannelContext>;
  codehost?: ProgressSink<CodehostChannelContext>;
}
