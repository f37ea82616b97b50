import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../config/config';
import type { Account } from '../organizations/account';
import { DOCUMENT_KINDS, DocumentKind, DocumentType, StoredApplication } from '../organizations/application';
import { OrganizationsRepository } from '../organizations/organizations.repository';
import { VerificationRepository } from '../organizations/verification.repository';
import { AccountService } from './account.service';
import type { ApplicationInput, PayoutAccountInput } from './application-form';
import { DocumentCipher } from './document-cipher';
import { GoLiveError, goLiveError } from './going-live.errors';
import { payoutBanks } from './payout-account';

/** An application as an operator reads it: the ID number opened. */
export interface OpenedApplication extends StoredApplication {
  representativeIdNumber: string;
}

/**
 * The owner's application to go live (docs/going-live.md): stored with the ID number and the
 * documents sealed, the organization `submitted` and its payout account `pending`, in one
 * transaction under the organization's lock (with the `account-updated` event).
 */
@Injectable()
export class GoLiveService {
  constructor(
    private readonly accounts: AccountService,
    private readonly organizations: OrganizationsRepository,
    private readonly applications: VerificationRepository,
    private readonly cipher: DocumentCipher,
    private readonly config: AppConfig,
  ) {}

  /** The organizations whose application waits for an operator, oldest first. */
  submittedQueue(): Promise<{ id: string; name: string; submittedAt: Date }[]> {
    return this.applications.submittedQueue();
  }

  /** The organizations whose payout account change waits for an operator, oldest first. */
  payoutAccountChangeQueue(): Promise<{ id: string; name: string; requestedAt: Date }[]> {
    return this.organizations.payoutAccountChangeQueue();
  }

  banks(): string[] {
    return payoutBanks(this.config.PAYOUT_BANKS);
  }

  /** Where the organization stands, and its latest application (sealed fields left sealed). */
  async standing(organizationId: string): Promise<{ account: Account; application?: StoredApplication }> {
    const [account, application] = await Promise.all([
      this.accounts.get(organizationId),
      this.applications.latestApplication(organizationId),
    ]);
    return { account, application };
  }

  /** Applies (or applies again after a rejection); refused while under review or once verified. */
  async submit(organizationId: string, userId: string | null, input: ApplicationInput): Promise<void> {
    await this.accounts.change(organizationId, async (before) => {
      if (before.verificationStatus === 'submitted') throw goLiveError(GoLiveError.UnderReview);
      if (before.verificationStatus === 'verified') throw goLiveError(GoLiveError.AlreadyVerified);
      const earlier = await this.applications.latestApplication(organizationId);
      const id = randomUUID();
      await this.applications.insertApplication({
        id,
        organizationId,
        submittedBy: userId,
        fields: input.fields,
        representativeId: this.cipher.seal(Buffer.from(input.representativeIdNumber, 'utf8')),
      });
      for (const kind of DOCUMENT_KINDS) {
        const document = input.documents[kind];
        if (document) {
          await this.applications.insertDocument(id, kind, {
            contentType: document.contentType,
            size: document.data.length,
            ...this.cipher.seal(document.data),
          });
        } else if (!earlier || !(await this.applications.copyDocument(earlier.id, id, kind))) {
          throw goLiveError(GoLiveError.DocumentRequired);
        }
      }
      await this.organizations.setVerification(organizationId, 'submitted', null);
      await this.organizations.savePayoutAccount(organizationId, {
        bank: input.fields.payoutBank,
        holderName: input.fields.payoutHolder,
        iban: input.fields.payoutIban,
        status: 'pending',
      });
    });
  }

  /**
   * A verified owner's request to change the payout account (docs/going-live.md "Changing the
   * payout account"): kept until an operator decides, replacing an earlier request; payouts go to
   * the approved account meanwhile. Before verification the application's form sets the account.
   */
  async requestPayoutAccountChange(
    organizationId: string,
    userId: string | null,
    input: PayoutAccountInput,
  ): Promise<void> {
    await this.accounts.change(organizationId, async (before) => {
      if (before.verificationStatus !== 'verified') throw goLiveError(GoLiveError.NotVerified);
      await this.organizations.requestPayoutAccountChange(organizationId, userId, input);
    });
  }

  /** The latest application with its ID number opened (operators only). */
  async openApplication(organizationId: string): Promise<OpenedApplication | undefined> {
    const application = await this.applications.latestApplication(organizationId);
    if (!application) return undefined;
    return {
      ...application,
      representativeIdNumber: this.cipher.open(application.representativeId).toString('utf8'),
    };
  }

  /** A document of the latest application, opened (operators only). */
  async openDocument(
    organizationId: string,
    kind: DocumentKind,
  ): Promise<{ contentType: DocumentType; data: Buffer }> {
    const document = await this.applications.document(organizationId, kind);
    if (!document) throw goLiveError(GoLiveError.DocumentNotFound);
    return { contentType: document.contentType, data: this.cipher.open(document) };
  }
}
