import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One delivery of a signed webhook (code host, identity provider), stored before it is acknowledged, under
 * (provider, delivery id): the provider's redelivery of the same id finds it. Processing takes it under a lease
 * (`leaseOwner` until `leaseExpiresAt`), so one worker works on it at a time, and one that died is taken over when
 * the lease runs out. The states and their rules: src/core/webhook-receipt.ts.
 */
@Entity({ name: 'webhook_receipts' })
@Index('UQ_webhook_receipts_provider_delivery_id', ['provider', 'deliveryId'], { unique: true })
@Index('IDX_webhook_receipts_status_next_attempt_at', ['status', 'nextAttemptAt'])
export class WebhookReceipt {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  /** `codehost` or `identity`. */
  @Column({ type: 'varchar', length: 16 })
  provider!: string;

  @Column({ name: 'delivery_id', type: 'varchar', length: 100 })
  deliveryId!: string;

  /** The event name from the delivery's headers (`pull_request`, `installation`, …). */
  @Column({ type: 'varchar', length: 64 })
  event!: string;

  /** SHA-256 of the raw body, hex: the same delivery id with other bytes is refused. */
  @Column({ name: 'body_sha256', type: 'varchar', length: 64 })
  bodySha256!: string;

  @Column({ type: 'json' })
  payload!: Record<string, unknown>;

  /** `pending`, `processing`, `completed`, `failed` or `dead`. */
  @Column({ type: 'varchar', length: 16 })
  status!: string;

  /** Times processing was taken (claimed). */
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'last_error', type: 'varchar', length: 1000, nullable: true })
  lastError!: string | null;

  @Column({ name: 'lease_owner', type: 'varchar', length: 64, nullable: true })
  leaseOwner!: string | null;

  @Column({ name: 'lease_expires_at', type: 'datetime', precision: 3, nullable: true })
  leaseExpiresAt!: Date | null;

  /** When the sweep queues a failed receipt again (back-off). */
  @Column({ name: 'next_attempt_at', type: 'datetime', precision: 3, nullable: true })
  nextAttemptAt!: Date | null;

  @Column({ name: 'received_at', type: 'datetime', precision: 3 })
  receivedAt!: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;

  @Column({ name: 'completed_at', type: 'datetime', precision: 3, nullable: true })
  completedAt!: Date | null;
}
