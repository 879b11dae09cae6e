import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A sign-in under way, between `/auth/login` and `/auth/callback`: the OAuth `state`, the OIDC `nonce` and the PKCE
 * verifier the callback checks. Keyed by the SHA-256 of the browser's sign-in cookie; taken (deleted) by the first
 * callback, so a replayed callback finds nothing.
 */
@Entity({ name: 'sign_in_attempts' })
@Index('IDX_sign_in_attempts_expires_at', ['expiresAt'])
export class SignInAttempt {
  @PrimaryColumn({ name: 'id_hash', type: 'varchar', length: 64 })
  idHash!: string;

  @Column({ type: 'varchar', length: 128 })
  state!: string;

  @Column({ type: 'varchar', length: 128 })
  nonce!: string;

  @Column({ name: 'code_verifier', type: 'varchar', length: 128 })
  codeVerifier!: string;

  /** A same-origin path to go to once signed in (checked by src/identity/return-to.ts). */
  @Column({ name: 'return_to', type: 'varchar', length: 2048 })
  returnTo!: string;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3 })
  expiresAt!: Date;
}
