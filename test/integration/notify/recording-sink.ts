import { DeliveryFailed } from '../../../src/notify/errors.js';
import type { DeliveryTarget, ProgressSink } from '../../../src/notify/progress-sink.js';
import type { ProgressView } from '../../../src/notify/progress-view.js';

/** A channel kept in memory: its messages by handle, every post and edit, and failures to answer next. */
export class RecordingSink implements ProgressSink {
  readonly messages = new Map<string, { jobId: string; view: ProgressView; target: DeliveryTarget }>();
  readonly posts: ProgressView[] = [];
  readonly edits: ProgressView[] = [];
  readonly recoveries: string[] = [];
  readonly #failures: unknown[] = [];
  #next = 1;

  /** The next `times` deliveries throw `error`. */
  failNext(error: unknown, times = 1): void {
    for (let i = 0; i < times; i += 1) this.#failures.push(error);
  }

  get sent(): ProgressView[] {
    return [...this.posts, ...this.edits];
  }

  async deliver(target: DeliveryTarget, view: ProgressView, handle: string | null): Promise<{ handle: string }> {
    if (this.#failures.length > 0) throw this.#failures.shift();
    if (handle === null) {
      const posted = `m${this.#next++}`;
      this.messages.set(posted, { jobId: view.jobId, view, target });
      this.posts.push(view);
      return { handle: posted };
    }
    const message = this.messages.get(handle);
    if (!message) throw new DeliveryFailed(`no message ${handle}`, { retryable: false });
    message.view = view;
    this.edits.push(view);
    return { handle };
  }

  async recover(_target: DeliveryTarget, jobId: string): Promise<string | null> {
    this.recoveries.push(jobId);
    return [...this.messages.entries()].find(([, message]) => message.jobId === jobId)?.[0] ?? null;
  }
}
