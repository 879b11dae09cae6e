import { Column, PrimaryColumn } from 'typeorm';

/**
 * The columns every access-directory table shares (src/store/entities/directory-*.entity.ts): every row is keyed by the
 * identity provider's id and carries the version of the event that wrote it, so deliveries apply in any order
 * (the rules: src/core/directory-ordering.ts):
 * - `source_updated_at`: the object's `updated_at` as the provider sent it;
 * - `delivery_created_at`: the delivery's `created_at` (ties of `updated_at`);
 * - `event_id`: the delivery's `id` (last tie-break, so the order is total and every arrival order converges);
 * - `deleted_at`: set by a deletion (the deletion delivery's `created_at`); a tombstone no later upsert revives.
 */
export const DIRECTORY_ID_LENGTH = 100;

/** The provider's id and the version of the event that wrote the row; each directory entity extends it. */
export abstract class DirectoryRow {
  @PrimaryColumn({ type: 'varchar', length: DIRECTORY_ID_LENGTH })
  id!: string;

  @Column({ name: 'source_updated_at', type: 'datetime', precision: 3 })
  sourceUpdatedAt!: Date;

  @Column({ name: 'delivery_created_at', type: 'datetime', precision: 3 })
  deliveryCreatedAt!: Date;

  @Column({ name: 'event_id', type: 'varchar', length: DIRECTORY_ID_LENGTH })
  eventId!: string;

  @Column({ name: 'deleted_at', type: 'datetime', precision: 3, nullable: true })
  deletedAt!: Date | null;
}
