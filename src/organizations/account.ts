import { ApiProperty } from '@nestjs/swagger';
import { organizationError, OrganizationError } from './organizations.errors';
import type { Tenant } from './tenant';
import { VERIFICATION_STATUSES, type VerificationStatus } from './verification';

/*
 * An organization's standing for Production (docs/going-live.md): its verification and payout
 * account, as GET /organization and the `account-updated` event show them.
 */

export const PAYOUT_ACCOUNT_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type PayoutAccountStatus = (typeof PAYOUT_ACCOUNT_STATUSES)[number];

export const PAYOUT_ACCOUNT_CHANGE_STATUSES = ['pending', 'rejected'] as const;
export type PayoutAccountChangeStatus = (typeof PAYOUT_ACCOUNT_CHANGE_STATUSES)[number];

/** The account a verified owner asked to be paid to instead (docs/going-live.md), until an operator decides. */
export interface PayoutAccountChange {
  bank: string;
  holderName: string;
  iban: string;
  status: PayoutAccountChangeStatus;
  /** Timestamps as PostgreSQL writes them in JSON (ISO 8601). */
  requestedAt: string;
  decidedAt: string | null;
}

/** An organization's record as its repository reads it (the payout account's IBAN whole). */
export interface Account {
  id: string;
  name: string;
  verificationStatus: VerificationStatus;
  submittedAt: Date | null;
  decidedAt: Date | null;
  reason: string | null;
  platform: boolean;
  feeBps: number | null;
  payoutsHeld: boolean;
  payoutAccount: { bank: string; holderName: string; iban: string; status: PayoutAccountStatus } | null;
  /** A verified organization's request to change its payout account: waiting, or refused. */
  payoutAccountChange: PayoutAccountChange | null;
  /** The public support phone the owner sets in the dashboard ('' when none). */
  phoneNumber: string;
  website: string | null;
}

export class VerificationJson {
  @ApiProperty({ enum: VERIFICATION_STATUSES }) status!: VerificationStatus;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) submittedAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) decidedAt!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The operator's reason, when rejected" })
  reason!: string | null;
}

export class PayoutAccountJson {
  @ApiProperty({ description: 'Bank code, e.g. BNM' }) bank!: string;
  @ApiProperty() holderName!: string;
  @ApiProperty({ description: 'The last four digits of the IBAN' }) ibanLast4!: string;
  @ApiProperty({ enum: PAYOUT_ACCOUNT_STATUSES }) status!: PayoutAccountStatus;
}

/** The organization as GET /organization and the `account-updated` event show it. */
export class OrganizationJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: VerificationJson }) verification!: VerificationJson;
  @ApiProperty({ type: PayoutAccountJson, nullable: true }) payoutAccount!: PayoutAccountJson | null;
  @ApiProperty({ description: 'Whether the organization is a platform that connects merchant accounts' })
  platform!: boolean;
  @ApiProperty({
    description:
      'The public support phone the owner sets in the dashboard ("" when none); never the legal representative\'s',
  })
  phoneNumber!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The public website the owner sets in the dashboard',
  })
  website!: string | null;
}

export function toOrganizationJson(a: Account): OrganizationJson {
  return {
    id: a.id,
    name: a.name,
    verification: {
      status: a.verificationStatus,
      submittedAt: a.submittedAt?.toISOString() ?? null,
      decidedAt: a.decidedAt?.toISOString() ?? null,
      reason: a.reason,
    },
    payoutAccount: a.payoutAccount && {
      bank: a.payoutAccount.bank,
      holderName: a.payoutAccount.holderName,
      ibanLast4: a.payoutAccount.iban.slice(-4),
      status: a.payoutAccount.status,
    },
    platform: a.platform,
    phoneNumber: a.phoneNumber,
    website: a.website,
  };
}

/**
 * The gate: until its organization is verified, a Production key (or a Production hosted page)
 * may not ask a customer for money. Sandbox is never gated. Costs no query: the tenant carries
 * the status from the key look-up.
 */
export function assertMayAskForMoney(tenant: Pick<Tenant, 'environment' | 'verification'>): void {
  if (tenant.environment === 'production' && tenant.verification !== 'verified')
    throw organizationError(OrganizationError.NotVerifiedForProduction);
}
