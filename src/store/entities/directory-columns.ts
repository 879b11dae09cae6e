/**
 * Shared doc for the access-directory tables (src/store/entities/directory-*.entity.ts): every row is keyed by the
 * identity provider's id and carries the version of the event that wrote it, so deliveries apply in any order
 * (the rules: src/core/directory-ordering.ts):
 * - `source_updated_at`: the object's `updated_at` as the provider sent it;
 * - `delivery_created_at`: the delivery's `created_at` (ties of `updated_at`);
 * - `event_id`: the delivery's `id` (last tie-break, so the order is total and every arrival order converges);
 * - `deleted_at`: set by a deletion (the deletion delivery's `created_at`); a tombstone no later upsert revives.
 */
export const DIRECTORY_ID_LENGTH = 100;
