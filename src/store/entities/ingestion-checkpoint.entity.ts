import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { IngestionRun } from './ingestion-run.entity.js';

/**
 * A completed unit of an onboarding workflow, written in the commit that records the unit's results and events: a
 * resumed workflow skips it, and the key refuses a second writer of the same unit.
 */
@Entity({ name: 'ingestion_checkpoints' })
export class IngestionCheckpoint {
  @PrimaryColumn({ name: 'ingestion_run_id', type: 'varchar', length: 36 })
  ingestionRunId!: string;

  @ManyToOne(() => IngestionRun, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'ingestion_run_id', foreignKeyConstraintName: 'FK_ingestion_checkpoints_ingestion_run_id' })
  ingestionRun?: Relation<IngestionRun>;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  step!: string;

  @Column({ type: 'json' })
  result!: object;

  @Column({ name: 'completed_at', type: 'datetime', precision: 3 })
  completedAt!: Date;
}
