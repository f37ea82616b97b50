import { ApiProperty } from '@nestjs/swagger';

export const BALANCE_TRANSACTION_TYPES = [
  'payment',
  'refund',
  'refund_failure',
  'payout',
  'payout_failure',
  'application_fee',
  'application_fee_received',
] as const;
export type BalanceTransactionType = (typeof BALANCE_TRANSACTION_TYPES)[number];

/** One money movement of an environment, as the ledger keeps it (append-only). */
export interface BalanceTransaction {
  id: string;
  type: BalanceTransactionType;
  /** Signed whole MRU: money in positive. */
  amount: number;
  fee: number;
  /** `amount - fee`. */
  net: number;
  /** The payment, refund or payout it records. */
  sourceId: string;
  /** The payment a payment, refund or application fee concerns (null for a payout). */
  paymentId: string | null;
  availableOn: Date;
  payoutId: string | null;
  environmentId: string;
  organizationId: string;
  createdAt: Date;
}

/** The balance transaction record, as the API shows it. */
export class BalanceTransactionJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: BALANCE_TRANSACTION_TYPES }) type!: BalanceTransactionType;
  @ApiProperty({ type: 'integer', description: 'Whole MRU, signed: money in positive' }) amount!: number;
  @ApiProperty({ type: 'integer', description: "Khoums's fee, whole MRU" }) fee!: number;
  @ApiProperty({ type: 'integer', description: 'amount - fee' }) net!: number;
  @ApiProperty({ enum: ['MRU'] }) currency!: 'MRU';
  @ApiProperty({ format: 'uuid', description: 'The payment, refund or payout it records' }) sourceId!: string;
  @ApiProperty({ format: 'date-time', description: 'When the money can be paid out' }) availableOn!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The payout that paid it out' })
  payoutId!: string | null;
  @ApiProperty({ format: 'uuid' }) environmentId!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export function toBalanceTransactionJson(t: BalanceTransaction): BalanceTransactionJson {
  return {
    id: t.id,
    type: t.type,
    amount: t.amount,
    fee: t.fee,
    net: t.net,
    currency: 'MRU',
    sourceId: t.sourceId,
    availableOn: t.availableOn.toISOString(),
    payoutId: t.payoutId,
    environmentId: t.environmentId,
    createdAt: t.createdAt.toISOString(),
  };
}

/** The balance of an environment: sums of `net`, available now and not yet. */
export class BalanceJson {
  @ApiProperty({
    type: 'integer',
    description: 'Whole MRU that can be paid out now (may be negative after refunds)',
  })
  available!: number;
  @ApiProperty({ type: 'integer', description: 'Whole MRU not yet available' }) pending!: number;
  @ApiProperty({ enum: ['MRU'] }) currency!: 'MRU';
}

/** How much of an amount Khoums keeps: `bps` basis points, rounded half up to whole MRU. */
export function feeOf(amount: number, bps: number): number {
  return Math.floor((amount * bps + 5000) / 10000);
}
