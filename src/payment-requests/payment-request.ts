import { CsvColumn, csvTimeOf } from '../common/http/csv';
import { ApiProperty } from '@nestjs/swagger';
import { raw } from '../database/sql';

export type PaymentRequestStatus = 'pending' | 'paid';

/** A payment request as the code handles it (a `payment_requests` row, camelCased). */
export interface PaymentRequest {
  id: string;
  environmentId: string;
  transactionId: string;
  amount: number;
  phoneNumber: string | null;
  status: PaymentRequestStatus;
  paidAt: Date | null;
  invoiceId: string | null;
  /** Set when its invoice was voided: it can no longer be paid (not part of the API's record). */
  voidedAt: Date | null;
  /** The payments opened for it (pay's opening statement counts them). */
  paymentCount: number;
  /** Whole MRU its connected account pays its platform when it is paid (docs/platforms.md); null: none. */
  applicationFee: number | null;
  /** The payment link it was made for (docs/payment-links.md); null otherwise. */
  paymentLinkId: string | null;
  /**
   * The Sandbox test clock of its invoice (docs/billing.md "Testing with test clocks"); null: the
   * real clock. A transfer payment opened for it has its claim on the clock's time. Not in the API.
   */
  testClockId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A `payment_requests` row as plain SQL returns it. */
export interface PaymentRequestRow {
  id: string;
  environment_id: string;
  transaction_id: string;
  amount: number;
  phone_number: string | null;
  status: PaymentRequestStatus;
  paid_at: Date | null;
  invoice_id: string | null;
  voided_at: Date | null;
  payment_count: number;
  application_fee: number | null;
  payment_link_id: string | null;
  test_clock_id?: string | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * A request's columns, named (a prepared statement's result must not follow the table): every
 * column `fromRow` reads, which the type checks (a column added to the row must be added here).
 */
export const REQUEST_COLUMNS = raw(
  Object.keys({
    id: true,
    environment_id: true,
    transaction_id: true,
    amount: true,
    phone_number: true,
    status: true,
    paid_at: true,
    invoice_id: true,
    voided_at: true,
    payment_count: true,
    application_fee: true,
    payment_link_id: true,
    test_clock_id: true,
    created_at: true,
    updated_at: true,
  } satisfies Record<keyof PaymentRequestRow, true>).join(', '),
);

export function fromRow(r: PaymentRequestRow): PaymentRequest {
  return {
    id: r.id,
    environmentId: r.environment_id,
    transactionId: r.transaction_id,
    amount: r.amount,
    phoneNumber: r.phone_number,
    status: r.status,
    paidAt: r.paid_at,
    invoiceId: r.invoice_id,
    voidedAt: r.voided_at,
    paymentCount: r.payment_count,
    applicationFee: r.application_fee ?? null,
    paymentLinkId: r.payment_link_id ?? null,
    testClockId: r.test_clock_id ?? null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/**
 * A `payment_requests` row as `row_to_json` or `to_jsonb` gives it (a statement that returns a
 * request beside other rows: pay's look-up, a transfer's candidates): the times come as text.
 */
export function fromJsonRow(j: Record<string, unknown>): PaymentRequest {
  const time = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  return fromRow({
    ...(j as unknown as PaymentRequestRow),
    paid_at: time(j.paid_at),
    voided_at: time(j.voided_at),
    created_at: time(j.created_at)!,
    updated_at: time(j.updated_at)!,
  });
}

/** The payment request record, as the API and webhook events show it. */
export class PaymentRequestJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: "The merchant's own order ID, unique per environment" }) transactionId!: string;
  @ApiProperty({ type: 'integer', description: 'Whole MRU' }) amount!: number;
  @ApiProperty({ type: String, nullable: true, description: '8-digit local number' }) phoneNumber!:
    string | null;
  @ApiProperty({ enum: ['pending', 'paid'] }) status!: PaymentRequestStatus;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) paidAt!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) invoiceId!: string | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Whole MRU the connected account pays its platform when the request is paid; null: none',
  })
  applicationFee!: number | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The payment link the request was made for; null otherwise',
  })
  paymentLinkId!: string | null;
  @ApiProperty({ format: 'uuid' }) environmentId!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({
    type: 'integer',
    description: 'What the payer pays: `amount` (Khoums charges the payer no fee)',
  })
  totalAmount!: number;
  @ApiProperty({
    type: 'integer',
    description: 'Payments made for the request after the first (0 for a fresh one)',
  })
  retryCount!: number;
}

/** What a publishable key may see: a look-up by transactionId returns id, amount and phoneNumber only. */
export class PublicPaymentRequestJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: 'integer' }) amount!: number;
  @ApiProperty({ type: String, nullable: true }) phoneNumber!: string | null;
}

export function toPaymentRequestJson(pr: PaymentRequest): PaymentRequestJson {
  return {
    id: pr.id,
    transactionId: pr.transactionId,
    amount: pr.amount,
    phoneNumber: pr.phoneNumber,
    status: pr.status,
    paidAt: pr.paidAt?.toISOString() ?? null,
    invoiceId: pr.invoiceId,
    applicationFee: pr.applicationFee,
    paymentLinkId: pr.paymentLinkId,
    environmentId: pr.environmentId,
    createdAt: pr.createdAt.toISOString(),
    updatedAt: pr.updatedAt.toISOString(),
    totalAmount: pr.amount,
    retryCount: Math.max(pr.paymentCount - 1, 0),
  };
}

export function toPublicPaymentRequestJson(
  pr: PaymentRequest,
): Pick<PaymentRequestJson, 'id' | 'amount' | 'phoneNumber'> {
  return { id: pr.id, amount: pr.amount, phoneNumber: pr.phoneNumber };
}

/** The columns of the payment requests list as CSV. */
export const PAYMENT_REQUEST_CSV_COLUMNS: readonly CsvColumn<PaymentRequestJson>[] = [
  { header: 'id', value: (r) => r.id },
  { header: 'createdAt', value: (r) => csvTimeOf(r.createdAt) },
  { header: 'transactionId', value: (r) => r.transactionId },
  { header: 'amount', value: (r) => r.amount },
  { header: 'phoneNumber', value: (r) => r.phoneNumber },
  { header: 'status', value: (r) => r.status },
  { header: 'paidAt', value: (r) => csvTimeOf(r.paidAt) },
  { header: 'invoiceId', value: (r) => r.invoiceId },
];
