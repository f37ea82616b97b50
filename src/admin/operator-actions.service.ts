import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { Db } from '../database/db';
import { AccountChange, AccountService } from '../going-live/account.service';
import { GoLiveService, OpenedApplication } from '../going-live/go-live.service';
import { normalizeIban, payoutBanks } from '../going-live/payout-account';
import type { Account } from '../organizations/account';
import type { DocumentKind, DocumentType } from '../organizations/application';
import type { GimtelApp } from '../payments/payment-methods.defaults';
import { PaymentMethodsService } from '../payments/payment-methods.service';
import { OrganizationsRepository } from '../organizations/organizations.repository';
import { AdminError, adminError } from './admin.errors';
import { Actor, AuditEntry, AuditFilter, AuditLogRepository } from './audit-log.repository';

/** The audited actions, as the audit log names them. */
/** The longest reason an operator gives for refusing an application (the console's form checks it too). */
export const REJECTION_REASON_MAX = 1000;

export const OPERATOR_ACTIONS = [
  'organization.verify',
  'organization.reject',
  'organization.platform',
  'organization.fee_rate',
  'organization.payouts_hold',
  'organization.payouts_release',
  'organization.payout_account',
  'organization.payout_account_change_approve',
  'organization.payout_account_change_reject',
  'organization.open_document',
  'organization.show_id_number',
  /** The member apps of the national switch (docs/transfers.md): no organization's. */
  'gimtel_apps',
] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];

/**
 * The audited reads of personal data (docs/admin.md "The audit log"): nothing changes, the entry
 * says what was read (`after`: `{ document }` or `{ field }`).
 */
export const READ_ACTIONS: readonly OperatorAction[] = [
  'organization.open_document',
  'organization.show_id_number',
];

/** An organization as the audit log records it before and after an action (never the whole IBAN). */
export function auditRecord(a: Account): Record<string, unknown> {
  return {
    name: a.name,
    verification: { status: a.verificationStatus, reason: a.reason },
    platform: a.platform,
    feeBps: a.feeBps,
    payoutsHeld: a.payoutsHeld,
    payoutAccount: a.payoutAccount && {
      bank: a.payoutAccount.bank,
      holderName: a.payoutAccount.holderName,
      ibanLast4: a.payoutAccount.iban.slice(-4),
      status: a.payoutAccount.status,
    },
    payoutAccountChange: a.payoutAccountChange && {
      bank: a.payoutAccountChange.bank,
      holderName: a.payoutAccountChange.holderName,
      ibanLast4: a.payoutAccountChange.iban.slice(-4),
      status: a.payoutAccountChange.status,
      requestedAt: a.payoutAccountChange.requestedAt,
    },
  };
}

/**
 * What operators do to an organization, from /admin or the CLI (docs/going-live.md): each action is
 * one transaction that changes the organization (with its `account-updated` event when due) and
 * appends the audit entry, so neither exists without the other. Opening the application's
 * personal data (the ID number, the documents) is audited the same way.
 */
@Injectable()
export class OperatorActionsService {
  constructor(
    private readonly db: Db,
    private readonly accounts: AccountService,
    private readonly organizations: OrganizationsRepository,
    private readonly audit: AuditLogRepository,
    private readonly config: AppConfig,
    private readonly goLive: GoLiveService,
    private readonly paymentMethods: PaymentMethodsService,
  ) {}

  /** The audit log of operators' actions, newest first, at most 200 entries. */
  auditLog(filter: AuditFilter): Promise<AuditEntry[]> {
    return this.audit.list(filter);
  }

  /**
   * Approves the organization for Production, and its pending payout account. `onlySubmitted` (the
   * console): refused unless an application waits, checked under the organization's lock, so two
   * operators deciding at once cannot both win.
   */
  verify(actor: Actor, organizationId: string, onlySubmitted = false): Promise<AccountChange> {
    return this.act(actor, 'organization.verify', organizationId, async (before) => {
      if (onlySubmitted && before.verificationStatus !== 'submitted')
        throw adminError(AdminError.NotUnderReview);
      await this.organizations.setVerification(organizationId, 'verified', null);
      if (before.payoutAccount?.status === 'pending')
        await this.organizations.setPayoutAccountStatus(organizationId, 'approved');
    });
  }

  /** Refuses the application with a reason the owner sees; the owner may correct it and apply again. */
  async reject(
    actor: Actor,
    organizationId: string,
    reason: string,
    onlySubmitted = false,
  ): Promise<AccountChange> {
    const text = reason.trim();
    if (text.length < 1 || text.length > REJECTION_REASON_MAX) throw adminError(AdminError.ReasonRequired);
    return this.act(actor, 'organization.reject', organizationId, async (before) => {
      if (onlySubmitted && before.verificationStatus !== 'submitted')
        throw adminError(AdminError.NotUnderReview);
      await this.organizations.setVerification(organizationId, 'rejected', text);
      if (before.payoutAccount?.status === 'pending')
        await this.organizations.setPayoutAccountStatus(organizationId, 'rejected');
    });
  }

  setPlatform(actor: Actor, organizationId: string, platform: boolean): Promise<AccountChange> {
    return this.act(actor, 'organization.platform', organizationId, () =>
      this.organizations.setTerms(organizationId, { platform }),
    );
  }

  /** The fee rate in basis points (0..10000), kept for the ledger; null goes back to the default. */
  async setFeeRate(actor: Actor, organizationId: string, feeBps: number | null): Promise<AccountChange> {
    if (feeBps !== null && !(Number.isInteger(feeBps) && feeBps >= 0 && feeBps <= 10000))
      throw adminError(AdminError.InvalidFeeRate);
    return this.act(actor, 'organization.fee_rate', organizationId, () =>
      this.organizations.setTerms(organizationId, { feeBps }),
    );
  }

  setPayoutsHeld(actor: Actor, organizationId: string, held: boolean): Promise<AccountChange> {
    const action = held ? 'organization.payouts_hold' : 'organization.payouts_release';
    return this.act(actor, action, organizationId, () =>
      this.organizations.setTerms(organizationId, { payoutsHeld: held }),
    );
  }

  /**
   * The latest application with its representative's ID number decrypted, for the page that shows
   * it: reading personal data is an operator action, audited in the same transaction (no entry,
   * no number). Undefined (and no entry) when the organization never applied.
   */
  openApplication(actor: Actor, organizationId: string): Promise<OpenedApplication | undefined> {
    return this.db.transaction(async () => {
      const application = await this.goLive.openApplication(organizationId);
      if (application)
        await this.audit.append({
          actor,
          action: 'organization.show_id_number',
          organizationId,
          before: null,
          after: { field: 'representativeIdNumber', applicationId: application.id },
        });
      return application;
    });
  }

  /** A document of the latest application, decrypted, with its audit entry (404 and none when missing). */
  openDocument(
    actor: Actor,
    organizationId: string,
    kind: DocumentKind,
  ): Promise<{ contentType: DocumentType; data: Buffer }> {
    return this.db.transaction(async () => {
      const document = await this.goLive.openDocument(organizationId, kind);
      await this.audit.append({
        actor,
        action: 'organization.open_document',
        organizationId,
        before: null,
        after: { document: kind },
      });
      return document;
    });
  }

  /** An approved payout account set by an operator (org:create's --payout-* options). */
  async setApprovedPayoutAccount(
    actor: Actor,
    organizationId: string,
    input: { bank: string; holderName: string; iban: string },
  ): Promise<AccountChange> {
    const iban = normalizeIban(input.iban);
    if (!iban) throw adminError(AdminError.InvalidIban);
    const bank = input.bank.trim().toUpperCase();
    if (!payoutBanks(this.config.PAYOUT_BANKS).includes(bank))
      throw adminError(AdminError.UnknownPayoutBank, input.bank);
    const holderName = input.holderName.trim();
    if (holderName.length < 1 || holderName.length > 200) throw adminError(AdminError.InvalidPayoutHolder);
    return this.act(actor, 'organization.payout_account', organizationId, () =>
      this.organizations.savePayoutAccount(organizationId, { bank, holderName, iban, status: 'approved' }),
    );
  }

  /**
   * Approves the owner's request to change the payout account (docs/going-live.md): the account is
   * replaced, approved, and the request removed; `account-updated` follows. Refused (409) when no
   * request waits, checked under the organization's lock, so two operators cannot both decide.
   */
  approvePayoutAccountChange(actor: Actor, organizationId: string): Promise<AccountChange> {
    return this.act(actor, 'organization.payout_account_change_approve', organizationId, async (before) => {
      const change = before.payoutAccountChange;
      if (change?.status !== 'pending') throw adminError(AdminError.NoPayoutAccountChange);
      const { bank, holderName, iban } = change;
      await this.organizations.savePayoutAccount(organizationId, {
        bank,
        holderName,
        iban,
        status: 'approved',
      });
      await this.organizations.deletePayoutAccountChange(organizationId);
    });
  }

  /** Refuses the request: payouts keep going to the approved account; the owner sees the refusal. */
  rejectPayoutAccountChange(actor: Actor, organizationId: string): Promise<AccountChange> {
    return this.act(actor, 'organization.payout_account_change_reject', organizationId, async (before) => {
      if (before.payoutAccountChange?.status !== 'pending')
        throw adminError(AdminError.NoPayoutAccountChange);
      await this.organizations.rejectPayoutAccountChange(organizationId);
    });
  }

  /** The member apps a customer may pay from by transfer, in the order the pages show them. */
  gimtelApps(): Promise<GimtelApp[]> {
    return this.paymentMethods.gimtelApps();
  }

  /**
   * Replaces the member apps (docs/transfers.md): the list and its audit entry (`gimtel_apps`,
   * the whole list before and after) in one transaction, so neither exists without the other.
   */
  setGimtelApps(actor: Actor, apps: GimtelApp[]): Promise<void> {
    return this.db.transaction(async () => {
      const before = await this.paymentMethods.gimtelApps();
      await this.paymentMethods.setGimtelApps(apps);
      await this.audit.append({
        actor,
        action: 'gimtel_apps',
        organizationId: null,
        before: { apps: before },
        after: { apps },
      });
    });
  }

  private act(
    actor: Actor,
    action: OperatorAction,
    organizationId: string,
    apply: (before: Account) => Promise<void>,
  ): Promise<AccountChange> {
    return this.db.transaction(async () => {
      const change = await this.accounts.change(organizationId, apply);
      await this.audit.append({
        actor,
        action,
        organizationId,
        before: auditRecord(change.before),
        after: auditRecord(change.after),
      });
      return change;
    });
  }
}
