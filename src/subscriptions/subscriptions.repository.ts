import { Injectable } from '@nestjs/common';
import { ClockScope, onClock } from '../test-clocks/test-clocks.fragments';
import type { Page } from '../common/pagination';
import { AppConfig } from '../config/config';
import { couponRows } from '../coupons/coupons.fragments';
import { adjustCreditsCte, customerIdByExternalUser, customerRows } from '../customers/customers.fragments';
import { Db } from '../database/db';
import { cursorColumn, KeysetPage, keysetClauses, keysetPage, KeysetQuery } from '../database/keyset';
import { and, ColumnType, empty, prepared, raw, rowsFrom, Sql, sql } from '../database/sql';
import {
  insertInvoicesCtes,
  lockPendingRequestsOf,
  oldestPendingDueDateOf,
  overdueSubscriptionsOf,
  voidPendingCtes,
} from '../invoices/invoices.fragments';
import { InvoiceReminders } from '../invoices/invoice-reminders';
import { insertRequestsFrom } from '../payment-requests/payment-requests.fragments';
import type { PriceInterval } from '../prices/price';
import { priceRows } from '../prices/prices.fragments';
import { productRows } from '../products/products.fragments';
import { insertEventsFrom, insertEventWhen, NewEvent } from '../webhooks/outbox';
import type { EventKind } from '../webhooks/event-kinds';
import {
  CURRENT_STATUSES,
  overdueSql,
  Subscription,
  SUBSCRIPTION_COLUMNS,
  SubscriptionStatus,
} from './subscription';

/** A subscription with whether it has an overdue invoice (what makes an active one past_due). */
export interface SubscriptionRow extends Subscription {
  overdue: boolean;
}

/** A subscription as the dashboard shows it: with its customer, its price and the price's product. */
export interface SubscriptionListItem extends SubscriptionRow {
  customerExternalUserId: string;
  customerPhone: string | null;
  productId: string;
  productName: string;
  productActive: boolean;
  priceAmount: number;
  priceInterval: PriceInterval;
  priceActive: boolean;
}

const LIST_ITEM_COLUMNS = sql`${SUBSCRIPTION_COLUMNS}, ${overdueSql()} AS overdue,
  c.external_user_id AS "customerExternalUserId", c.phone AS "customerPhone", p.id AS "productId",
  p.name AS "productName", p.active AS "productActive", pr.amount AS "priceAmount", pr.interval AS "priceInterval",
  pr.active AS "priceActive"`;
const LIST_ITEM_JOINS = sql`JOIN ${customerRows('c')} ON c.id = s.customer_id JOIN ${priceRows('pr')} ON pr.id = s.price_id JOIN ${productRows('p')} ON p.id = pr.product_id`;

/** A subscription locked for a renewal, with what the renewal needs to know. */
export interface RenewalRow extends Subscription {
  priceAmount: number;
  priceInterval: PriceInterval;
  /** The name of the price's product: what the invoice lines say. */
  productName: string;
  /** The pending change's price (null: none). */
  pendingPriceAmount: number | null;
  pendingPriceInterval: PriceInterval | null;
  pendingProductName: string | null;
  /** The customer's credit balance as read (locked only when the caller locked the customer). */
  customerCredit: number;
  /** The applied coupon's discount (null: none). */
  couponPercentOff: number | null;
  couponAmountOff: number | null;
  customerPhone: string | null;
  /** The test clock it lives on (its customer's; null: the real clock). */
  testClockId: string | null;
  /** The due date of its oldest pending invoice. */
  oldestUnpaidDue: Date | null;
}

/** A subscription the billing run claimed: `current` false when read older than the version it locked. */
export interface ClaimedRow extends RenewalRow {
  current: boolean;
}

/** An invoice to create, with its payment request's id and phone (no request: nothing to pay, paid at once). */
export interface NewInvoiceRow {
  id: string;
  organization_id: string;
  environment_id: string;
  customer_id: string;
  subscription_id: string;
  amount: number;
  subtotal: number;
  discount: number;
  credit_applied: number;
  lines: object[];
  proration: boolean;
  status: 'pending' | 'paid';
  period_start: Date;
  period_end: Date;
  due_date: Date;
  payment_request_id: string | null;
  phone_number: string | null;
  /** Its payment request's application fee (the subscription's basis points of the amount); null: none. */
  application_fee: number | null;
  /** Its subscription's test clock (null: the real clock). */
  test_clock_id: string | null;
  created_at: Date;
}

/** An event to record; with an invoice id, only if that invoice is created. */
export interface NewEventRow {
  id: string;
  organization_id: string;
  environment_id: string;
  kind: EventKind;
  data: object;
  created_at: Date;
  invoice_id: string | null;
}

const NEW_INVOICE_COLUMNS: { [K in keyof NewInvoiceRow]: ColumnType } = {
  id: 'uuid',
  organization_id: 'uuid',
  environment_id: 'uuid',
  customer_id: 'uuid',
  subscription_id: 'uuid',
  amount: 'integer',
  subtotal: 'integer',
  discount: 'integer',
  credit_applied: 'integer',
  lines: 'jsonb',
  proration: 'boolean',
  status: 'text',
  period_start: 'timestamptz',
  period_end: 'timestamptz',
  due_date: 'timestamptz',
  payment_request_id: 'uuid',
  phone_number: 'text',
  application_fee: 'integer',
  test_clock_id: 'uuid',
  created_at: 'timestamptz',
};

const NEW_EVENT_COLUMNS: { [K in keyof NewEventRow]: ColumnType } = {
  id: 'uuid',
  organization_id: 'uuid',
  environment_id: 'uuid',
  kind: 'text',
  data: 'jsonb',
  created_at: 'timestamptz',
  invoice_id: 'uuid',
};

/** A subscription's new state, as the write statement sets it. */
interface SubscriptionChange {
  id: string;
  price_id: string;
  quantity: number;
  pending_price_id: string | null;
  pending_quantity: number | null;
  coupon_id: string | null;
  discount_periods_applied: number;
  discount_ends_after: number | null;
  status: string;
  billing_anchor: Date;
  billing_interval: string;
  next_period: number;
  current_period_start: Date | null;
  current_period_end: Date | null;
  next_billing_date: Date | null;
  cancelled_at: Date | null;
  paused_at: Date | null;
  first_payment_due_by: Date | null;
  updated_at: Date;
}

const SUBSCRIPTION_CHANGE_COLUMNS: { [K in keyof SubscriptionChange]: ColumnType } = {
  id: 'uuid',
  price_id: 'uuid',
  quantity: 'integer',
  pending_price_id: 'uuid',
  pending_quantity: 'integer',
  coupon_id: 'uuid',
  discount_periods_applied: 'integer',
  discount_ends_after: 'integer',
  status: 'text',
  billing_anchor: 'timestamptz',
  billing_interval: 'text',
  next_period: 'integer',
  current_period_start: 'timestamptz',
  current_period_end: 'timestamptz',
  next_billing_date: 'timestamptz',
  cancelled_at: 'timestamptz',
  paused_at: 'timestamptz',
  first_payment_due_by: 'timestamptz',
  updated_at: 'timestamptz',
};

/** What one statement writes for a batch of renewals or a change made through the API. */
export interface SubscriptionsWrite {
  invoices: NewInvoiceRow[];
  events: NewEventRow[];
  /** The new state of each changed subscription (locked by the caller). */
  updates: Subscription[];
  /** Subscriptions whose pending invoices become void. */
  voidPendingOf: string[];
  /** Credit added to customers' balances (the credit the invoices take off is subtracted as they are inserted). */
  credits: { customer_id: string; delta: number }[];
  /** Some customer's credit balance changes: the statement adjusts balances (else it leaves customers alone). */
  adjustsCredits: boolean;
  at: Date;
}

const RENEWAL_COLUMNS = sql`${SUBSCRIPTION_COLUMNS}, p.amount AS "priceAmount", p.interval AS "priceInterval",
  pd.name AS "productName", c.phone AS "customerPhone", s.test_clock_id AS "testClockId", c.credit_balance AS "customerCredit",
  cp.percent_off AS "couponPercentOff", cp.amount_off AS "couponAmountOff",
  pp.amount AS "pendingPriceAmount", pp.interval AS "pendingPriceInterval", ppd.name AS "pendingProductName",
  ${oldestPendingDueDateOf(raw('s.id'))} AS "oldestUnpaidDue"`;
const RENEWAL_JOINS = sql`JOIN ${priceRows('p')} ON p.id = s.price_id JOIN ${productRows('pd')} ON pd.id = p.product_id
  JOIN ${customerRows('c')} ON c.id = s.customer_id
  LEFT JOIN ${couponRows('cp')} ON cp.id = s.coupon_id
  LEFT JOIN ${priceRows('pp')} ON pp.id = s.pending_price_id LEFT JOIN ${productRows('ppd')} ON ppd.id = pp.product_id`;

/** The status filter of the list, `past_due` and `active` being told apart by the invoices. */
function statusCondition(status: SubscriptionStatus): Sql {
  if (status === 'past_due')
    return sql`s.status = 'active' AND s.first_payment_due_by IS NULL AND ${overdueSql()}`;
  if (status === 'incomplete')
    return sql`s.status = 'active' AND s.first_payment_due_by IS NOT NULL AND ${overdueSql()}`;
  if (status === 'active') return sql`s.status = 'active' AND NOT ${overdueSql()}`;
  return sql`s.status = ${status}`;
}

const isCurrent = raw(
  `s.status IN (${CURRENT_STATUSES.filter((st) => st !== 'past_due' && st !== 'incomplete')
    .map((st) => `'${st}'`)
    .join(', ')})`,
);

/**
 * Subscriptions live in the environment of the key that created them: every read filters by
 * environment. Their invoices, payment requests and events are written set-based, one statement
 * for a whole batch of the billing run (`write`).
 */
@Injectable()
export class SubscriptionsRepository {
  private readonly publicUrl: string;

  constructor(
    private readonly db: Db,
    config: AppConfig,
    private readonly reminders: InvoiceReminders,
  ) {
    this.publicUrl = config.publicUrl;
  }

  /** Inserts the subscription with its `subscription-created` event, in one statement. */
  /** A new subscription, on its customer's test clock (`testClockId`, null: none). */
  async insert(s: Subscription, testClockId: string | null, event: NewEvent): Promise<void> {
    await this.db.exec(sql`
      WITH created AS (
        INSERT INTO subscriptions (id, organization_id, environment_id, customer_id, price_id, quantity, coupon_id,
                                   discount_periods_applied, discount_ends_after, status, trial_end, started_at,
                                   billing_anchor, billing_interval, next_period, current_period_start, current_period_end,
                                   next_billing_date, expires_at, cancelled_at, paused_at, first_payment_due_by, application_fee_bps, test_clock_id,
                                   created_at, updated_at)
        VALUES (${s.id}, ${s.organizationId}, ${s.environmentId}, ${s.customerId}, ${s.priceId}, ${s.quantity}, ${s.couponId},
                ${s.discountPeriodsApplied}, ${s.discountEndsAfter}, ${s.status}, ${s.trialEnd},
                ${s.startedAt}, ${s.billingAnchor}, ${s.billingInterval}, ${s.nextPeriod}, ${s.currentPeriodStart},
                ${s.currentPeriodEnd}, ${s.nextBillingDate}, ${s.expiresAt}, ${s.cancelledAt}, ${s.pausedAt},
                ${s.firstPaymentDueBy}, ${s.applicationFeeBps}, ${testClockId}, ${s.createdAt}, ${s.updatedAt})
        RETURNING id
      ), event AS (${insertEventWhen('created', event)})
      SELECT 1`);
  }

  byId(environmentId: string, id: string): Promise<SubscriptionRow | undefined> {
    return this.db.one<SubscriptionRow>(sql`
      SELECT ${SUBSCRIPTION_COLUMNS}, ${overdueSql()} AS overdue
        FROM subscriptions s WHERE s.id = ${id} AND s.environment_id = ${environmentId}`);
  }

  /**
   * The customer's newest current subscription (trialing, active, past_due, paused, pending
   * cancellation) in the environment, else the newest of any status.
   */
  byExternalUser(
    organizationId: string,
    environmentId: string,
    externalUserId: string,
  ): Promise<SubscriptionRow | undefined> {
    return this.db.one<SubscriptionRow>(sql`
      SELECT ${SUBSCRIPTION_COLUMNS}, ${overdueSql()} AS overdue
        FROM subscriptions s
       WHERE s.environment_id = ${environmentId}
         AND s.customer_id = ${customerIdByExternalUser(organizationId, externalUserId)}
       ORDER BY ${isCurrent} DESC, s.created_at DESC, s.id DESC
       LIMIT 1`);
  }

  /**
   * Newest first; `status` as the API shows it. The page's ids come from the list index alone
   * (an index-only scan, so a deep page skips index entries, not rows), then its rows and whether
   * each is overdue are read for those ids only. The total is counted alongside, as `pageRows` does.
   */
  async list(environmentId: string, filter: { status?: SubscriptionStatus }, page: Page) {
    const where = [sql`s.environment_id = ${environmentId}`];
    if (filter.status !== undefined) where.push(statusCondition(filter.status));
    const order = raw('s.created_at DESC, s.id DESC');
    const [rows, count] = await Promise.all([
      this.db.many<SubscriptionRow>(sql`
        SELECT ${SUBSCRIPTION_COLUMNS}, ${overdueSql()} AS overdue
          FROM (SELECT s.id FROM subscriptions s WHERE ${and(where)}
                 ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}) page
          JOIN subscriptions s ON s.id = page.id
         ORDER BY ${order}`),
      this.db.one<{ total: number }>(this.count(environmentId, filter.status)),
    ]);
    return { rows, total: count!.total };
  }

  /**
   * The list's total from the narrow count index; the `active` ones shown are the stored active
   * ones less the past_due ones (few: found from the overdue invoices), rather than an anti-join
   * over every active subscription.
   */
  private count(environmentId: string, status: SubscriptionStatus | undefined): Sql {
    const of = (condition: Sql) =>
      sql`(SELECT count(*) FROM subscriptions s WHERE s.environment_id = ${environmentId} AND ${condition})`;
    if (status === undefined) return sql`SELECT ${of(sql`true`)}::int AS total`;
    if (status === 'active')
      return sql`SELECT (${of(sql`s.status = 'active'`)} - ${of(sql`s.status = 'active' AND ${overdueSql()}`)})::int AS total`;
    return sql`SELECT ${of(statusCondition(status))}::int AS total`;
  }

  /**
   * Locks one subscription of the environment for a change, then reads what renewing it needs. Two
   * statements, in the caller's transaction: a `FOR UPDATE OF s` on the joined read would, after
   * waiting for a concurrent change of its price (or coupon), recheck the new row against the price
   * row it had already joined and drop it (a 404 for a subscription that exists); the read after
   * the lock sees the committed change instead.
   */
  async lockForRenewal(environmentId: string, id: string): Promise<RenewalRow | undefined> {
    const locked = await this.db.one<{ id: string }>(sql`
      SELECT s.id FROM subscriptions s WHERE s.id = ${id} AND s.environment_id = ${environmentId} FOR UPDATE`);
    if (!locked) return undefined;
    return this.db.one<RenewalRow>(sql`
      SELECT ${RENEWAL_COLUMNS} FROM subscriptions s ${RENEWAL_JOINS} WHERE s.id = ${id}`);
  }

  /**
   * Dunning: up to `limit` subscriptions of the environment in one of `statuses` with an invoice
   * pending since `cutoff` or before, not yet dunned for it: their id and that invoice's due date.
   */
  dunningCandidates(
    environmentId: string,
    cutoff: Date,
    statuses: readonly SubscriptionStatus[],
    limit: number,
    clock: ClockScope = null,
  ): Promise<{ id: string; due: Date }[]> {
    return this.db.many<{ id: string; due: Date }>(sql`
      SELECT s.id, o.due FROM (${overdueSubscriptionsOf(environmentId, cutoff, clock)}) o
        JOIN subscriptions s ON s.id = o.subscription_id
       WHERE s.status = ANY(${statuses}::text[]) AND (s.dunned_through IS NULL OR s.dunned_through < o.due)
       ORDER BY o.due LIMIT ${limit}`);
  }

  /**
   * Locks the subscription and records that it is dunned for the invoice due at `due`, if it still
   * is in one of `statuses` and was not already (by another instance): whether it was recorded.
   */
  async markDunned(
    environmentId: string,
    id: string,
    due: Date,
    statuses: readonly SubscriptionStatus[],
  ): Promise<boolean> {
    const n = await this.db.exec(sql`
      UPDATE subscriptions SET dunned_through = ${due}
       WHERE id = ${id} AND environment_id = ${environmentId} AND status = ANY(${statuses}::text[])
         AND (dunned_through IS NULL OR dunned_through < ${due})`);
    return n === 1;
  }

  /**
   * The next time after `after` a subscription of the test clock is due (a period, a trial end, an
   * expiry); null: none. At each moment of an advance: planned once per connection.
   */
  async nextDueOnClock(clockId: string, after: Date): Promise<Date | null> {
    const row = await this.db.one<{ at: Date | null }>(
      prepared(sql`
      SELECT min(due_at) AS at FROM subscriptions
       WHERE test_clock_id = ${clockId}::uuid AND due_at IS NOT NULL AND due_at > ${after}`),
    );
    return row?.at ?? null;
  }

  /**
   * The billing run's claim: up to `limit` subscriptions due by `now` (in one environment, or
   * all), oldest due first, locked until the caller's transaction ends. SKIP LOCKED: concurrent
   * runs, on any instance, claim disjoint batches; a subscription whose due date a committed
   * batch moved on no longer qualifies when rechecked under the lock.
   *
   * One that a batch committed after this statement began, and that is still due (a subscription
   * further behind than one pass bills), is locked in its new version, while the rows joined to
   * it are read as the statement began, before that batch: such a row comes back with `current`
   * false (its version differs from the locked one's) and must not be renewed from what it says.
   * It stays due, and a later batch, seeing that batch's work, continues it.
   */
  claimDue(
    now: Date,
    limit: number,
    environmentId?: string,
    clock: ClockScope = null,
  ): Promise<ClaimedRow[]> {
    const inEnvironment = environmentId === undefined ? empty : sql`AND environment_id = ${environmentId}`;
    // The claimed rows are read back by their ids (subscriptions_pkey) whatever the planner expects
    // of the claim: it takes `limit` rows for granted, and, against a small table, read all of it to
    // join them (a Sandbox's claim of a few rows, at each moment of a test clock's advance).
    const statement = sql`
      WITH claimed AS (
        SELECT id, xmin FROM subscriptions
         WHERE due_at <= ${now} AND ${onClock(raw('test_clock_id'), clock)} ${inEnvironment}
         ORDER BY due_at
         LIMIT ${limit}
         FOR UPDATE SKIP LOCKED
      )
      SELECT ${RENEWAL_COLUMNS}, s.xmin = claimed.xmin AS current
        FROM claimed JOIN subscriptions s ON s.id = claimed.id ${RENEWAL_JOINS}
       WHERE s.id = ANY(ARRAY(SELECT id FROM claimed))`;
    // A test clock's claim runs at each moment of its advance, hundreds of times for a few rows
    // each: planned once per connection, not each time (the real clock's claims 500 rows at a time).
    return this.db.many<ClaimedRow>(clock === null ? statement : prepared(statement));
  }

  /**
   * Writes renewals or a change, in one statement whatever their number: the invoices (a period
   * already invoiced is skipped, with its request and events), their payment requests, the
   * events, the subscriptions' new state, and the voiding of pending invoices with their events.
   * Invoices this statement creates are not seen by its voiding: void in a later statement.
   * `repeated`: run as a prepared statement (a test clock's batches: few rows, hundreds of times).
   */
  async write(
    w: SubscriptionsWrite,
    { repeated = false }: { repeated?: boolean } = {},
  ): Promise<{ invoices: number; subscriptions: number }> {
    const updates = w.updates.map((s): SubscriptionChange => ({
      id: s.id,
      price_id: s.priceId,
      quantity: s.quantity,
      pending_price_id: s.pendingPriceId,
      pending_quantity: s.pendingQuantity,
      coupon_id: s.couponId,
      discount_periods_applied: s.discountPeriodsApplied,
      discount_ends_after: s.discountEndsAfter,
      status: s.status,
      billing_anchor: s.billingAnchor,
      billing_interval: s.billingInterval,
      next_period: s.nextPeriod,
      current_period_start: s.currentPeriodStart,
      current_period_end: s.currentPeriodEnd,
      next_billing_date: s.nextBillingDate,
      cancelled_at: s.cancelledAt,
      paused_at: s.pausedAt,
      first_payment_due_by: s.firstPaymentDueBy,
      updated_at: s.updatedAt,
    }));
    const voiding =
      w.voidPendingOf.length === 0
        ? empty
        : sql`, ${voidPendingCtes('voided', sql`SELECT unnest(${w.voidPendingOf}::uuid[])`, w.at, this.publicUrl)}`;
    return this.db.transaction(async () => {
      if (w.voidPendingOf.length > 0) await this.db.exec(lockPendingRequestsOf(w.voidPendingOf));
      return this.writeStatement(w, updates, voiding, repeated);
    });
  }

  private async writeStatement(
    w: SubscriptionsWrite,
    updates: SubscriptionChange[],
    voiding: Sql,
    repeated: boolean,
  ): Promise<{ invoices: number; subscriptions: number }> {
    const statement = sql`
      WITH new_invoices AS (
        SELECT * FROM ${rowsFrom('x', w.invoices, NEW_INVOICE_COLUMNS)}
      ), ${insertInvoicesCtes('invoices_created', sql`new_invoices`, this.reminders)}
      , requests_created AS (${insertRequestsFrom(sql`(
          SELECT n.payment_request_id AS id, n.environment_id, n.id::text AS transaction_id, n.amount, n.phone_number,
                 n.id AS invoice_id, n.application_fee, n.test_clock_id, n.created_at
            FROM new_invoices n JOIN invoices_created USING (id) WHERE n.payment_request_id IS NOT NULL) r`)}
      ), new_events AS (
        SELECT * FROM ${rowsFrom('e', w.events, NEW_EVENT_COLUMNS)}
      ), events_created AS (${insertEventsFrom(sql`(
          SELECT e.id, e.organization_id, e.environment_id, e.kind, e.created_at,
                 CASE WHEN e.kind IN ('invoice-created', 'invoice-paid') THEN e.data || jsonb_build_object('number', ic.number)
                      ELSE e.data END AS data
            FROM new_events e LEFT JOIN invoices_created ic ON ic.id = e.invoice_id
           WHERE e.invoice_id IS NULL OR ic.id IS NOT NULL) e`)}
      ), changes AS (
        SELECT * FROM ${rowsFrom('u', updates, SUBSCRIPTION_CHANGE_COLUMNS)}
      ), updated AS (
        UPDATE subscriptions s
           SET price_id = u.price_id, quantity = u.quantity, pending_price_id = u.pending_price_id,
               pending_quantity = u.pending_quantity, coupon_id = u.coupon_id,
               discount_periods_applied = u.discount_periods_applied, discount_ends_after = u.discount_ends_after,
               status = u.status, billing_anchor = u.billing_anchor, billing_interval = u.billing_interval,
               next_period = u.next_period, current_period_start = u.current_period_start,
               current_period_end = u.current_period_end, next_billing_date = u.next_billing_date,
               cancelled_at = u.cancelled_at, paused_at = u.paused_at, first_payment_due_by = u.first_payment_due_by,
               updated_at = u.updated_at
          FROM changes u WHERE s.id = u.id AND s.id = ANY(${w.updates.map((u) => u.id)}::uuid[])
        RETURNING s.id
      )${voiding}${this.creditAdjustment(w)}
      SELECT (SELECT count(*) FROM invoices_created)::int AS invoices, (SELECT count(*) FROM updated)::int AS subscriptions`;
    const row = await this.db.one<{ invoices: number; subscriptions: number }>(
      repeated ? prepared(statement) : statement,
    );
    return row!;
  }

  /** The write's CTE adjusting credit balances: less what its invoices took off, plus what was added. */
  private creditAdjustment(w: SubscriptionsWrite): Sql {
    if (!w.adjustsCredits) return empty;
    return sql`, credits_adjusted AS (${adjustCreditsCte(
      sql`(SELECT customer_id, sum(delta)::int AS delta
             FROM (SELECT customer_id, -credit_applied AS delta FROM invoices_created WHERE credit_applied > 0
                   UNION ALL SELECT k.customer_id, k.delta FROM ${rowsFrom('k', w.credits, { customer_id: 'uuid', delta: 'integer' })}) x
            GROUP BY customer_id) d`,
      w.at,
    )})`;
  }

  /**
   * A keyset page of the environment's subscriptions, newest first, for the dashboard; `status` as
   * the API shows it. The page's ids come off subscriptions_list_idx or subscriptions_status_idx
   * (a customer's, off subscriptions_customer_idx: few), then their rows, customers, prices and
   * products, and whether each is overdue, for those ids only. No count.
   */
  async search(
    environmentId: string,
    filter: { status?: SubscriptionStatus; customerId?: string },
    page: KeysetQuery,
  ): Promise<KeysetPage<SubscriptionListItem>> {
    const where = [sql`s.environment_id = ${environmentId}`];
    if (filter.status !== undefined) where.push(statusCondition(filter.status));
    if (filter.customerId !== undefined) where.push(sql`s.customer_id = ${filter.customerId}`);
    const k = keysetClauses('s', page);
    const rows = await this.db.many<SubscriptionListItem & { cursor: string }>(sql`
      SELECT ${LIST_ITEM_COLUMNS}, ${cursorColumn('s')}
        FROM (SELECT s.id FROM subscriptions s WHERE ${and([...where, ...k.where])}
               ORDER BY ${k.orderBy} LIMIT ${k.limit}) page
        JOIN subscriptions s ON s.id = page.id ${LIST_ITEM_JOINS}
       ORDER BY ${k.orderBy}`);
    return keysetPage(rows, page);
  }

  /** One subscription of the environment with its customer, price and product (the dashboard's page). */
  detail(environmentId: string, id: string): Promise<SubscriptionListItem | undefined> {
    return this.db.one<SubscriptionListItem>(sql`
      SELECT ${LIST_ITEM_COLUMNS} FROM subscriptions s ${LIST_ITEM_JOINS}
       WHERE s.id = ${id} AND s.environment_id = ${environmentId}`);
  }
}
