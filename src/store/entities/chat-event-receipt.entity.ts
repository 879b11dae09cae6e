import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A delivery the bot took, under Slack's `event_id` (a slash command: `cmd:<team>:<trigger_id>`, a button:
 * `act:<team>:<trigger_id>`). The key makes a retried delivery a no-op; `settledAt`/`reply`/`repliedAt` record how
 * far its handling got, so a rerun of the `chat-event` job neither repeats an effect nor posts a reply twice.
 */
@Entity({ name: 'chat_event_receipts' })
// The periodic purge takes the oldest settled receipts first.
@Index('IDX_chat_event_receipts_settled_at', ['settledAt'])
export class ChatEventReceipt {
  @PrimaryColumn({ name: 'event_id', type: 'varchar', length: 160 })
  eventId!: string;

  @Column({ name: 'team_id', type: 'varchar', length: 32 })
  teamId!: string;

  /** `app_mention`, `thread_reply`, `slash_command` or `answer_button`. */
  @Column({ type: 'varchar', length: 32 })
  kind!: string;

  /** The delivery as Slack sent it (after Bolt parsed it). */
  @Column({ type: 'json' })
  payload!: Record<string, unknown>;

  @Column({ name: 'received_at', type: 'datetime', precision: 3 })
  receivedAt!: Date;

  @Column({ name: 'settled_at', type: 'datetime', precision: 3, nullable: true })
  settledAt!: Date | null;

  /** The reply decided when it settled (channel, thread, text, blocks), or null for none. */
  @Column({ type: 'json', nullable: true })
  reply!: Record<string, unknown> | null;

  @Column({ name: 'replied_at', type: 'datetime', precision: 3, nullable: true })
  repliedAt!: Date | null;

  /**
   * The `ts` of the message a slash command opened its job's thread with, recorded before the job is created: a rerun
   * threads the job under it instead of posting a second opening.
   */
  @Column({ name: 'opening_ts', type: 'varchar', length: 32, nullable: true })
  openingTs!: string | null;

  /**
   * When a run began posting that opening. Set with no `openingTs`, the run died between the post and recording it:
   * a rerun looks for the message (its metadata names the delivery) before posting another.
   */
  @Column({ name: 'opening_started_at', type: 'datetime', precision: 3, nullable: true })
  openingStartedAt!: Date | null;
}
