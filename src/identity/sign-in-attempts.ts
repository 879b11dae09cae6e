import type { DataSource } from 'typeorm';
import { LessThan } from 'typeorm';
import { SignInAttempt } from '../store/entities/sign-in-attempt.entity.js';
import { randomToken, TOKEN_SHAPE, tokenHash } from './secret-tokens.js';

/** How long a person has between `/auth/login` and the provider's redirect back. */
export const SIGN_IN_TIME_LIMIT_MS = 10 * 60_000;

export interface SignInChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
}

export interface SignInAttempts {
  /** Stores the checks of a new sign-in; the answer is the browser's sign-in cookie value (never stored). */
  begin(checks: SignInChecks, now: Date): Promise<string>;
  /**
   * The checks of the sign-in this cookie began, removed in the same step: only the first callback gets them, so a
   * replayed callback (the same state and code) finds nothing. Null when unknown, expired or already taken.
   */
  take(cookieValue: string, now: Date): Promise<SignInChecks | null>;
}

export function createSignInAttempts(dataSource: DataSource): SignInAttempts {
  const attempts = dataSource.getRepository(SignInAttempt);
  return {
    async begin(checks, now) {
      const cookieValue = randomToken();
      // Abandoned sign-ins are cleared as new ones begin: the table stays as small as the sign-ins under way.
      await attempts.delete({ expiresAt: LessThan(now) });
      await attempts.insert({ idHash: tokenHash(cookieValue), ...checks, expiresAt: new Date(now.getTime() + SIGN_IN_TIME_LIMIT_MS) });
      return cookieValue;
    },

    async take(cookieValue, now) {
      if (!TOKEN_SHAPE.test(cookieValue)) return null;
      const idHash = tokenHash(cookieValue);
      const attempt = await attempts.findOneBy({ idHash });
      if (attempt === null) return null;
      // The delete decides who took it: of two racing callbacks, one deletes the row and the other gets nothing.
      const deleted = await attempts.delete({ idHash });
      if ((deleted.affected ?? 0) !== 1 || attempt.expiresAt.getTime() <= now.getTime()) return null;
      return { state: attempt.state, nonce: attempt.nonce, codeVerifier: attempt.codeVerifier, returnTo: attempt.returnTo };
    },
  };
}
