import { Injectable } from '@nestjs/common';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { EnvironmentKind } from '../organizations/tenant';
import { DashboardRepository, SessionRow, SignInLimits } from './dashboard.repository';

/** A session ends after a day without activity, and after 14 days whatever happens. */
export const SESSION_IDLE_SECONDS = 24 * 3600;
export const SESSION_MAX_SECONDS = 14 * 24 * 3600;
export const SESSION_COOKIE = 'khoums_session';

/**
 * Failed sign-in attempts (and checks of a password: the current one, before changing it) in 15
 * minutes: 10 per email from one address, 50 from one address whatever the email, 100 per email
 * from all addresses (so no address locks an owner out, and no address tries many accounts).
 */
export const SIGN_IN_LIMITS: SignInLimits = {
  perEmailAndAddress: 10,
  perAddress: 50,
  perEmail: 100,
  windowSeconds: 15 * 60,
};

export type SignedIn = SessionRow;

const hashOf = (token: string) => createHash('sha256').update(token).digest();

/**
 * Dashboard sessions, kept in PostgreSQL (so any instance serves any request) behind an opaque
 * random cookie value of which only the SHA-256 is stored.
 */
@Injectable()
export class DashboardSessions {
  constructor(private readonly repo: DashboardRepository) {}

  /** A new session for the user; the cookie value, returned once. */
  async start(userId: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.repo.purgeExpiredSessions();
    await this.repo.insertSession({
      id: randomUUID(),
      tokenHash: hashOf(token),
      userId,
      environment: 'sandbox',
      idleSeconds: SESSION_IDLE_SECONDS,
    });
    return token;
  }

  /** The live session of a cookie value, or null. */
  async find(token: unknown): Promise<SignedIn | null> {
    if (typeof token !== 'string' || token.length < 32 || token.length > 100) return null;
    return (await this.repo.session(hashOf(token), SESSION_IDLE_SECONDS, SESSION_MAX_SECONDS)) ?? null;
  }

  end(sessionId: string): Promise<void> {
    return this.repo.deleteSession(sessionId);
  }

  endOthers(userId: string, keep: string): Promise<number> {
    return this.repo.deleteOtherSessions(userId, keep);
  }

  switchEnvironment(sessionId: string, environment: EnvironmentKind): Promise<void> {
    return this.repo.setSessionEnvironment(sessionId, environment);
  }

  /** Reserves an attempt (null: over the limit, answer 429); mark it succeeded when the password was right. */
  reserveAttempt(email: string, ip: string): Promise<string | null> {
    return this.repo.reserveSignInAttempt(email.trim().toLowerCase(), ip, SIGN_IN_LIMITS);
  }

  attemptSucceeded(attemptId: string): Promise<void> {
    return this.repo.signInSucceeded(attemptId);
  }
}
