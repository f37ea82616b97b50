import { Injectable } from '@nestjs/common';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { envelope, ListEnvelope, Page } from '../common/pagination';
import { AppConfig } from '../config/config';
import { Db } from '../database/db';
import {
  ConnectedAccount,
  ConnectedAccountsRepository,
  OnboardingLink,
} from './connected-accounts.repository';
import { OrganizationError, organizationError } from './organizations.errors';
import { UsersRepository } from './users.repository';
import { EmailTakenError, OrganizationsService } from './organizations.service';
import { hashPassword } from './secrets';
import type { Tenant } from './tenant';
import { normalizeEmail } from './users';

/** An onboarding link works once, for an hour (docs/platforms.md). */
export const ONBOARDING_LINK_TTL_MS = 3600_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AccountJson {
  id: string;
  name: string;
  email: string;
  /** The account's verification for Production, as GET /organization shows it. */
  verification: {
    status: ConnectedAccount['verification'];
    submittedAt: string | null;
    decidedAt: string | null;
    reason: string | null;
  };
  createdAt: string;
}

export function toAccountJson(a: ConnectedAccount): AccountJson {
  return {
    id: a.id,
    name: a.name,
    email: a.email,
    verification: {
      status: a.verification,
      submittedAt: a.submittedAt?.toISOString() ?? null,
      decidedAt: a.decidedAt?.toISOString() ?? null,
      reason: a.reason,
    },
    createdAt: a.createdAt.toISOString(),
  };
}

function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/**
 * Platforms and the merchant organizations they connect (docs/platforms.md): creating and listing
 * them, acting for one (`Khoums-Account`), and the onboarding link through which its merchant
 * takes it over.
 */
@Injectable()
export class ConnectedAccountsService {
  constructor(
    private readonly db: Db,
    private readonly repo: ConnectedAccountsRepository,
    private readonly organizations: OrganizationsService,
    private readonly users: UsersRepository,
    private readonly config: AppConfig,
  ) {}

  /**
   * The tenant a request of `tenant`'s key with `Khoums-Account: accountId` runs as: the
   * account's environment of the same kind, with the same key (kind and id, so rate limits count
   * on the platform's key). 403 when the account is not connected to the key's organization, that
   * organization is not a platform, or the id names no organization.
   */
  async actFor(tenant: Tenant, accountId: string): Promise<Tenant> {
    const found = UUID.test(accountId)
      ? await this.repo.actingEnvironment(tenant.organizationId, accountId.toLowerCase(), tenant.environment)
      : undefined;
    if (!found) throw organizationError(OrganizationError.AccountNotConnected);
    return {
      organizationId: accountId.toLowerCase(),
      environmentId: found.environmentId,
      environment: tenant.environment,
      keyKind: tenant.keyKind,
      keyId: tenant.keyId,
      verification: found.verification,
      platform: { organizationId: tenant.organizationId, environmentId: tenant.environmentId },
    };
  }

  /**
   * A new merchant organization connected to the key's (both environments, `unverified`, no keys),
   * whose owner is `email`, with no usable password until they follow an onboarding link.
   */
  async create(tenant: Tenant, input: { name: string; email: string }): Promise<AccountJson> {
    await this.assertPlatform(tenant);
    const email = normalizeEmail(input.email);
    if (!email) throw organizationError(OrganizationError.InvalidEmail);
    try {
      const id = await this.organizations.createConnected(tenant.organizationId, {
        name: input.name.trim(),
        email,
      });
      return toAccountJson((await this.repo.account(tenant.organizationId, id))!);
    } catch (err) {
      if (err instanceof EmailTakenError) throw organizationError(OrganizationError.AccountEmailTaken, email);
      throw err;
    }
  }

  async get(tenant: Tenant, accountId: string): Promise<AccountJson> {
    await this.assertPlatform(tenant);
    const account = await this.repo.account(tenant.organizationId, accountId);
    if (!account) throw organizationError(OrganizationError.AccountNotConnected);
    return toAccountJson(account);
  }

  async list(tenant: Tenant, page: Page): Promise<ListEnvelope<AccountJson>> {
    await this.assertPlatform(tenant);
    const { rows, total } = await this.repo.accounts(tenant.organizationId, page);
    return envelope(rows.map(toAccountJson), total, page);
  }

  /** The platform's accounts for its dashboard (newest first, at most `limit`). */
  async accountsOf(platformId: string, limit: number): Promise<ConnectedAccount[]> {
    return (await this.repo.accounts(platformId, { page: 1, limit, offset: 0 })).rows;
  }

  /**
   * The account, when it is connected to `platformId` and that organization is a platform now
   * (the platform's dashboard); undefined otherwise.
   */
  async connectedAccount(platformId: string, accountId: string): Promise<ConnectedAccount | undefined> {
    if (!(await this.repo.isPlatform(platformId))) return undefined;
    return this.repo.account(platformId, accountId);
  }

  /** A single-use link, valid one hour, to `/dashboard/onboarding/<token>`: only its hash is stored. */
  async createOnboardingLink(
    tenant: Tenant,
    accountId: string,
    urls: { returnUrl: string; refreshUrl: string },
  ): Promise<{ url: string; expiresAt: string }> {
    await this.assertPlatform(tenant);
    if (!(await this.repo.account(tenant.organizationId, accountId)))
      throw organizationError(OrganizationError.AccountNotConnected);
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + ONBOARDING_LINK_TTL_MS);
    await this.repo.insertOnboardingLink({
      id: randomUUID(),
      organizationId: accountId,
      tokenHash: hashToken(token),
      returnUrl: urls.returnUrl,
      refreshUrl: urls.refreshUrl,
      expiresAt,
    });
    return {
      url: `${this.config.publicUrl}/dashboard/onboarding/${token}`,
      expiresAt: expiresAt.toISOString(),
    };
  }

  /** The link of a token, used or not; undefined for a token no link has. */
  onboardingLink(token: string): Promise<OnboardingLink | undefined> {
    return this.repo.onboardingLink(hashToken(token));
  }

  /**
   * Uses the link: its organization's first owner gets `password`. One transaction, under that
   * owner's row lock; nothing changes when the link was used or expired meanwhile (`spent`), or
   * when a user of the account has a password already (`set-up`: another link was used first, and
   * a link never replaces a password, docs/platforms.md "Hand the account over"). The owner had no
   * password, so no session of theirs can exist to end.
   */
  async completeOnboarding(
    link: OnboardingLink,
    password: string,
  ): Promise<{ userId: string } | 'spent' | 'set-up'> {
    const passwordHash = await hashPassword(password);
    return this.db.transaction(async () => {
      const owner = await this.users.lockFirstOwner(link.organizationId);
      // Read after the lock, each a statement of its own: they see what another link did meanwhile.
      if (!owner || (await this.repo.onboardingLinkSpent(link.id))) return 'spent';
      if (await this.users.anyPassword(link.organizationId)) return 'set-up';
      if (!(await this.repo.useOnboardingLink(link.id))) return 'spent';
      await this.users.setPasswordHash(owner.id, passwordHash);
      return { userId: owner.id };
    });
  }

  /** Where the merchant of a used onboarding link goes once they applied to go live. */
  async onboardingReturn(organizationId: string, linkId: string): Promise<string | undefined> {
    if (!UUID.test(linkId)) return undefined;
    return (await this.repo.onboardingReturn(organizationId, linkId))?.returnUrl;
  }

  /** Whether the organization is a platform now. */
  isPlatform(organizationId: string): Promise<boolean> {
    return this.repo.isPlatform(organizationId);
  }

  /** 403 unless the key's organization is a platform (acting for an account, it is the account's). */
  async assertPlatform(tenant: Pick<Tenant, 'organizationId'>): Promise<void> {
    if (!(await this.repo.isPlatform(tenant.organizationId)))
      throw organizationError(OrganizationError.OnlyPlatforms);
  }
}
