import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Db } from '../database/db';
import { sql } from '../database/sql';

export interface OperatorRow {
  id: string;
  email: string;
  passwordHash: string;
  mustChangePassword: boolean;
  totpKeyId: string;
  totpSealed: Buffer;
  lastTotpStep: number | null;
}

/** Who a live /admin session belongs to. */
export interface OperatorSessionRow {
  sessionId: string;
  operatorId: string;
  email: string;
  mustChangePassword: boolean;
}

/** How many failed sign-in attempts are allowed within the window. */
export interface OperatorSignInLimits {
  perEmailAndAddress: number;
  perAddress: number;
  perEmail: number;
  windowSeconds: number;
}

/** The operators' accounts, their /admin sessions and their sign-in attempts. */
@Injectable()
export class OperatorsRepository {
  constructor(private readonly db: Db) {}

  /** False when the email is taken. */
  async insert(operator: {
    id: string;
    email: string;
    passwordHash: string;
    totpKeyId: string;
    totpSealed: Buffer;
  }): Promise<boolean> {
    return (
      (await this.db.exec(sql`
        INSERT INTO operators (id, email, password_hash, totp_key_id, totp_sealed)
        VALUES (${operator.id}, ${operator.email}, ${operator.passwordHash}, ${operator.totpKeyId}, ${operator.totpSealed})
        ON CONFLICT (email) DO NOTHING`)) > 0
    );
  }

  byEmail(email: string): Promise<OperatorRow | undefined> {
    return this.db.one<OperatorRow>(sql`
      SELECT id, email, password_hash AS "passwordHash", must_change_password AS "mustChangePassword",
             totp_key_id AS "totpKeyId", totp_sealed AS "totpSealed", last_totp_step::float8 AS "lastTotpStep"
        FROM operators WHERE email = ${email}`);
  }

  /** Records `step` as used, unless it (or a later one) already was: false then (a replayed code). */
  async useTotpStep(id: string, step: number): Promise<boolean> {
    return (
      (await this.db.exec(sql`
        UPDATE operators SET last_totp_step = ${step}
         WHERE id = ${id} AND (last_totp_step IS NULL OR last_totp_step < ${step})`)) > 0
    );
  }

  /** Every operator, by email (the audit log's filter). */
  list(): Promise<{ id: string; email: string }[]> {
    return this.db.many(sql`SELECT id, email FROM operators ORDER BY email`);
  }

  passwordHashOf(id: string): Promise<{ passwordHash: string } | undefined> {
    return this.db.one(sql`SELECT password_hash AS "passwordHash" FROM operators WHERE id = ${id}`);
  }

  /** A new password, chosen by the operator: the one-time password is over. */
  async setPassword(id: string, passwordHash: string): Promise<void> {
    await this.db.exec(sql`
      UPDATE operators SET password_hash = ${passwordHash}, must_change_password = false WHERE id = ${id}`);
  }

  async insertSession(s: {
    id: string;
    tokenHash: Buffer;
    operatorId: string;
    idleSeconds: number;
  }): Promise<void> {
    await this.db.exec(sql`
      INSERT INTO operator_sessions (id, token_hash, operator_id, expires_at)
      VALUES (${s.id}, ${s.tokenHash}, ${s.operatorId}, now() + make_interval(secs => ${s.idleSeconds}))`);
  }

  /**
   * The live session of a cookie with its operator, in one statement that also slides its expiry
   * (every request: the idle time is short), never past its absolute lifetime.
   */
  session(
    tokenHash: Buffer,
    idleSeconds: number,
    maxSeconds: number,
  ): Promise<OperatorSessionRow | undefined> {
    return this.db.one<OperatorSessionRow>(sql`
      WITH s AS (
        SELECT s.id, s.operator_id, o.email, o.must_change_password
          FROM operator_sessions s JOIN operators o ON o.id = s.operator_id
         WHERE s.token_hash = ${tokenHash} AND s.expires_at > now()
      ), touched AS (
        UPDATE operator_sessions d
           SET last_seen_at = now(),
               expires_at = LEAST(d.created_at + make_interval(secs => ${maxSeconds}), now() + make_interval(secs => ${idleSeconds}))
          FROM s WHERE d.id = s.id
      )
      SELECT id AS "sessionId", operator_id AS "operatorId", email, must_change_password AS "mustChangePassword"
        FROM s`);
  }

  async deleteSession(id: string): Promise<void> {
    await this.db.exec(sql`DELETE FROM operator_sessions WHERE id = ${id}`);
  }

  /** Ends every session of the operator but `keep`. */
  async deleteOtherSessions(operatorId: string, keep: string): Promise<number> {
    return this.db.exec(
      sql`DELETE FROM operator_sessions WHERE operator_id = ${operatorId} AND id <> ${keep}`,
    );
  }

  /** Removes up to 500 sessions past their expiry (called on sign-in: no job needed). */
  async purgeExpiredSessions(): Promise<void> {
    await this.db.exec(sql`
      DELETE FROM operator_sessions WHERE id IN (
        SELECT id FROM operator_sessions WHERE expires_at < now() ORDER BY expires_at LIMIT 500)`);
  }

  /**
   * Records a sign-in attempt unless a limit is reached by the failed (or in-flight) attempts of
   * the window: this email from this address, this address, this email. Its id, or null. Advisory
   * locks per email and per address make the count and the insert one step across instances.
   */
  reserveSignInAttempt(email: string, ip: string, limits: OperatorSignInLimits): Promise<string | null> {
    return this.db.transaction(async () => {
      await this.db.exec(
        sql`SELECT pg_advisory_xact_lock(7311, hashtext(${email})), pg_advisory_xact_lock(7312, hashtext(${ip}))`,
      );
      const counts = await this.db.one<{ both: number; byEmail: number; byIp: number }>(sql`
        SELECT count(*) FILTER (WHERE email = ${email} AND ip = ${ip})::int AS both,
               count(*) FILTER (WHERE email = ${email})::int AS "byEmail",
               count(*) FILTER (WHERE ip = ${ip})::int AS "byIp"
          FROM operator_sign_in_attempts
         WHERE NOT succeeded AND created_at > now() - make_interval(secs => ${limits.windowSeconds})
           AND (email = ${email} OR ip = ${ip})`);
      if (
        counts!.both >= limits.perEmailAndAddress ||
        counts!.byIp >= limits.perAddress ||
        counts!.byEmail >= limits.perEmail
      )
        return null;
      const id = randomUUID();
      await this.db.exec(
        sql`INSERT INTO operator_sign_in_attempts (id, email, ip) VALUES (${id}, ${email}, ${ip})`,
      );
      await this.db.exec(sql`
        DELETE FROM operator_sign_in_attempts WHERE id IN (
          SELECT id FROM operator_sign_in_attempts WHERE created_at < now() - interval '1 day'
           ORDER BY created_at LIMIT 100)`);
      return id;
    });
  }

  /** A successful sign-in does not count against the limit. */
  async signInSucceeded(attemptId: string): Promise<void> {
    await this.db.exec(sql`UPDATE operator_sign_in_attempts SET succeeded = true WHERE id = ${attemptId}`);
  }
}
