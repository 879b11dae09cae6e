import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An operator's pause of a capability (`live` or `ai`), for every organization (`scope` = 'global') or for one
 * (`scope` = its id). A missing row means running.
 */
@Entity({ name: 'execution_flags' })
export class ExecutionFlag {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  scope!: string;

  @PrimaryColumn({ type: 'varchar', length: 16 })
  capability!: string;

  @Column({ type: 'boolean', default: false })
  paused!: boolean;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;

  /** Who set it last (`actorName`; null: the operator's CLI, or before 1765200000001). */
  @Column({ name: 'updated_by', type: 'varchar', length: 300, nullable: true })
  updatedBy!: string | null;
}
