import { Injectable } from '@nestjs/common';
import { Db } from '../database/db';
import { and, raw, Sql, sql } from '../database/sql';
import type { Account, PayoutAccountStatus } from './account';
import type { VerificationStatus } from './verification';
import type { EnvironmentKind, KeyKind } from './tenant';

export interface KeyRow {
  id: string;
  kind: KeyKind;
  key_hash: Buffer;
  environment_id: string;
  organization_id: string;
  environment: EnvironmentKind;
  verification: VerificationStatus;
  /** Milliseconds until a rolled key expires (measured by the database's clock); null when it does not. */
  ms_left: number | null;
}

/** A key as the dashboard lists it: never its hash. */
export interface ApiKeyInfo {
  id: string;
  kind: KeyKind;
  display: string;
  name: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}

const KEY_INFO = raw(`id, kind, display, name, created_at AS "createdAt", last_used_at AS "lastUsedAt",
  expires_at AS "expiresAt"`);
/** Organizations, their environments and API keys (dashboard users: `UsersRepository`). */
@Injectable()
export class OrganizationsRepository {
  constructor(private readonly db: Db) {}

  /**
   * The live key with this hash, its environment and its organization's verification: the one
   * statement of every authenticated request. A rolled key is live until its expires_at.
   */
  liveKeyByHash(hash: Buffer): Promise<KeyRow | undefined> {
    return this.db.one<KeyRow>(sql`
      SELECT k.id, k.kind, k.key_hash, k.environment_id, k.organization_id, e.kind AS environment,
             o.verification_status AS verification,
             (extract(epoch FROM k.expires_at - now()) * 1000)::float8 AS ms_left
        FROM api_keys k JOIN environments e ON e.id = k.environment_id
        JOIN organizations o ON o.id = k.organization_id
       WHERE k.key_hash = ${hash} AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())`);
  }

  /** The environment's live keys (rolled ones until they expire), newest first. */
  liveKeys(organizationId: string, environmentId: string): Promise<ApiKeyInfo[]> {
    return this.db.many<ApiKeyInfo>(sql`
      SELECT ${KEY_INFO} FROM api_keys
       WHERE organization_id = ${organizationId} AND environment_id = ${environmentId}
         AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
       ORDER BY created_at DESC, id DESC`);
  }

  /** A live key of the environment, locked (a roll reads it, then issues its successor). */
  lockLiveKey(organizationId: string, environmentId: string, id: string): Promise<ApiKeyInfo | undefined> {
    return this.db.one<ApiKeyInfo>(sql`
      SELECT ${KEY_INFO} FROM api_keys
       WHERE id = ${id} AND organization_id = ${organizationId} AND environment_id = ${environmentId}
         AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
       FOR UPDATE`);
  }

  /** The key stops working `delaySeconds` from now (or sooner, if it already expires sooner). */
  async expireKey(id: string, delaySeconds: number): Promise<Date> {
    const row = await this.db.one<{ expiresAt: Date }>(sql`
      UPDATE api_keys SET expires_at = LEAST(expires_at, now() + make_interval(secs => ${delaySeconds}))
       WHERE id = ${id} RETURNING expires_at AS "expiresAt"`);
    return row!.expiresAt;
  }

  async insertKey(key: {
    id: string;
    organizationId: string;
    environmentId: string;
    kind: KeyKind;
    hash: Buffer;
    display: string;
    name: string | null;
  }): Promise<void> {
    await this.db.exec(sql`
      INSERT INTO api_keys (id, organization_id, environment_id, kind, key_hash, display, name)
      VALUES (${key.id}, ${key.organizationId}, ${key.environmentId}, ${key.kind}, ${key.hash}, ${key.display}, ${key.name})`);
  }

  /** Revokes a key of the organization (of one of its environments, when given). */
  async revokeKey(organizationId: string, keyId: string, environmentId?: string): Promise<boolean> {
    const changed = await this.db.exec(sql`
      UPDATE api_keys SET revoked_at = now()
       WHERE id = ${keyId} AND organization_id = ${organizationId} AND revoked_at IS NULL
         AND environment_id = COALESCE(${environmentId ?? null}::uuid, environment_id)`);
    return changed > 0;
  }

  async touchKeys(ids: string[]): Promise<void> {
    await this.db.exec(sql`UPDATE api_keys SET last_used_at = now() WHERE id = ANY(${ids}::uuid[])`);
  }

  async insertOrganization(
    id: string,
    name: string,
    standing: { verification: 'verified' | 'unverified'; platform: boolean },
  ): Promise<void> {
    await this.db.exec(sql`
      INSERT INTO organizations (id, name, verification_status, verification_decided_at, platform)
      VALUES (${id}, ${name}, ${standing.verification},
              ${standing.verification === 'verified' ? new Date() : null}, ${standing.platform})`);
  }

  /** The organization's record with its payout account; locked for a change when `lock`. */
  account(organizationId: string, lock = false): Promise<Account | undefined> {
    return this.db.one<Account>(sql`
      SELECT o.id, o.name, o.verification_status AS "verificationStatus",
             o.verification_submitted_at AS "submittedAt", o.verification_decided_at AS "decidedAt",
             o.verification_reason AS reason, o.platform, o.fee_bps AS "feeBps", o.payouts_held AS "payoutsHeld",
             o.support_phone AS "phoneNumber", o.website,
             CASE WHEN pa.organization_id IS NULL THEN NULL
                  ELSE json_build_object('bank', pa.bank, 'holderName', pa.holder_name, 'iban', pa.iban,
                                         'status', pa.status) END AS "payoutAccount",
             CASE WHEN pc.organization_id IS NULL THEN NULL
                  ELSE json_build_object('bank', pc.bank, 'holderName', pc.holder_name, 'iban', pc.iban,
                                         'status', pc.status, 'requestedAt', pc.requested_at,
                                         'decidedAt', pc.decided_at) END AS "payoutAccountChange"
        FROM organizations o LEFT JOIN payout_accounts pa ON pa.organization_id = o.id
             LEFT JOIN payout_account_changes pc ON pc.organization_id = o.id
       WHERE o.id = ${organizationId} ${raw(lock ? 'FOR UPDATE OF o' : '')}`);
  }

  /** Sets the public support phone ('' for none) and website (null for none) the owner chose. */
  async setPublicContact(organizationId: string, phoneNumber: string, website: string | null): Promise<void> {
    await this.db.exec(
      sql`UPDATE organizations SET support_phone = ${phoneNumber}, website = ${website} WHERE id = ${organizationId}`,
    );
  }

  /**
   * Sets the verification: `submitted` stamps submittedAt; `verified` and `rejected` stamp
   * decidedAt; the reason is kept only with `rejected`.
   */
  async setVerification(
    organizationId: string,
    status: VerificationStatus,
    reason: string | null,
  ): Promise<void> {
    await this.db.exec(sql`
      UPDATE organizations SET verification_status = ${status},
             verification_reason = ${status === 'rejected' ? reason : null},
             verification_submitted_at = CASE WHEN ${status}::text = 'submitted' THEN now() ELSE verification_submitted_at END,
             verification_decided_at = CASE WHEN ${status}::text IN ('verified', 'rejected') THEN now()
                                            WHEN ${status}::text = 'submitted' THEN NULL ELSE verification_decided_at END
       WHERE id = ${organizationId}`);
  }

  /** Sets (or replaces) the organization's payout account. */
  async savePayoutAccount(
    organizationId: string,
    account: { bank: string; holderName: string; iban: string; status: PayoutAccountStatus },
  ): Promise<void> {
    await this.db.exec(sql`
      INSERT INTO payout_accounts (organization_id, bank, holder_name, iban, status)
      VALUES (${organizationId}, ${account.bank}, ${account.holderName}, ${account.iban}, ${account.status})
      ON CONFLICT (organization_id) DO UPDATE
        SET bank = EXCLUDED.bank, holder_name = EXCLUDED.holder_name, iban = EXCLUDED.iban,
            status = EXCLUDED.status, updated_at = now()`);
  }

  /** Records the owner's request to change the payout account, replacing any earlier one. */
  async requestPayoutAccountChange(
    organizationId: string,
    userId: string | null,
    account: { bank: string; holderName: string; iban: string },
  ): Promise<void> {
    await this.db.exec(sql`
      INSERT INTO payout_account_changes (organization_id, bank, holder_name, iban, status, requested_by)
      VALUES (${organizationId}, ${account.bank}, ${account.holderName}, ${account.iban}, 'pending', ${userId})
      ON CONFLICT (organization_id) DO UPDATE
        SET bank = EXCLUDED.bank, holder_name = EXCLUDED.holder_name, iban = EXCLUDED.iban,
            status = 'pending', requested_by = EXCLUDED.requested_by, requested_at = now(), decided_at = NULL`);
  }

  /** The organizations whose payout account change waits for an operator, oldest first. */
  payoutAccountChangeQueue(limit = 200): Promise<{ id: string; name: string; requestedAt: Date }[]> {
    return this.db.many(sql`
      SELECT o.id, o.name, pc.requested_at AS "requestedAt"
        FROM payout_account_changes pc JOIN organizations o ON o.id = pc.organization_id
       WHERE pc.status = 'pending'
       ORDER BY pc.requested_at, o.id LIMIT ${limit}`);
  }

  /** Removes the request (approved: the account now holds it). */
  async deletePayoutAccountChange(organizationId: string): Promise<void> {
    await this.db.exec(sql`DELETE FROM payout_account_changes WHERE organization_id = ${organizationId}`);
  }

  /** Marks the waiting request refused (the owner reads it until the next request). */
  async rejectPayoutAccountChange(organizationId: string): Promise<void> {
    await this.db.exec(sql`
      UPDATE payout_account_changes SET status = 'rejected', decided_at = now()
       WHERE organization_id = ${organizationId} AND status = 'pending'`);
  }

  async setPayoutAccountStatus(organizationId: string, status: PayoutAccountStatus): Promise<void> {
    await this.db.exec(sql`
      UPDATE payout_accounts SET status = ${status}, updated_at = now() WHERE organization_id = ${organizationId}`);
  }

  /** The operator-set terms: platform, fee rate (basis points; null: the default), payouts on hold. */
  async setTerms(
    organizationId: string,
    terms: Partial<{ platform: boolean; feeBps: number | null; payoutsHeld: boolean }>,
  ): Promise<void> {
    await this.db.exec(sql`
      UPDATE organizations
         SET platform = COALESCE(${terms.platform ?? null}::boolean, platform),
             fee_bps = CASE WHEN ${terms.feeBps !== undefined}::boolean THEN ${terms.feeBps ?? null}::int ELSE fee_bps END,
             payouts_held = COALESCE(${terms.payoutsHeld ?? null}::boolean, payouts_held)
       WHERE id = ${organizationId}`);
  }

  /**
   * Organizations for the operators' list: those whose name contains `q` (or whose id is `q`),
   * of one verification status when given, newest first.
   */
  searchOrganizations(
    filter: { q?: string; status?: VerificationStatus },
    limit = 100,
  ): Promise<
    { id: string; name: string; verificationStatus: VerificationStatus; platform: boolean; createdAt: Date }[]
  > {
    const where: Sql[] = [];
    if (filter.q) {
      const pattern = `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where.push(
        /^[0-9a-f-]{36}$/i.test(filter.q)
          ? sql`(name ILIKE ${pattern} OR id = ${filter.q.toLowerCase()}::uuid)`
          : sql`name ILIKE ${pattern}`,
      );
    }
    if (filter.status) where.push(sql`verification_status = ${filter.status}`);
    return this.db.many(sql`
      SELECT id, name, verification_status AS "verificationStatus", platform, created_at AS "createdAt"
        FROM organizations WHERE ${and(where)}
       ORDER BY created_at DESC, id DESC LIMIT ${limit}`);
  }

  /** The organization's environments (an account event is written to each). */
  environments(organizationId: string): Promise<{ id: string; kind: EnvironmentKind }[]> {
    return this.db.many(
      sql`SELECT id, kind FROM environments WHERE organization_id = ${organizationId} ORDER BY kind`,
    );
  }

  organizationName(organizationId: string): Promise<{ name: string } | undefined> {
    return this.db.one(sql`SELECT name FROM organizations WHERE id = ${organizationId}`);
  }

  /** An environment of the organization. */
  environment(organizationId: string, kind: EnvironmentKind): Promise<{ id: string } | undefined> {
    return this.db.one(
      sql`SELECT id FROM environments WHERE organization_id = ${organizationId} AND kind = ${kind}`,
    );
  }

  async insertEnvironment(id: string, organizationId: string, kind: EnvironmentKind): Promise<void> {
    await this.db.exec(
      sql`INSERT INTO environments (id, organization_id, kind) VALUES (${id}, ${organizationId}, ${kind})`,
    );
  }

  async countOrganizations(): Promise<number> {
    const row = await this.db.one<{ count: number }>(sql`SELECT count(*)::int AS count FROM organizations`);
    return row!.count;
  }
}
