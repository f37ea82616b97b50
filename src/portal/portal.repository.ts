import { Injectable } from '@nestjs/common';
import type { EnvironmentKind } from '../organizations/tenant';
import { Db } from '../database/db';
import { raw, sql } from '../database/sql';
import { environmentKindOf } from '../organizations/organizations.fragments';

/** A signed-in customer of one environment (docs/billing.md "Customer portal"). */
export interface PortalSession {
  id: string;
  organizationId: string;
  environmentId: string;
  environment: EnvironmentKind;
  /** The customers it sees: the link's one, or every customer of the organization with the phone. */
  customerIds: string[];
  origin: 'link' | 'phone';
  returnUrl: string | null;
  expiresAt: Date;
}

/** A code asked for by phone, as the sign-in checks it. */
export interface PortalCode {
  id: string;
  organizationId: string;
  environmentId: string;
  phone: string;
  codeHash: string;
  tries: number;
}

/** The portal's tables: portal_sessions and portal_codes. */
@Injectable()
export class PortalRepository {
  constructor(private readonly db: Db) {}

  async insertSession(
    s: Omit<PortalSession, 'environment'> & { tokenHash: string; createdAt: Date },
  ): Promise<void> {
    await this.db.exec(sql`
      INSERT INTO portal_sessions (id, token_hash, organization_id, environment_id, customer_ids, origin, return_url,
                                   expires_at, created_at)
      VALUES (${s.id}, ${s.tokenHash}, ${s.organizationId}, ${s.environmentId}, ${s.customerIds}::uuid[], ${s.origin},
              ${s.returnUrl}, ${s.expiresAt}, ${s.createdAt})`);
  }

  /** Deletes up to `limit` sessions that ended before `before` (portal_sessions_expiry_idx). */
  async pruneSessions(before: Date, limit: number): Promise<number> {
    return this.db.exec(sql`
      DELETE FROM portal_sessions WHERE id IN (
        SELECT id FROM portal_sessions WHERE expires_at < ${before} ORDER BY expires_at LIMIT ${limit})`);
  }

  /** The session of a token, while it lasts. */
  liveSession(tokenHash: string, now: Date): Promise<PortalSession | undefined> {
    return this.db.one<PortalSession>(sql`
      SELECT s.id, s.organization_id AS "organizationId", s.environment_id AS "environmentId", ${environmentKindOf(raw('s.environment_id'))} AS environment,
             s.customer_ids AS "customerIds", s.origin, s.return_url AS "returnUrl", s.expires_at AS "expiresAt"
        FROM portal_sessions s
       WHERE s.token_hash = ${tokenHash} AND s.expires_at > ${now}`);
  }

  /** Signs out: the session's token no longer signs anyone in. */
  async endSession(id: string): Promise<void> {
    await this.db.exec(sql`DELETE FROM portal_sessions WHERE id = ${id}`);
  }

  /**
   * Serialises the code requests of one phone in one environment until the transaction ends, so
   * that the count of the last hour and the new code are one decision on any number of instances.
   */
  async lockPhone(environmentId: string, phone: string): Promise<void> {
    await this.db.one(sql`SELECT pg_advisory_xact_lock(7320, hashtext(${environmentId} || ':' || ${phone}))`);
  }

  async codesSince(environmentId: string, phone: string, since: Date): Promise<number> {
    const row = await this.db.one<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM portal_codes
       WHERE environment_id = ${environmentId} AND phone = ${phone} AND created_at > ${since}`);
    return row!.n;
  }

  /** Deletes the phone's codes made before `before`: they no longer count nor sign in. */
  async pruneCodes(environmentId: string, phone: string, before: Date): Promise<void> {
    await this.db.exec(sql`
      DELETE FROM portal_codes WHERE environment_id = ${environmentId} AND phone = ${phone} AND created_at < ${before}`);
  }

  async insertCode(c: PortalCode & { expiresAt: Date; createdAt: Date }): Promise<void> {
    await this.db.exec(sql`
      INSERT INTO portal_codes (id, organization_id, environment_id, phone, code_hash, expires_at, created_at)
      VALUES (${c.id}, ${c.organizationId}, ${c.environmentId}, ${c.phone}, ${c.codeHash}, ${c.expiresAt}, ${c.createdAt})`);
  }

  /**
   * Counts one try of a code still usable (unused, unexpired, fewer than `maxTries` tries) and
   * returns it; undefined when it is not (any more). One statement, so concurrent tries are counted.
   */
  tryCode(organizationId: string, id: string, maxTries: number, now: Date): Promise<PortalCode | undefined> {
    return this.db.one<PortalCode>(sql`
      UPDATE portal_codes SET tries = tries + 1
       WHERE id = ${id} AND organization_id = ${organizationId} AND used_at IS NULL AND expires_at > ${now}
         AND tries < ${maxTries}
      RETURNING id, organization_id AS "organizationId", environment_id AS "environmentId", phone,
                code_hash AS "codeHash", tries`);
  }

  /** Marks a code used; false when another request used it first. */
  async useCode(id: string, now: Date): Promise<boolean> {
    return (
      (await this.db.exec(
        sql`UPDATE portal_codes SET used_at = ${now} WHERE id = ${id} AND used_at IS NULL`,
      )) > 0
    );
  }
}
