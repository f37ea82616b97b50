import { CsvColumn, csvTimeOf } from '../common/http/csv';
import { ApiProperty } from '@nestjs/swagger';

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Money sent back to a payer, through the bank app that was charged. */
export interface Refund {
  id: string;
  environmentId: string;
  organizationId: string;
  paymentId: string;
  paymentRequestId: string;
  /** The payment request's transactionId. */
  transactionId: string;
  amount: number;
  status: RefundStatus;
  reason: string | null;
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The refund record, as the API and webhook events show it. */
export class RefundJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) paymentId!: string;
  @ApiProperty({ description: "The payment request's transactionId" }) transactionId!: string;
  @ApiProperty({ type: 'integer', description: 'Whole MRU' }) amount!: number;
  @ApiProperty({ enum: REFUND_STATUSES }) status!: RefundStatus;
  @ApiProperty({ type: String, nullable: true }) reason!: string | null;
  @ApiProperty({ type: String, nullable: true }) failureReason!: string | null;
  @ApiProperty({ format: 'uuid' }) environmentId!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export function toRefundJson(r: Refund): RefundJson {
  return {
    id: r.id,
    paymentId: r.paymentId,
    transactionId: r.transactionId,
    amount: r.amount,
    status: r.status,
    reason: r.reason,
    failureReason: r.failureReason,
    environmentId: r.environmentId,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** The columns of the refunds list as CSV. */
export const REFUND_CSV_COLUMNS: readonly CsvColumn<RefundJson>[] = [
  { header: 'id', value: (r) => r.id },
  { header: 'createdAt', value: (r) => csvTimeOf(r.createdAt) },
  { header: 'paymentId', value: (r) => r.paymentId },
  { header: 'transactionId', value: (r) => r.transactionId },
  { header: 'amount', value: (r) => r.amount },
  { header: 'status', value: (r) => r.status },
  { header: 'reason', value: (r) => r.reason },
  { header: 'failureReason', value: (r) => r.failureReason },
];

/** How a refund ends, as the bank said. */
export type RefundOutcome =
  { status: 'succeeded'; bankReference: string | null } | { status: 'failed'; reason: string };
