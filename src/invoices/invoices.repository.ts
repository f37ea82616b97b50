import { Injectable } from '@nestjs/common';
import type { Page } from '../common/pagination';
import { AppConfig } from '../config/config';
import type { CustomerLanguage } from '../customers/customer';
import { customerIdByExternalUser, customerRows } from '../customers/customers.fragments';
import { Db } from '../database/db';
import {
  cursorColumn,
  KeysetPage,
  keysetBatches,
  keysetClauses,
  keysetPage,
  KeysetQuery,
} from '../database/keyset';
import { and, prepared, raw, Sql, sql } from '../database/sql';
import type { VerificationStatus } from '../organizations/verification';
import { ENVIRONMENTS_WITH_ORGANIZATIONS } from '../organizations/organizations.fragments';
import type { EnvironmentKind } from '../organizations/tenant';
import {
  applicationFeeOf,
  lockRequest,
  markPaidByHand,
  setPendingAmount,
  paymentRequestRows,
} from '../payment-requests/payment-requests.fragments';
import type { PaymentStatus } from '../payments/payment';
import { hasPendingPayment, latestPaymentStatusOf } from '../payments/payments.fragments';
import { invoiceEvents, nextInvoiceMomentOnClock } from './invoices.fragments';
import { Invoice, INVOICE_COLUMNS, InvoiceStatus, ManualPaymentMethod } from './invoice';
import { InvoiceSubscriptions } from './invoice-subscriptions';

/** What the invoice's page shows and pays: the invoice, its payment request, product and merchant. */
export interface InvoicePageRow {
  id: string;
  /** `<prefix>-000001` (docs/billing.md "Invoice numbers"). */
  number: string;
  status: InvoiceStatus;
  amount: number;
  periodStart: Date;
  periodEnd: Date;
  organizationId: string;
  environmentId: string;
  environment: EnvironmentKind;
  merchantName: string;
  /** The merchant's: a Production page takes money only once it is verified. */
  verification: VerificationStatus;
  productName: string;
  paymentRequestId: string;
  transactionId: string;
  phoneNumber: string | null;
  /** The status of the request's latest payment, null before any. */
  paymentStatus: PaymentStatus | null;
}

/** An invoice as the dashboard shows it: with its customer and the product it bills. */
export interface InvoiceListItem extends Invoice {
  customerExternalUserId: string;
  customerPhone: string | null;
  productName: string;
}

/** The dashboard's filters; they combine. */
export interface InvoiceSearch {
  status?: InvoiceStatus;
  customerId?: string;
  subscriptionId?: string;
}

const LIST_ITEM_JOINS = sql`JOIN ${customerRows('c')} ON c.id = i.customer_id`;

/** A pending invoice the reminder run claimed, with what its reminder says and to whom. */
export interface ReminderInvoiceRow extends Invoice {
  /** The latest reminder sent (src/billing/reminder-days.ts), null before any. */
  reminderStep: number | null;
  customerPhone: string | null;
  customerLanguage: CustomerLanguage;
  merchantName: string;
  environment: EnvironmentKind;
}

const LIST_ORDER = raw('i.created_at DESC, i.period_start DESC, i.id DESC');

/** Invoices: organization-scoped (either environment's key sees them), so every read filters by organization. */
@Injectable()
export class InvoicesRepository {
  private readonly publicUrl: string;

  constructor(
    private readonly db: Db,
    config: AppConfig,
    private readonly subscriptions: InvoiceSubscriptions,
  ) {
    this.publicUrl = config.publicUrl;
  }

  /**
   * The next time after `after` something of the test clock's invoices is due: a reminder, or a
   * dunning time (`dunningDays` after a pending invoice's due date; null: the environment dunns
   * nothing). Null: none.
   */
  async nextMomentOnClock(clockId: string, after: Date, dunningDays: number | null): Promise<Date | null> {
    // At each moment of a test clock's advance: planned once per connection.
    const row = await this.db.one<{ at: Date | null }>(
      prepared(sql`SELECT ${nextInvoiceMomentOnClock(clockId, after, dunningDays)} AS at`),
    );
    return row?.at ?? null;
  }

  /** An invoice's columns with its customer's and the name of the product its subscription bills. */
  private listItemColumns(): Sql {
    return sql`${INVOICE_COLUMNS}, c.external_user_id AS "customerExternalUserId",
  c.phone AS "customerPhone", ${this.subscriptions.productNameOf(raw('i.subscription_id'))} AS "productName"`;
  }

  /**
   * The paid invoice of a payment request (SQL naming it) becomes `refunded`, with its
   * `invoice-refunded` event, when its payment has been refunded in full. Returns whether one did.
   */
  async markRefunded(paymentRequestId: string): Promise<boolean> {
    const at = new Date();
    const row = await this.db.one<{ n: number }>(sql`
      WITH refunded AS (
        UPDATE invoices i SET status = 'refunded', updated_at = ${at}
         WHERE i.payment_request_id = ${paymentRequestId} AND i.status = 'paid'
        RETURNING i.*
      ), event AS (${invoiceEvents(raw('refunded i'), 'invoice-refunded', at, this.publicUrl)})
      SELECT count(*)::int AS n FROM refunded`);
    return (row?.n ?? 0) > 0;
  }

  /** The organization of an invoice, by its id alone (the invoice page's PDF, also of an invoice with no payment request). */
  async organizationOf(id: string): Promise<string | undefined> {
    const row = await this.db.one<{ organizationId: string }>(
      sql`SELECT organization_id AS "organizationId" FROM invoices WHERE id = ${id}`,
    );
    return row?.organizationId;
  }

  /** The invoice number prefix set for the environment (billing settings), null for the default. */
  async numberPrefix(environmentId: string): Promise<string | null> {
    const row = await this.db.one<{ prefix: string | null }>(
      sql`SELECT prefix FROM invoice_counters WHERE environment_id = ${environmentId}`,
    );
    return row?.prefix ?? null;
  }

  /**
   * Sets the environment's invoice number prefix (null: back to the default), on its counter row
   * (created at 0 before a first invoice): invoices numbered after this commits take it; numbers
   * already given keep theirs. Under the counter's row lock, so it never crosses a numbering.
   */
  async setNumberPrefix(environmentId: string, prefix: string | null): Promise<string | null> {
    const row = await this.db.one<{ prefix: string | null }>(sql`
      INSERT INTO invoice_counters AS k (environment_id, organization_id, last_number, prefix)
      SELECT e.id, e.organization_id, 0, ${prefix}::text FROM ${ENVIRONMENTS_WITH_ORGANIZATIONS} WHERE e.id = ${environmentId}
      ON CONFLICT (environment_id) DO UPDATE SET prefix = excluded.prefix
      RETURNING k.prefix`);
    return row?.prefix ?? null;
  }

  byId(organizationId: string, id: string): Promise<Invoice | undefined> {
    return this.db.one<Invoice>(
      sql`SELECT ${INVOICE_COLUMNS} FROM invoices i WHERE i.id = ${id} AND i.organization_id = ${organizationId}`,
    );
  }

  /** Newest first (a batch's invoices, created together, newest period first); filters combine. */
  async list(
    organizationId: string,
    filter: { id?: string; externalUserId?: string; subscriptionId?: string },
    page: Page,
  ) {
    const where = [sql`i.organization_id = ${organizationId}`];
    if (filter.id !== undefined) where.push(sql`i.id = ${filter.id}`);
    if (filter.subscriptionId !== undefined) where.push(sql`i.subscription_id = ${filter.subscriptionId}`);
    if (filter.externalUserId !== undefined) {
      where.push(sql`i.customer_id = ${customerIdByExternalUser(organizationId, filter.externalUserId)}`);
    }
    // The page's ids from the list index alone (index-only: a deep page skips index entries, not
    // rows), then its rows; the total alongside, as `pageRows` does.
    const [rows, count] = await Promise.all([
      this.db.many<Invoice>(sql`
        SELECT ${INVOICE_COLUMNS}
          FROM (SELECT i.id FROM invoices i WHERE ${and(where)}
                 ORDER BY ${LIST_ORDER} LIMIT ${page.limit} OFFSET ${page.offset}) page
          JOIN invoices i ON i.id = page.id
         ORDER BY ${LIST_ORDER}`),
      this.db.one<{ total: number }>(sql`SELECT count(*)::int AS total FROM invoices i WHERE ${and(where)}`),
    ]);
    return { rows, total: count!.total };
  }

  /**
   * Records a payment made by hand on the invoice, whose request the caller has locked (then the
   * invoice: the order of pay): the payment, the invoice's amount paid, and either the request's
   * amount and application fee becoming what is still due and the fee on it or, with nothing left,
   * the invoice and its request paid with `invoice-paid`. One statement.
   */
  async recordManualPayment(
    invoice: Invoice,
    p: { id: string; amount: number; method: ManualPaymentMethod; reference: string | null; paidAt: Date },
    request: { dueAfter: number; applicationFee: number | null },
    at: Date,
  ): Promise<void> {
    const requestId = invoice.paymentRequestId!;
    const settles = request.dueAfter === 0;
    const requestChange = settles
      ? markPaidByHand(requestId, at)
      : setPendingAmount(requestId, request.dueAfter, request.applicationFee, at);
    await this.db.exec(sql`
      WITH payment AS (
        INSERT INTO manual_payments (id, invoice_id, organization_id, amount, method, reference, paid_at, created_at)
        VALUES (${p.id}, ${invoice.id}, ${invoice.organizationId}, ${p.amount}, ${p.method}, ${p.reference}, ${p.paidAt}, ${at})
        RETURNING id
      ), invoice AS (
        UPDATE invoices i SET amount_paid = i.amount_paid + ${p.amount}, updated_at = ${at},
               status = CASE WHEN ${settles} THEN 'paid' ELSE i.status END,
               paid_at = CASE WHEN ${settles} THEN ${at}::timestamptz ELSE i.paid_at END
         WHERE i.id = ${invoice.id} AND i.status = 'pending'
        RETURNING i.*
      ), request AS (${requestChange})
      SELECT 1`);
    // Its event in a second statement, which sees the payment just recorded among manualPayments.
    if (settles)
      await this.db.exec(
        invoiceEvents(sql`invoices i WHERE i.id = ${invoice.id}`, 'invoice-paid', at, this.publicUrl),
      );
  }

  /**
   * Locks the invoice's payment request, then the invoice (the order of pay and settlement), for a
   * payment recorded by hand: the invoice, whether a payment of its request is with the bank, and
   * the request's application fee (null: none).
   */
  async lockForManualPayment(
    invoice: Invoice,
  ): Promise<(Invoice & { paymentInProgress: boolean; applicationFee: number | null }) | undefined> {
    await this.db.exec(lockRequest(invoice.paymentRequestId!));
    return this.db.one(sql`
      SELECT ${INVOICE_COLUMNS}, ${hasPendingPayment(raw('i.payment_request_id'))} AS "paymentInProgress",
             ${applicationFeeOf(raw('i.payment_request_id'))} AS "applicationFee"
        FROM invoices i WHERE i.id = ${invoice.id} FOR UPDATE OF i`);
  }

  /** Every invoice the list's filters select, newest first, in batches (the CSV export). */
  async *listAll(
    organizationId: string,
    filter: { id?: string; externalUserId?: string; subscriptionId?: string },
  ): AsyncGenerator<Invoice[]> {
    const where = [sql`i.organization_id = ${organizationId}`];
    if (filter.id !== undefined) where.push(sql`i.id = ${filter.id}`);
    if (filter.subscriptionId !== undefined) where.push(sql`i.subscription_id = ${filter.subscriptionId}`);
    if (filter.externalUserId !== undefined) {
      where.push(sql`i.customer_id = ${customerIdByExternalUser(organizationId, filter.externalUserId)}`);
    }
    yield* keysetBatches<Invoice>(this.db, {
      select: INVOICE_COLUMNS,
      from: sql`FROM invoices i`,
      alias: 'i',
      where,
    });
  }

  /** Locks the invoice (its page pays it only while it is pending); its status. */
  async lockStatus(id: string): Promise<InvoiceStatus | undefined> {
    const row = await this.db.one<{ status: InvoiceStatus }>(
      sql`SELECT status FROM invoices WHERE id = ${id} FOR UPDATE`,
    );
    return row?.status;
  }

  forPage(id: string): Promise<InvoicePageRow | undefined> {
    return this.db.one<InvoicePageRow>(sql`
      SELECT i.id, i.number, i.status, pr.amount, i.period_start AS "periodStart", i.period_end AS "periodEnd",
             i.organization_id AS "organizationId", i.environment_id AS "environmentId", e.kind AS environment,
             o.name AS "merchantName", o.verification_status AS verification, ${this.subscriptions.productNameOf(raw('i.subscription_id'))} AS "productName",
             pr.id AS "paymentRequestId",
             pr.transaction_id AS "transactionId", pr.phone_number AS "phoneNumber",
             ${latestPaymentStatusOf(raw('pr.id'))} AS "paymentStatus"
        FROM invoices i
        JOIN ${paymentRequestRows('pr')} ON pr.id = i.payment_request_id
        JOIN (${ENVIRONMENTS_WITH_ORGANIZATIONS}) ON e.id = i.environment_id AND o.id = i.organization_id
       WHERE i.id = ${id}`);
  }

  /**
   * A keyset page of the environment's invoices, newest first, for the dashboard (an invoice lives
   * in its subscription's environment, like its payment request). The page's ids come off
   * invoices_environment_list_idx or invoices_environment_status_idx (a customer's or a
   * subscription's invoices off their own indexes: few each), then their rows, customers and
   * products for those ids only. No count.
   */
  async search(
    environmentId: string,
    filter: InvoiceSearch,
    page: KeysetQuery,
  ): Promise<KeysetPage<InvoiceListItem>> {
    const where = [sql`i.environment_id = ${environmentId}`];
    if (filter.status !== undefined) where.push(sql`i.status = ${filter.status}`);
    if (filter.customerId !== undefined) where.push(sql`i.customer_id = ${filter.customerId}`);
    if (filter.subscriptionId !== undefined) where.push(sql`i.subscription_id = ${filter.subscriptionId}`);
    const k = keysetClauses('i', page);
    const rows = await this.db.many<InvoiceListItem & { cursor: string }>(sql`
      SELECT ${this.listItemColumns()}, ${cursorColumn('i')}
        FROM (SELECT i.id FROM invoices i WHERE ${and([...where, ...k.where])}
               ORDER BY ${k.orderBy} LIMIT ${k.limit}) page
        JOIN invoices i ON i.id = page.id ${LIST_ITEM_JOINS}
       ORDER BY ${k.orderBy}`);
    return keysetPage(rows, page);
  }

  /** One invoice of the environment with its customer and product (the dashboard's page). */
  detail(environmentId: string, id: string): Promise<InvoiceListItem | undefined> {
    return this.db.one<InvoiceListItem>(sql`
      SELECT ${this.listItemColumns()} FROM invoices i ${LIST_ITEM_JOINS}
       WHERE i.id = ${id} AND i.environment_id = ${environmentId}`);
  }
}
