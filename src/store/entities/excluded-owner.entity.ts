import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A code-host owner whose repositories are refused before anything is stored (`qa owners exclude`). */
@Entity({ name: 'excluded_owners' })
export class ExcludedOwner {
  /** Lowercase: owner names compare case-insensitively on code hosts. */
  @PrimaryColumn({ type: 'varchar', length: 100 })
  owner!: string;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;
}
