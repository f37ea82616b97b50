import { Injectable } from '@nestjs/common';
import { isDeepStrictEqual } from 'node:util';
import { Db } from '../database/db';
import { Account, OrganizationJson, toOrganizationJson } from '../organizations/account';
import { OrganizationError, organizationError } from '../organizations/organizations.errors';
import { OrganizationsRepository } from '../organizations/organizations.repository';
import { GoingLiveRepository } from './going-live.repository';

/** A change of an organization's standing: its record before and after. */
export interface AccountChange {
  before: Account;
  after: Account;
}

/**
 * An organization's standing for Production (docs/going-live.md): its record, and every change
 * of it, made under the organization's row lock with the `account-updated` event when its
 * verification or payout account changed.
 */
@Injectable()
export class AccountService {
  constructor(
    private readonly db: Db,
    private readonly organizations: OrganizationsRepository,
    private readonly events: GoingLiveRepository,
  ) {}

  async get(organizationId: string): Promise<Account> {
    const account = await this.organizations.account(organizationId);
    if (!account) throw organizationError(OrganizationError.OrganizationNotFound);
    return account;
  }

  async json(organizationId: string): Promise<OrganizationJson> {
    return toOrganizationJson(await this.get(organizationId));
  }

  /**
   * The owner's public contact, shown on the hosted pages and in the organization record: a
   * support phone ('' for none; never the legal representative's from the go-live application)
   * and a website (null for none). Already validated by the caller.
   */
  async setPublicContact(organizationId: string, contact: { phoneNumber: string; website: string | null }) {
    await this.organizations.setPublicContact(organizationId, contact.phoneNumber, contact.website);
  }

  /**
   * Runs `apply` on the locked organization (in the caller's transaction, when there is one) and
   * records the event its change calls for.
   */
  change(organizationId: string, apply: (before: Account) => Promise<void>): Promise<AccountChange> {
    return this.db.transaction(async () => {
      const before = await this.organizations.account(organizationId, true);
      if (!before) throw organizationError(OrganizationError.OrganizationNotFound);
      await apply(before);
      const after = (await this.organizations.account(organizationId))!;
      const [was, is] = [toOrganizationJson(before), toOrganizationJson(after)];
      if (
        !isDeepStrictEqual(was.verification, is.verification) ||
        // The whole account, not its JSON: a new IBAN with the same last four digits is a change too.
        !isDeepStrictEqual(before.payoutAccount, after.payoutAccount)
      ) {
        const environments = await this.organizations.environments(organizationId);
        await this.events.recordAccountUpdated(
          environments.map((e) => e.id),
          is,
        );
      }
      return { before, after };
    });
  }
}
