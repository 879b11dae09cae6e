import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { IngestionRun } from './ingestion-run.entity.js';

/** One entry of an ingestion run's ordered history; `(ingestion_run_id, seq)` is written once, as a job's events are. */
@Entity({ name: 'ingestion_events' })
export class IngestionEvent {
  @PrimaryColumn({ name: 'ingestion_run_id', type: 'varchar', length: 36 })
  ingestionRunId!: string;

  @ManyToOne(() => IngestionRun, { onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'ingestion_run_id', foreignKeyConstraintName: 'FK_ingestion_events_ingestion_run_id' })
  ingestionRun?: Relation<IngestionRun>;

  /** 0, 1, 2, … per run: the `index` of the event stream. */
  @PrimaryColumn({ type: 'integer' })
  seq!: number;

  @Column({ type: 'varchar', length: 64 })
  type!: string;

  @Column({ type: 'datetime', precision: 3 })
  at!: Date;

  @Column({ type: 'json' })
  data!: object;
}
