import { CsvColumn, csvTimeOf } from '../common/http/csv';
import { ApiProperty } from '@nestjs/swagger';
import { isoUtc, raw, Sql, sql } from '../database/sql';

export const INVOICE_STATUSES = ['pending', 'paid', 'void', 'refunded'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** An invoice: one per billing period of a subscription, created only by the service. */
export interface Invoice {
  id: string;
  organizationId: string;
  environmentId: string;
  customerId: string;
  subscriptionId: string;
  status: InvoiceStatus;
  /** Decimal MRU with two decimals, as PostgreSQL's numeric(12,2) gives it ("1500.00"). */
  amount: string;
  periodStart: Date;
  periodEnd: Date;
  dueDate: Date | null;
  paymentRequestId: string | null;
  createdAt: Date;
}

/** The columns of an invoice under the alias `i`, named as Invoice's properties. */
export const INVOICE_COLUMNS = raw(
  `i.id, i.organization_id AS "organizationId", i.environment_id AS "environmentId",
   i.customer_id AS "customerId", i.subscription_id AS "subscriptionId", i.status, i.amount::text AS amount,
   i.period_start AS "periodStart", i.period_end AS "periodEnd", i.due_date AS "dueDate",
   i.payment_request_id AS "paymentRequestId", i.created_at AS "createdAt"`,
);

/** Whole MRU as the invoice's decimal string. */
export const invoiceAmount = (mru: number): string => mru.toFixed(2);

/** The page that pays an invoice: stable for as long as the invoice is pending, and after. */
export const invoicePagePath = (id: string) => `/checkout/invoices/${id}`;

/** The invoice record, as the API and webhook events show it (docs/billing.md). */
export class InvoiceJson {
  @ApiProperty({ format: 'uuid', description: 'Also the transactionId of its payment request' }) id!: string;
  @ApiProperty({ format: 'uuid' }) customerId!: string;
  @ApiProperty({ format: 'uuid' }) subscriptionId!: string;
  @ApiProperty({ enum: INVOICE_STATUSES }) status!: InvoiceStatus;
  @ApiProperty({ example: '1500.00', description: 'Decimal amount in MRU with two decimals' })
  amount!: string;
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
    status: i.status,
    amount: i.amount,
    dueDate: i.dueDate?.toISOString() ?? null,
    paymentRequestId: i.paymentRequestId,
    checkoutUrl: publicUrl + invoicePagePath(i.id),
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
    'id', i.id, 'customerId', i.customer_id, 'subscriptionId', i.subscription_id, 'status', i.status,
    'amount', i.amount::text, 'dueDate', ${isoUtc('i.due_date')}, 'paymentRequestId', i.payment_request_id,
    'checkoutUrl', ${publicUrl + invoicePagePath('')}::text || i.id, 'periodStart', ${isoUtc('i.period_start')},
    'periodEnd', ${isoUtc('i.period_end')}, 'organizationId', i.organization_id, 'environmentId', i.environment_id,
    'createdAt', ${isoUtc('i.created_at')})`;
}

/** The columns of the invoices list as CSV. */
export const INVOICE_CSV_COLUMNS: readonly CsvColumn<InvoiceJson>[] = [
  { header: 'id', value: (i) => i.id },
  { header: 'createdAt', value: (i) => csvTimeOf(i.createdAt) },
  { header: 'customerId', value: (i) => i.customerId },
  { header: 'subscriptionId', value: (i) => i.subscriptionId },
  { header: 'status', value: (i) => i.status },
  { header: 'amount', value: (i) => i.amount },
  { header: 'dueDate', value: (i) => csvTimeOf(i.dueDate) },
  { header: 'periodStart', value: (i) => csvTimeOf(i.periodStart) },
  { header: 'periodEnd', value: (i) => csvTimeOf(i.periodEnd) },
  { header: 'paymentRequestId', value: (i) => i.paymentRequestId },
  { header: 'environmentId', value: (i) => i.environmentId },
];
