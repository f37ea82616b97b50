import { Injectable } from '@nestjs/common';
import type { Page } from '../common/pagination';
import { Db } from '../database/db';
import { pageRows } from '../database/paging';
import { raw, sql } from '../database/sql';
import type { VerificationStatus } from './verification';
import type { EnvironmentKind } from './tenant';

/** A connected organization as its platform sees it (docs/platforms.md). */
export interface ConnectedAccount {
  id: string;
  name: string;
  /** The email of its first owner: the address the platform connected it with. */
  email: string;
  verification: VerificationStatus;
  submittedAt: Date | null;
  decidedAt: Date | null;
  reason: string | null;
  createdAt: Date;
}

/** An onboarding link, as its page needs it. */
export interface OnboardingLink {
  id: string;
  organizationId: string;
  email: string;
  organizationName: string;
  /** The platform that connected the organization (null if it was since deleted). */
  platformName: string | null;
  returnUrl: string;
  refreshUrl: string;
  expiresAt: Date;
  /** Used already, or past its expiry: the page sends the merchant to `refreshUrl`. */
  spent: boolean;
  /** A user of the account has a password: the link changes nothing (the account is set up). */
  passwordSet: boolean;
}

const ACCOUNT_COLUMNS = raw(`o.id, o.name, o.verification_status AS verification,
  o.verification_submitted_at AS "submittedAt", o.verification_decided_at AS "decidedAt",
  o.verification_reason AS reason, o.created_at AS "createdAt",
  (SELECT u.email FROM users u WHERE u.organization_id = o.id AND u.role = 'owner'
    ORDER BY u.created_at, u.id LIMIT 1) AS email`);

/**
 * The organizations a platform connected, acting for them, and their onboarding links: the
 * platform side of `organizations` (split from OrganizationsRepository along that seam).
 */
@Injectable()
export class ConnectedAccountsRepository {
  constructor(private readonly db: Db) {}

  /**
   * The environment of kind `kind` of `accountId` when that organization is connected to
   * `platformId` and `platformId` is (still) a platform, with the account's verification: what a
   * request with `Khoums-Account` runs as. One indexed statement.
   */
  actingEnvironment(
    platformId: string,
    accountId: string,
    kind: EnvironmentKind,
  ): Promise<{ environmentId: string; verification: VerificationStatus } | undefined> {
    return this.db.one(sql`
      SELECT e.id AS "environmentId", o.verification_status AS verification
        FROM organizations o
        JOIN organizations p ON p.id = o.platform_id
        JOIN environments e ON e.organization_id = o.id AND e.kind = ${kind}
       WHERE o.id = ${accountId} AND o.platform_id = ${platformId} AND p.platform`);
  }

  /** Whether the organization is a platform now. */
  async isPlatform(organizationId: string): Promise<boolean> {
    const row = await this.db.one<{ platform: boolean }>(
      sql`SELECT platform FROM organizations WHERE id = ${organizationId}`,
    );
    return row?.platform === true;
  }

  /** Marks a new organization as connected to `platformId` (in the transaction that creates it). */
  async connect(organizationId: string, platformId: string): Promise<void> {
    await this.db.exec(
      sql`UPDATE organizations SET platform_id = ${platformId} WHERE id = ${organizationId}`,
    );
  }

  /** A connected account of the platform. */
  account(platformId: string, accountId: string): Promise<ConnectedAccount | undefined> {
    return this.db.one<ConnectedAccount>(
      sql`SELECT ${ACCOUNT_COLUMNS} FROM organizations o WHERE o.id = ${accountId} AND o.platform_id = ${platformId}`,
    );
  }

  /** The platform's connected accounts, newest first. */
  accounts(platformId: string, page: Page): Promise<{ rows: ConnectedAccount[]; total: number }> {
    return pageRows<ConnectedAccount>(
      this.db,
      {
        select: ACCOUNT_COLUMNS,
        from: sql`FROM organizations o WHERE o.platform_id = ${platformId}`,
        orderBy: sql`o.created_at DESC, o.id DESC`,
      },
      page,
    );
  }

  async insertOnboardingLink(link: {
    id: string;
    organizationId: string;
    tokenHash: Buffer;
    returnUrl: string;
    refreshUrl: string;
    expiresAt: Date;
  }): Promise<void> {
    await this.db.exec(sql`
      INSERT INTO onboarding_links (id, organization_id, token_hash, return_url, refresh_url, expires_at)
      VALUES (${link.id}, ${link.organizationId}, ${link.tokenHash}, ${link.returnUrl}, ${link.refreshUrl}, ${link.expiresAt})`);
  }

  /** The link of a token, used or not, with its organization's name and owner. */
  onboardingLink(tokenHash: Buffer): Promise<OnboardingLink | undefined> {
    return this.db.one<OnboardingLink>(sql`
      SELECT l.id, l.organization_id AS "organizationId", o.name AS "organizationName",
             (SELECT p.name FROM organizations p WHERE p.id = o.platform_id) AS "platformName",
             (SELECT u.email FROM users u WHERE u.organization_id = o.id AND u.role = 'owner'
               ORDER BY u.created_at, u.id LIMIT 1) AS email,
             l.return_url AS "returnUrl", l.refresh_url AS "refreshUrl", l.expires_at AS "expiresAt",
             (l.used_at IS NOT NULL OR l.expires_at <= now()) AS spent,
             EXISTS (SELECT 1 FROM users u WHERE u.organization_id = o.id AND u.password_hash IS NOT NULL) AS "passwordSet"
        FROM onboarding_links l JOIN organizations o ON o.id = l.organization_id
       WHERE l.token_hash = ${tokenHash}`);
  }

  /** Whether the link was used or has expired. */
  async onboardingLinkSpent(id: string): Promise<boolean> {
    const row = await this.db.one<{ spent: boolean }>(sql`
      SELECT (used_at IS NOT NULL OR expires_at <= now()) AS spent FROM onboarding_links WHERE id = ${id}`);
    return row?.spent ?? true;
  }

  /** Uses the link up; false when it was used or expired meanwhile. The row lock makes it single use. */
  async useOnboardingLink(id: string): Promise<boolean> {
    const used = await this.db.exec(sql`
      UPDATE onboarding_links SET used_at = now()
       WHERE id = ${id} AND used_at IS NULL AND expires_at > now()`);
    return used > 0;
  }

  /** The return address of a used link of the organization (where the go-live form sends the merchant). */
  onboardingReturn(organizationId: string, id: string): Promise<{ returnUrl: string } | undefined> {
    return this.db.one(sql`
      SELECT return_url AS "returnUrl" FROM onboarding_links
       WHERE id = ${id} AND organization_id = ${organizationId} AND used_at IS NOT NULL`);
  }
}
