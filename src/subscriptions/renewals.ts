import { feeOfBps } from '../payment-requests/application-fee';
import { discountOf } from '../coupons/coupon';
import { Injectable } from '@nestjs/common';
import type { ClockScope } from '../test-clocks/test-clocks.fragments';
import { AppConfig } from '../config/config';
import { CustomersService } from '../customers/customers.service';
import { Db } from '../database/db';
import { timeOrderedId } from '../database/time-ordered-id';
import { Invoice, invoiceAmount, InvoiceLineJson, toInvoiceJson } from '../invoices/invoice';
import { PaymentRequest, toPaymentRequestJson } from '../payment-requests/payment-request';
import type { EventKind } from '../webhooks/event-kinds';
import { dueAt, Renewal, renew, RenewalInput } from './lifecycle';
import { Subscription, toSubscriptionJson } from './subscription';
import { RenewalRow, SubscriptionsRepository, SubscriptionsWrite } from './subscriptions.repository';

export interface BatchResult {
  /** Subscriptions claimed by the batch. */
  claimed: number;
  /** Claimed but left to a later batch: another batch moved them on while this one claimed. */
  skipped: number;
  invoicesCreated: number;
  subscriptionsUpdated: number;
  /** The subscriptions whose state changed (`subscriptionsUpdated` of them). */
  updated: string[];
  /** Of `updated`, those still due by the batch's `now` (further behind than one pass bills). */
  stillDue: string[];
}

export function renewalInput(row: RenewalRow): RenewalInput {
  return {
    subscription: row,
    price: { amount: row.priceAmount, interval: row.priceInterval, name: row.productName },
    pendingPrice:
      row.pendingPriceAmount === null
        ? null
        : {
            amount: row.pendingPriceAmount,
            interval: row.pendingPriceInterval!,
            name: row.pendingProductName!,
          },
    coupon:
      row.couponPercentOff === null && row.couponAmountOff === null
        ? null
        : { percentOff: row.couponPercentOff, amountOff: row.couponAmountOff },
    oldestUnpaidDue: row.oldestUnpaidDue,
  };
}

/**
 * Collects what renewals and changes write, as rows for one set-based statement
 * (`SubscriptionsRepository.write`): per billed period an invoice (`pending`, the price's amount,
 * due at the period's end), its payment request (transactionId = the invoice id, the customer's
 * phone) and the events `invoice-created`, `payment-request-created` and `subscription-updated`.
 */
export class SubscriptionsWriteBuilder {
  private readonly w: Omit<SubscriptionsWrite, 'updates'>;
  /** The last state given for each subscription. */
  private readonly updates = new Map<string, Subscription>();
  /** The credit balance left to each customer whose balance the caller locked (`useCredit`). */
  private readonly credits = new Map<string, number>();

  constructor(
    private readonly publicUrl: string,
    readonly at: Date,
  ) {
    this.w = { invoices: [], events: [], voidPendingOf: [], credits: [], adjustsCredits: false, at };
  }

  /**
   * The customer's credit balance, locked by the caller until the write: taken off the invoices
   * this builder makes for them (a customer whose credit is not given here is billed in full).
   */
  useCredit(customerId: string, balance: number): void {
    if (!this.credits.has(customerId)) this.credits.set(customerId, balance);
  }

  /** Credit owed to the customer (a change prorated down): added to their balance by the write. */
  addCredit(customerId: string, amount: number): void {
    this.credits.set(customerId, (this.credits.get(customerId) ?? 0) + amount);
    this.w.credits.push({ customer_id: customerId, delta: amount });
    this.w.adjustsCredits = true;
  }

  get write(): SubscriptionsWrite {
    return { ...this.w, updates: [...this.updates.values()] };
  }

  get isEmpty(): boolean {
    return (
      this.w.invoices.length + this.w.events.length + this.updates.size + this.w.voidPendingOf.length === 0
    );
  }

  /**
   * A renewal of `row`. `creating`: the subscription is being inserted in its renewed state, and
   * its `subscription-created` tells all that `subscription-updated` events would.
   */
  renewal(row: RenewalRow, r: Renewal, { creating = false } = {}): void {
    for (const p of r.periods) {
      const invoiceId = this.invoice(row, {
        start: p.start,
        end: p.end,
        due: p.due ?? p.end,
        proration: false,
        discount: p.discount,
        lines: [
          {
            description: p.description,
            quantity: p.quantity,
            unitAmount: invoiceAmount(p.unitAmount),
            amount: invoiceAmount(p.amount),
            periodStart: p.start.toISOString(),
            periodEnd: p.end.toISOString(),
            proration: false,
          },
        ],
      });
      if (!creating)
        this.event(row, 'subscription-updated', toSubscriptionJson(p.subscription, p.overdue), invoiceId);
    }
    if (!r.changed || creating) return;
    this.updates.set(row.id, r.subscription);
    if (r.ended === 'cancelled' || r.ended === 'incomplete_expired') this.w.voidPendingOf.push(row.id);
    if (r.ended) this.event(row, 'subscription-updated', toSubscriptionJson(r.subscription, r.overdue));
  }

  /**
   * An invoice of `s` for these lines, with its payment request (`transactionId` = the invoice id,
   * the customer's phone) and events `invoice-created` and `payment-request-created`; an invoice of
   * 0 is paid at once, without a request (`invoice-created`, `invoice-paid`). Its number is given
   * by the statement that inserts it (and put in its events there). Returns its id.
   */
  private invoice(
    s: Pick<
      RenewalRow,
      | 'id'
      | 'organizationId'
      | 'environmentId'
      | 'customerId'
      | 'customerPhone'
      | 'applicationFeeBps'
      | 'testClockId'
    >,
    spec: {
      start: Date;
      end: Date;
      due: Date;
      proration: boolean;
      lines: InvoiceLineJson[];
      discount?: number;
    },
  ): string {
    const now = this.at;
    const subtotal = spec.lines.reduce((sum, l) => sum + Number(l.amount), 0);
    const discount = spec.discount ?? 0;
    const credit = this.credits.get(s.customerId) ?? 0;
    const creditApplied = Math.min(credit, subtotal - discount);
    if (creditApplied > 0) {
      this.credits.set(s.customerId, credit - creditApplied);
      this.w.adjustsCredits = true;
    }
    const amount = subtotal - discount - creditApplied;
    const paid = amount === 0;
    const invoice: Invoice = {
      id: timeOrderedId(),
      number: '',
      organizationId: s.organizationId,
      environmentId: s.environmentId,
      customerId: s.customerId,
      subscriptionId: s.id,
      status: paid ? 'paid' : 'pending',
      amount: invoiceAmount(amount),
      subtotal: invoiceAmount(subtotal),
      discount: invoiceAmount(discount),
      creditApplied: invoiceAmount(creditApplied),
      lines: spec.lines,
      periodStart: spec.start,
      periodEnd: spec.end,
      dueDate: spec.due,
      paymentRequestId: paid ? null : timeOrderedId(),
      createdAt: now,
      amountPaid: '0.00',
      manualPayments: [],
    };
    const applicationFee = feeOfBps(amount, s.applicationFeeBps);
    this.w.invoices.push({
      id: invoice.id,
      organization_id: s.organizationId,
      environment_id: s.environmentId,
      customer_id: s.customerId,
      subscription_id: s.id,
      amount,
      subtotal,
      discount,
      credit_applied: creditApplied,
      lines: spec.lines,
      proration: spec.proration,
      status: invoice.status === 'paid' ? 'paid' : 'pending',
      period_start: spec.start,
      period_end: spec.end,
      due_date: spec.due,
      payment_request_id: invoice.paymentRequestId,
      phone_number: s.customerPhone,
      application_fee: applicationFee,
      test_clock_id: s.testClockId,
      created_at: now,
    });
    this.event(s, 'invoice-created', toInvoiceJson(invoice, this.publicUrl), invoice.id);
    if (paid) {
      this.event(s, 'invoice-paid', toInvoiceJson(invoice, this.publicUrl), invoice.id);
      return invoice.id;
    }
    const request: PaymentRequest = {
      id: invoice.paymentRequestId!,
      environmentId: s.environmentId,
      transactionId: invoice.id,
      amount,
      phoneNumber: s.customerPhone,
      status: 'pending',
      paidAt: null,
      invoiceId: invoice.id,
      voidedAt: null,
      paymentLinkId: null,
      testClockId: s.testClockId,
      paymentCount: 0,
      applicationFee,
      createdAt: now,
      updatedAt: now,
    };
    this.event(s, 'payment-request-created', toPaymentRequestJson(request), invoice.id);
    return invoice.id;
  }

  /**
   * The proration of a plan change of `row`: an invoice for `amount` over [start, end) with its
   * payment request when positive (credit the customer has is taken off it), a credit to the
   * customer when negative. `percentOff`: the percentage of the coupon the subscription has at the
   * change, taken off both (rounded half up, as on a period: what a discounted period was paid for
   * is what its unused rest gives back); a fixed-amount coupon is not (docs/billing.md "Coupons").
   */
  proration(
    row: RenewalRow,
    p: { amount: number; start: Date; end: Date },
    description: string,
    percentOff: number | null = null,
  ): void {
    const magnitude = Math.abs(p.amount);
    const discount = percentOff === null ? 0 : discountOf({ percentOff, amountOff: null }, magnitude);
    if (p.amount < 0) {
      if (magnitude - discount > 0) this.addCredit(row.customerId, magnitude - discount);
      return;
    }
    this.invoice(row, {
      start: p.start,
      end: p.end,
      due: p.end,
      proration: true,
      discount,
      lines: [
        {
          description,
          quantity: 1,
          unitAmount: invoiceAmount(p.amount),
          amount: invoiceAmount(p.amount),
          periodStart: p.start.toISOString(),
          periodEnd: p.end.toISOString(),
          proration: true,
        },
      ],
    });
  }

  /** A change made through the API: the new state, its `subscription-updated`, and voiding when cancelled now. */
  change(s: Subscription, overdue: boolean, voidInvoices: boolean): void {
    this.updates.set(s.id, s);
    if (voidInvoices) this.w.voidPendingOf.push(s.id);
    this.event(s, 'subscription-updated', toSubscriptionJson(s, overdue));
  }

  private event(
    s: Pick<Subscription, 'organizationId' | 'environmentId'>,
    kind: EventKind,
    data: object,
    invoiceId: string | null = null,
  ): void {
    this.w.events.push({
      id: timeOrderedId(),
      organization_id: s.organizationId,
      environment_id: s.environmentId,
      kind,
      data,
      created_at: this.at,
      invoice_id: invoiceId,
    });
  }
}

/** Renewing subscriptions: the billing run's batches, and the renewal every API change starts with. */
@Injectable()
export class Renewals {
  private readonly publicUrl: string;

  constructor(
    private readonly db: Db,
    private readonly repo: SubscriptionsRepository,
    private readonly customers: CustomersService,
    config: AppConfig,
  ) {
    this.publicUrl = config.publicUrl;
  }

  builder(at: Date): SubscriptionsWriteBuilder {
    return new SubscriptionsWriteBuilder(this.publicUrl, at);
  }

  /**
   * One batch of the billing run, one transaction of four statements whatever its size: claim up
   * to `limit` subscriptions due by `now` (FOR UPDATE SKIP LOCKED), renew each (pure), write them
   * all in one statement. A process that dies mid-batch leaves nothing of it.
   */
  renewDueBatch(
    now: Date,
    limit: number,
    environmentId?: string,
    clock: ClockScope = null,
  ): Promise<BatchResult> {
    return this.db.transaction(async () => {
      const rows = await this.repo.claimDue(now, limit, environmentId, clock);
      const b = this.builder(now);
      // Customers with credit (few): locked, after their subscriptions as every writer locks them,
      // and their balance read again under the lock, so two batches never spend it twice.
      await this.useCredits(
        b,
        rows.filter((r) => r.current && r.customerCredit > 0).map((r) => r.customerId),
      );
      const updated: string[] = [];
      const stillDue: string[] = [];
      let skipped = 0;
      for (const row of rows) {
        if (!row.current) {
          skipped++;
          continue;
        }
        const r = renew(renewalInput(row), now);
        b.renewal(row, r);
        if (!r.changed) continue;
        updated.push(row.id);
        const due = dueAt(r.subscription);
        if (due !== null && due <= now) stillDue.push(row.id);
      }
      // A test clock's batches, one per moment of its advance, are written by a statement planned
      // once per connection (few rows each, hundreds of times), the real clock's planned each time.
      const written = b.isEmpty
        ? { invoices: 0, subscriptions: 0 }
        : await this.repo.write(b.write, { repeated: clock !== null });
      return {
        claimed: rows.length,
        skipped,
        invoicesCreated: written.invoices,
        subscriptionsUpdated: written.subscriptions,
        updated,
        stillDue,
      };
    });
  }

  /** Locks these customers and gives the builder their credit balances. */
  async useCredits(b: SubscriptionsWriteBuilder, customerIds: string[]): Promise<void> {
    const unique = [...new Set(customerIds)];
    if (unique.length === 0) return;
    for (const [id, balance] of await this.customers.lockCredits(unique)) b.useCredit(id, balance);
  }

  /** Writes what a builder collected (nothing when it is empty). */
  async apply(b: SubscriptionsWriteBuilder): Promise<void> {
    if (!b.isEmpty) await this.repo.write(b.write);
  }
}
