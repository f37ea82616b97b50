import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Db } from '../database/db';
import { sql } from '../database/sql';
import { USERS_WITH_ENVIRONMENTS } from '../organizations/organizations.fragments';
import type { VerificationStatus } from '../organizations/verification';
import type { EnvironmentKind } from '../organizations/tenant';
import type { Role } from '../organizations/users';

/** Who a live session belongs to, and the environment it shows. */
export interface SessionRow {
  sessionId: string;
  userId: string;
  email: string;
  role: Role;
  organizationId: string;
  organizationName: string;
  /** Where the organization stands for Production (shown in the header). */
  verificationStatus: VerificationStatus;
  environment: EnvironmentKind;
  environmentId: string;
}

/** How many failed sign-in attempts are allowed within the window. */
export interface SignInLimits {
  perEmailAndAddress: number;
  perAddress: number;
  perEmail: number;
  windowSeconds: number;
}

/** The dashboard's own tables: sessions and sign-in attempts. */
@Injectable()
export class DashboardRepository {
  constructor(private readonly db: Db) {}

  async insertSession(s: {
    id: string;
    tokenHash: Buffer;
    userId: string;
    environment: EnvironmentKind;
    idleSeconds: number;
  }): Promise<void> {
    await this.db.exec(sql`
      INSERT INTO dashboard_sessions (id, token_hash, user_id, environment, expires_at)
      VALUES (${s.id}, ${s.tokenHash}, ${s.userId}, ${s.environment}, now() + make_interval(secs => ${s.idleSeconds}))`);
  }

  /**
   * The live session of a cookie, with its user, organization and environment, in one statement
   * that also slides its expiry (at most once a minute, never past its absolute lifetime).
   */
  session(tokenHash: Buffer, idleSeconds: number, maxSeconds: number): Promise<SessionRow | undefined> {
    return this.db.one<SessionRow>(sql`
      WITH s AS (
        SELECT s.id, s.last_seen_at, s.environment, u.id AS user_id, u.email, u.role, u.organization_id,
               o.name AS organization_name, o.verification_status, e.id AS environment_id
          FROM dashboard_sessions s
          JOIN (${USERS_WITH_ENVIRONMENTS}) ON u.id = s.user_id AND e.kind = s.environment
         WHERE s.token_hash = ${tokenHash} AND s.expires_at > now()
      ), touched AS (
        UPDATE dashboard_sessions d
           SET last_seen_at = now(),
               expires_at = LEAST(d.created_at + make_interval(secs => ${maxSeconds}), now() + make_interval(secs => ${idleSeconds}))
          FROM s WHERE d.id = s.id AND s.last_seen_at < now() - interval '1 minute'
      )
      SELECT id AS "sessionId", user_id AS "userId", email, role, organization_id AS "organizationId",
             organization_name AS "organizationName", verification_status AS "verificationStatus", environment,
             environment_id AS "environmentId"
        FROM s`);
  }

  async deleteSession(id: string): Promise<void> {
    await this.db.exec(sql`DELETE FROM dashboard_sessions WHERE id = ${id}`);
  }

  /** Ends every session of the user but `keep`. */
  async deleteOtherSessions(userId: string, keep: string): Promise<number> {
    return this.db.exec(sql`DELETE FROM dashboard_sessions WHERE user_id = ${userId} AND id <> ${keep}`);
  }

  async setSessionEnvironment(id: string, environment: EnvironmentKind): Promise<void> {
    await this.db.exec(sql`UPDATE dashboard_sessions SET environment = ${environment} WHERE id = ${id}`);
  }

  /** Removes up to 500 sessions past their expiry (called on sign-in: no job needed). */
  async purgeExpiredSessions(): Promise<void> {
    await this.db.exec(sql`
      DELETE FROM dashboard_sessions WHERE id IN (
        SELECT id FROM dashboard_sessions WHERE expires_at < now() ORDER BY expires_at LIMIT 500)`);
  }

  /**
   * Records a sign-in attempt unless one of the limits is reached by the failed (or in-flight)
   * attempts within the window: for this email from this address, from this address whatever the
   * email, or for this email from all addresses. Its id, or null. Per-email and per-address advisory
   * locks make the count and the insert one step, so concurrent attempts (on any instance) never get
   * past a limit together.
   */
  reserveSignInAttempt(email: string, ip: string, limits: SignInLimits): Promise<string | null> {
    return this.db.transaction(async () => {
      await this.db.exec(
        sql`SELECT pg_advisory_xact_lock(7301, hashtext(${email})), pg_advisory_xact_lock(7302, hashtext(${ip}))`,
      );
      const counts = await this.db.one<{ both: number; byEmail: number; byIp: number }>(sql`
        SELECT count(*) FILTER (WHERE email = ${email} AND ip = ${ip})::int AS both,
               count(*) FILTER (WHERE email = ${email})::int AS "byEmail",
               count(*) FILTER (WHERE ip = ${ip})::int AS "byIp"
          FROM login_attempts
         WHERE NOT succeeded AND created_at > now() - make_interval(secs => ${limits.windowSeconds})
           AND (email = ${email} OR ip = ${ip})`);
      if (
        counts!.both >= limits.perEmailAndAddress ||
        counts!.byIp >= limits.perAddress ||
        counts!.byEmail >= limits.perEmail
      )
        return null;
      const id = randomUUID();
      await this.db.exec(sql`INSERT INTO login_attempts (id, email, ip) VALUES (${id}, ${email}, ${ip})`);
      await this.db.exec(sql`
        DELETE FROM login_attempts WHERE id IN (
          SELECT id FROM login_attempts WHERE created_at < now() - interval '1 day' ORDER BY created_at LIMIT 100)`);
      return id;
    });
  }

  /** A successful sign-in does not count against the limit. */
  async signInSucceeded(attemptId: string): Promise<void> {
    await this.db.exec(sql`UPDATE login_attempts SET succeeded = true WHERE id = ${attemptId}`);
  }
}
