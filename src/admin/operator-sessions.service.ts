import { Injectable } from '@nestjs/common';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { OperatorSessionRow, OperatorSignInLimits, OperatorsRepository } from './operators.repository';

/** An /admin session ends after 30 idle minutes, and after 12 hours whatever happens. */
export const OPERATOR_SESSION_IDLE_SECONDS = 30 * 60;
export const OPERATOR_SESSION_MAX_SECONDS = 12 * 3600;
/** Not the dashboard's cookie (`khoums_session`), and on the path /admin only. */
export const OPERATOR_SESSION_COOKIE = 'khoums_admin_session';

/** The dashboard's sign-in limits, counted apart (docs/admin.md "Signing in"). */
export const OPERATOR_SIGN_IN_LIMITS: OperatorSignInLimits = {
  perEmailAndAddress: 10,
  perAddress: 50,
  perEmail: 100,
  windowSeconds: 15 * 60,
};

export type SignedInOperator = OperatorSessionRow;

const hashOf = (token: string) => createHash('sha256').update(token).digest();

/**
 * Operators' sessions, in a table of their own behind an opaque random cookie value of which only
 * the SHA-256 is stored: a dashboard session (another table, another cookie) never opens /admin.
 */
@Injectable()
export class OperatorSessions {
  constructor(private readonly repo: OperatorsRepository) {}

  /** A new session; the cookie value, returned once. */
  async start(operatorId: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.repo.purgeExpiredSessions();
    await this.repo.insertSession({
      id: randomUUID(),
      tokenHash: hashOf(token),
      operatorId,
      idleSeconds: OPERATOR_SESSION_IDLE_SECONDS,
    });
    return token;
  }

  /** The live session of a cookie value, or null. */
  async find(token: unknown): Promise<SignedInOperator | null> {
    if (typeof token !== 'string' || token.length < 32 || token.length > 100) return null;
    return (
      (await this.repo.session(hashOf(token), OPERATOR_SESSION_IDLE_SECONDS, OPERATOR_SESSION_MAX_SECONDS)) ??
      null
    );
  }

  end(sessionId: string): Promise<void> {
    return this.repo.deleteSession(sessionId);
  }

  endOthers(operatorId: string, keep: string): Promise<number> {
    return this.repo.deleteOtherSessions(operatorId, keep);
  }

  /** Reserves an attempt (null: over the limit, answer 429); mark it succeeded when it signed in. */
  reserveAttempt(email: string, ip: string): Promise<string | null> {
    return this.repo.reserveSignInAttempt(email.trim().toLowerCase(), ip, OPERATOR_SIGN_IN_LIMITS);
  }

  attemptSucceeded(attemptId: string): Promise<void> {
    return this.repo.signInSucceeded(attemptId);
  }
}
