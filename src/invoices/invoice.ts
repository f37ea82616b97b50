import type { EnvironmentKind } from '../organizations/tenant';
import { CsvColumn, csvTimeOf } from '../common/http/csv';
import { ApiProperty } from '@nestjs/swagger';
import { isoUtc, raw, Sql, sql } from '../database/sql';

export const INVOICE_STATUSES = ['pending', 'paid', 'void', 'refunded'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const MANUAL_PAYMENT_METHODS = ['cash', 'bank_transfer', 'cheque', 'other'] as const;
export type ManualPaymentMethod = (typeof MANUAL_PAYMENT_METHODS)[number];

/** A payment recorded by hand (the money did not pass through Khoums), as the invoice shows it. */
export class ManualPaymentJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: 'integer', description: 'Whole MRU' }) amount!: number;
  @ApiProperty({ enum: MANUAL_PAYMENT_METHODS }) method!: ManualPaymentMethod;
  @ApiProperty({ type: String, nullable: true }) reference!: string | null;
  @ApiProperty({ format: 'date-time' }) paidAt!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

/** A line of an invoice, as stored and as the API shows it (money as decimal strings, like `amount`). */
export class InvoiceLineJson {
  @ApiProperty({ example: 'Premium', description: 'What the line bills: the product’s name' })
  description!: string;
  @ApiProperty({ type: 'integer', description: 'Units billed (the subscription’s quantity)' })
  quantity!: number;
  @ApiProperty({ example: '1500.00', description: 'Decimal MRU per unit' }) unitAmount!: string;
  @ApiProperty({
    example: '4500.00',
    description: 'Decimal MRU: unitAmount × quantity, or the prorated difference',
  })
  amount!: string;
  @ApiProperty({ format: 'date-time' }) periodStart!: string;
  @ApiProperty({ format: 'date-time' }) periodEnd!: string;
  @ApiProperty({ description: 'The rest of a period after a change of price or quantity' })
  proration!: boolean;
}

/** An invoice: one per billing period of a subscription (and one per prorated change), created only by the service. */
export interface Invoice {
  id: string;
  /** `<prefix>-000001`: gapless and increasing in its environment. */
  number: string;
  organizationId: string;
  environmentId: string;
  customerId: string;
  subscriptionId: string;
  status: InvoiceStatus;
  /** What the customer pays: subtotal − discount − creditApplied. Decimal MRU with two decimals, as PostgreSQL's numeric(12,2) gives it ("1500.00"). */
  amount: string;
  /** The lines' sum, decimal MRU. */
  subtotal: string;
  /** Taken off by the subscription's coupon, decimal MRU. */
  discount: string;
  /** Taken off from the customer's credit balance, decimal MRU. */
  creditApplied: string;
  lines: InvoiceLineJson[];
  periodStart: Date;
  periodEnd: Date;
  dueDate: Date | null;
  paymentRequestId: string | null;
  createdAt: Date;
  /** Paid by hand so far, decimal MRU ("500.00"). */
  amountPaid: string;
  /** Oldest first. */
  manualPayments: ManualPaymentJson[];
}

/** The columns of an invoice under the alias `i`, named as Invoice's properties. */
export const INVOICE_COLUMNS = raw(
  `i.id, i.organization_id AS "organizationId", i.environment_id AS "environmentId",
   i.customer_id AS "customerId", i.subscription_id AS "subscriptionId", i.status, i.amount::text AS amount,
   i.number, i.subtotal::numeric(12, 2)::text AS subtotal, i.discount::numeric(12, 2)::text AS discount,
   i.credit_applied::numeric(12, 2)::text AS "creditApplied", i.lines,
   i.period_start AS "periodStart", i.period_end AS "periodEnd", i.due_date AS "dueDate",
   i.payment_request_id AS "paymentRequestId", i.created_at AS "createdAt", i.amount_paid::text AS "amountPaid",
   (SELECT coalesce(jsonb_agg(jsonb_build_object('id', m.id, 'amount', m.amount, 'method', m.method,
             'reference', m.reference, 'paidAt', to_char(m.paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'createdAt', to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
           ORDER BY m.created_at, m.id), '[]'::jsonb)
      FROM manual_payments m WHERE m.invoice_id = i.id) AS "manualPayments"`,
);

/** Whole MRU as the invoice's decimal string. */
export const invoiceAmount = (mru: number): string => mru.toFixed(2);

/** The page that pays an invoice: stable for as long as the invoice is pending, and after. */
export const invoicePagePath = (id: string) => `/checkout/invoices/${id}`;

/**
 * The merchant's customer portal, where a customer finds their invoices (docs/billing.md "Customer
 * portal"): Sandbox's customers sign in with `?environment=sandbox`. An invoice's page links back to it.
 */
export function customerPortalPath(
  organizationId: string,
  environment: EnvironmentKind = 'production',
): string {
  return `/portal/${organizationId}${environment === 'sandbox' ? '?environment=sandbox' : ''}`;
}

/** The invoice record, as the API and webhook events show it (docs/billing.md). */
export class InvoiceJson {
  @ApiProperty({ format: 'uuid', description: 'Also the transactionId of its payment request' }) id!: string;
  @ApiProperty({
    example: 'BOUT-000042',
    description: 'Gapless and increasing per organization and environment: `<prefix>-000001`',
  })
  number!: string;
  @ApiProperty({ format: 'uuid' }) customerId!: string;
  @ApiProperty({ format: 'uuid' }) subscriptionId!: string;
  @ApiProperty({ enum: INVOICE_STATUSES }) status!: InvoiceStatus;
  @ApiProperty({
    example: '1500.00',
    description: 'What the customer pays: subtotal − discount − creditApplied; decimal MRU with two decimals',
  })
  amount!: string;
  @ApiProperty({ example: '1500.00', description: 'The sum of the lines, decimal MRU' }) subtotal!: string;
  @ApiProperty({ example: '0.00', description: 'Taken off by the subscription’s coupon, decimal MRU' })
  discount!: string;
  @ApiProperty({ example: '0.00', description: 'Taken off from the customer’s credit balance, decimal MRU' })
  creditApplied!: string;
  @ApiProperty({ type: InvoiceLineJson, isArray: true }) lines!: InvoiceLineJson[];
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'The end of the billed period (the subscription’s next billing date when the invoice was created)',
  })
  dueDate!: string | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The payment request that pays it',
  })
  paymentRequestId!: string | null;
  @ApiProperty({
    format: 'uri',
    description:
      'A hosted page that pays this invoice; valid while it is pending, then shows it paid or void',
  })
  checkoutUrl!: string;
  @ApiProperty({
    example: '500.00',
    description: 'Paid so far (the whole amount once paid), decimal MRU with two decimals',
  })
  amountPaid!: string;
  @ApiProperty({
    example: '1000.00',
    description: 'Still to pay while pending (what its payment request asks), else 0.00',
  })
  amountDue!: string;
  @ApiProperty({
    type: ManualPaymentJson,
    isArray: true,
    description: 'Payments recorded by hand, oldest first',
  })
  manualPayments!: ManualPaymentJson[];
  @ApiProperty({ format: 'date-time' }) periodStart!: string;
  @ApiProperty({ format: 'date-time' }) periodEnd!: string;
  @ApiProperty({ format: 'uuid' }) organizationId!: string;
  @ApiProperty({ format: 'uuid' }) environmentId!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export function toInvoiceJson(i: Invoice, publicUrl: string): InvoiceJson {
  return {
    id: i.id,
    customerId: i.customerId,
    subscriptionId: i.subscriptionId,
    number: i.number,
    status: i.status,
    amount: i.amount,
    subtotal: i.subtotal,
    discount: i.discount,
    creditApplied: i.creditApplied,
    lines: i.lines,
    dueDate: i.dueDate?.toISOString() ?? null,
    paymentRequestId: i.paymentRequestId,
    checkoutUrl: publicUrl + invoicePagePath(i.id),
    amountPaid: i.status === 'paid' || i.status === 'refunded' ? i.amount : i.amountPaid,
    amountDue: i.status === 'pending' ? (Number(i.amount) - Number(i.amountPaid)).toFixed(2) : '0.00',
    manualPayments: i.manualPayments,
    periodStart: i.periodStart.toISOString(),
    periodEnd: i.periodEnd.toISOString(),
    organizationId: i.organizationId,
    environmentId: i.environmentId,
    createdAt: i.createdAt.toISOString(),
  };
}

/**
 * `toInvoiceJson` in SQL, on alias `i`, for events recorded by the statement that changes the
 * invoice (paid, voided). A test compares the two.
 */
export function invoiceJsonSql(publicUrl: string): Sql {
  return sql`jsonb_build_object(
    'id', i.id, 'number', i.number, 'customerId', i.customer_id, 'subscriptionId', i.subscription_id, 'status', i.status,
    'amount', i.amount::text, 'subtotal', i.subtotal::numeric(12, 2)::text, 'discount', i.discount::numeric(12, 2)::text,
    'creditApplied', i.credit_applied::numeric(12, 2)::text, 'lines', i.lines, 'dueDate', ${isoUtc('i.due_date')}, 'paymentRequestId', i.payment_request_id,
    'checkoutUrl', ${publicUrl + invoicePagePath('')}::text || i.id,
    'amountPaid', CASE WHEN i.status IN ('paid', 'refunded') THEN i.amount ELSE i.amount_paid END::text,
    'amountDue', CASE WHEN i.status = 'pending' THEN i.amount - i.amount_paid ELSE 0 END::numeric(12, 2)::text,
    'manualPayments', (SELECT coalesce(jsonb_agg(jsonb_build_object('id', m.id, 'amount', m.amount, 'method', m.method,
             'reference', m.reference, 'paidAt', ${isoUtc('m.paid_at')}, 'createdAt', ${isoUtc('m.created_at')})
           ORDER BY m.created_at, m.id), '[]'::jsonb) FROM manual_payments m WHERE m.invoice_id = i.id),
    'periodStart', ${isoUtc('i.period_start')},
    'periodEnd', ${isoUtc('i.period_end')}, 'organizationId', i.organization_id, 'environmentId', i.environment_id,
    'createdAt', ${isoUtc('i.created_at')})`;
}

/** The columns of the invoices list as CSV. */
export const INVOICE_CSV_COLUMNS: readonly CsvColumn<InvoiceJson>[] = [
  { header: 'id', value: (i) => i.id },
  { header: 'number', value: (i) => i.number },
  { header: 'createdAt', value: (i) => csvTimeOf(i.createdAt) },
  { header: 'customerId', value: (i) => i.customerId },
  { header: 'subscriptionId', value: (i) => i.subscriptionId },
  { header: 'status', value: (i) => i.status },
  { header: 'amount', value: (i) => i.amount },
  { header: 'subtotal', value: (i) => i.subtotal },
  { header: 'discount', value: (i) => i.discount },
  { header: 'creditApplied', value: (i) => i.creditApplied },
  { header: 'dueDate', value: (i) => csvTimeOf(i.dueDate) },
  { header: 'periodStart', value: (i) => csvTimeOf(i.periodStart) },
  { header: 'periodEnd', value: (i) => csvTimeOf(i.periodEnd) },
  { header: 'paymentRequestId', value: (i) => i.paymentRequestId },
  { header: 'environmentId', value: (i) => i.environmentId },
];
