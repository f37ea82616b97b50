import { ApiProperty } from '@nestjs/swagger';
import { isoUtc, raw, Sql, sql } from '../database/sql';
import { hasOverdueInvoice } from '../invoices/invoices.fragments';
import type { PriceInterval } from '../prices/price';

export const SUBSCRIPTION_STATUSES = [
  'trialing',
  'active',
  'past_due',
  'paused',
  'pending_cancellation',
  'cancelled',
  'expired',
  'incomplete',
  'incomplete_expired',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * The status as stored. `past_due` is not one: it is an `active` subscription with an invoice
 * still pending after its due date (the start of the next period), derived when read
 * (`subscriptionStatus`). So paying the last overdue invoice makes the subscription active in the
 * payment's own statement without touching the subscription row, and no race between a payment
 * and the billing run can leave the status disagreeing with the invoices (docs/billing.md).
 */
export type StoredStatus = Exclude<SubscriptionStatus, 'past_due' | 'incomplete'>;

/** The statuses in which a subscription is still current (get by external user prefers these). */
export const CURRENT_STATUSES: readonly SubscriptionStatus[] = [
  'trialing',
  'active',
  'past_due',
  'paused',
  'pending_cancellation',
  'incomplete',
];

/** A subscription as the code handles it (a `subscriptions` row, camelCased). */
export interface Subscription {
  id: string;
  organizationId: string;
  environmentId: string;
  customerId: string;
  priceId: string;
  /** Units of the price billed each period (1–10,000). */
  quantity: number;
  /** A change at period end: the price and quantity the next period bills (both or neither). */
  pendingPriceId: string | null;
  pendingQuantity: number | null;
  /** The applied coupon (null: none), the periods it has discounted, and after how many it ends (null: never). */
  couponId: string | null;
  discountPeriodsApplied: number;
  discountEndsAfter: number | null;
  status: StoredStatus;
  trialEnd: Date | null;
  startedAt: Date;
  /** Period n of the current cycle starts at billingAnchor + n × billingInterval (periods.ts). */
  billingAnchor: Date;
  billingInterval: PriceInterval;
  /** The index, in the current cycle, of the next period to bill. */
  nextPeriod: number;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  nextBillingDate: Date | null;
  expiresAt: Date | null;
  cancelledAt: Date | null;
  pausedAt: Date | null;
  /**
   * Set while a subscription created with requireFirstPayment waits for its first invoice: the
   * moment it expires unpaid. It shows `incomplete` (derived, as past_due is) until then.
   */
  firstPaymentDueBy: Date | null;
  /** Basis points of each invoice its connected account pays its platform (docs/platforms.md); null: none. */
  applicationFeeBps: number | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The columns of a subscription under the alias `s`, named as Subscription's properties. */
export const SUBSCRIPTION_COLUMNS = raw(
  `s.id, s.organization_id AS "organizationId", s.environment_id AS "environmentId",
   s.customer_id AS "customerId", s.price_id AS "priceId", s.quantity,
   s.pending_price_id AS "pendingPriceId", s.pending_quantity AS "pendingQuantity", s.coupon_id AS "couponId",
   s.discount_periods_applied AS "discountPeriodsApplied", s.discount_ends_after AS "discountEndsAfter", s.status, s.trial_end AS "trialEnd",
   s.started_at AS "startedAt", s.billing_anchor AS "billingAnchor", s.billing_interval AS "billingInterval",
   s.next_period AS "nextPeriod", s.current_period_start AS "currentPeriodStart",
   s.current_period_end AS "currentPeriodEnd", s.next_billing_date AS "nextBillingDate",
   s.expires_at AS "expiresAt", s.cancelled_at AS "cancelledAt", s.paused_at AS "pausedAt",
   s.first_payment_due_by AS "firstPaymentDueBy", s.application_fee_bps AS "applicationFeeBps",
   s.created_at AS "createdAt", s.updated_at AS "updatedAt"`,
);

/**
 * SQL on alias `s`: the subscription has an invoice still pending after its due date. (The
 * invoice's environment is the subscription's: saying so lets a filter start from the
 * environment's overdue invoices, by index.)
 */
export function overdueSql(at: Sql = sql`now()`): Sql {
  return hasOverdueInvoice({ subscriptionId: raw('s.id'), environmentId: raw('s.environment_id'), at });
}

/**
 * The status the API shows: `past_due` when an active subscription has an overdue invoice, and
 * `incomplete` when that invoice is the first one a subscription requiring a first payment waits for
 * (due at creation: docs/billing.md "Subscriptions that require a first payment").
 */
export function subscriptionStatus(
  stored: StoredStatus,
  overdue: boolean,
  firstPaymentDueBy: Date | null = null,
): SubscriptionStatus {
  if (stored !== 'active' || !overdue) return stored;
  return firstPaymentDueBy !== null ? 'incomplete' : 'past_due';
}

/** A change at period end, waiting for the period that bills it. */
export class PendingChangeJson {
  @ApiProperty({ format: 'uuid' }) priceId!: string;
  @ApiProperty({ type: 'integer' }) quantity!: number;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When it applies: the start of the next period',
  })
  effectiveAt!: string | null;
}

/** The coupon applied to a subscription. */
export class DiscountJson {
  @ApiProperty({ format: 'uuid' }) couponId!: string;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'After how many discounted periods it ends (null: forever)',
  })
  endsAfterPeriods!: number | null;
  @ApiProperty({ type: 'integer', description: 'Periods discounted so far' }) periodsApplied!: number;
}

/** The subscription record, as the API and webhook events show it. */
export class SubscriptionJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) customerId!: string;
  @ApiProperty({
    format: 'uuid',
    description: 'The price it was created with; each renewal bills its current amount',
  })
  priceId!: string;
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: 10000,
    description: 'Units of the price billed each period: each invoice is the price’s amount × quantity',
  })
  quantity!: number;
  @ApiProperty({
    type: PendingChangeJson,
    nullable: true,
    description: 'A change of price or quantity made for period end (POST /subscriptions/:id/change)',
  })
  pendingChange!: PendingChangeJson | null;
  @ApiProperty({
    type: DiscountJson,
    nullable: true,
    description: 'The applied coupon (docs/billing.md "Coupons")',
  })
  discount!: DiscountJson | null;
  @ApiProperty({ enum: SUBSCRIPTION_STATUSES }) status!: SubscriptionStatus;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) trialEnd!: string | null;
  @ApiProperty({ format: 'date-time' }) startedAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) currentPeriodStart!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) currentPeriodEnd!: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the next period starts and is invoiced; null once no further period will be billed',
  })
  nextBillingDate!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expiresAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) cancelledAt!: string | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Basis points of each invoice the connected account pays its platform; null: none',
  })
  applicationFeeBps!: number | null;
  @ApiProperty({ format: 'uuid' }) environmentId!: string;
  @ApiProperty({ format: 'uuid' }) organizationId!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

const isoOrNull = (d: Date | null) => d?.toISOString() ?? null;

export function toSubscriptionJson(s: Subscription, overdue: boolean): SubscriptionJson {
  return {
    id: s.id,
    customerId: s.customerId,
    priceId: s.priceId,
    quantity: s.quantity,
    pendingChange:
      s.pendingPriceId === null
        ? null
        : {
            priceId: s.pendingPriceId,
            quantity: s.pendingQuantity!,
            effectiveAt: isoOrNull(s.nextBillingDate),
          },
    discount:
      s.couponId === null
        ? null
        : {
            couponId: s.couponId,
            endsAfterPeriods: s.discountEndsAfter,
            periodsApplied: s.discountPeriodsApplied,
          },
    status: subscriptionStatus(s.status, overdue, s.firstPaymentDueBy),
    trialEnd: isoOrNull(s.trialEnd),
    startedAt: s.startedAt.toISOString(),
    currentPeriodStart: isoOrNull(s.currentPeriodStart),
    currentPeriodEnd: isoOrNull(s.currentPeriodEnd),
    nextBillingDate: isoOrNull(s.nextBillingDate),
    expiresAt: isoOrNull(s.expiresAt),
    cancelledAt: isoOrNull(s.cancelledAt),
    applicationFeeBps: s.applicationFeeBps,
    environmentId: s.environmentId,
    organizationId: s.organizationId,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/**
 * `toSubscriptionJson` in SQL, on alias `s` with the status given as SQL, for events recorded by
 * a statement (the payment that makes a subscription active again). A test compares the two.
 */
export function subscriptionJsonSql(status: Sql): Sql {
  return sql`jsonb_build_object(
    'id', s.id, 'customerId', s.customer_id, 'priceId', s.price_id, 'quantity', s.quantity,
    'pendingChange', CASE WHEN s.pending_price_id IS NOT NULL THEN jsonb_build_object('priceId', s.pending_price_id,
      'quantity', s.pending_quantity, 'effectiveAt', ${isoUtc('s.next_billing_date')}) END,
    'discount', CASE WHEN s.coupon_id IS NOT NULL THEN jsonb_build_object('couponId', s.coupon_id,
      'endsAfterPeriods', s.discount_ends_after, 'periodsApplied', s.discount_periods_applied) END,
    'status', ${status},
    'trialEnd', ${isoUtc('s.trial_end')}, 'startedAt', ${isoUtc('s.started_at')},
    'currentPeriodStart', ${isoUtc('s.current_period_start')}, 'currentPeriodEnd', ${isoUtc('s.current_period_end')},
    'nextBillingDate', ${isoUtc('s.next_billing_date')}, 'expiresAt', ${isoUtc('s.expires_at')},
    'cancelledAt', ${isoUtc('s.cancelled_at')}, 'applicationFeeBps', s.application_fee_bps,
    'environmentId', s.environment_id,
    'organizationId', s.organization_id, 'createdAt', ${isoUtc('s.created_at')}, 'updatedAt', ${isoUtc('s.updated_at')})`;
}
