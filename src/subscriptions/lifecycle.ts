import { discountOf } from '../coupons/coupon';
import type { PriceInterval } from '../prices/price';
import { periodStart, periodsStartedBy, TrialPeriod, trialEnd as trialEndAfter } from './periods';
import { StoredStatus, Subscription } from './subscription';
import { SubscriptionError, subscriptionError } from './subscriptions.errors';

/*
 * A subscription's life as pure functions of its state and the time (docs/billing.md): starting,
 * the billing run's renewal (periods, catch-up, expiry, the end of a cancellation), pause, resume
 * and cancel. The services load, lock and write; every rule is here, unit-tested.
 */

/** Creation inputs, parsed. `trial` undefined: a trial when a trialPeriod or trialEnd is given. */
export interface SubscriptionTerms {
  trial?: boolean;
  trialPeriod?: TrialPeriod;
  trialEnd?: Date;
  startedAt?: Date;
  expiresAt?: Date;
  /** Starts `incomplete`, its first invoice due at once (not with a trial: 400). */
  requireFirstPayment?: boolean;
  /** Units of the price billed each period (default 1). */
  quantity?: number;
}

/** The dates creation inputs describe: 400 when they cannot describe a subscription. */
export function resolveTerms(
  terms: SubscriptionTerms,
  now: Date,
): { startedAt: Date; trialEnd: Date | null; expiresAt: Date | null } {
  const startedAt = terms.startedAt ?? now;
  const trial = terms.trial ?? (terms.trialPeriod !== undefined || terms.trialEnd !== undefined);
  let trialEnd: Date | null = null;
  if (trial) {
    if (terms.trialEnd === undefined && terms.trialPeriod === undefined)
      throw subscriptionError(SubscriptionError.TrialNeedsPeriodOrEnd);
    trialEnd = terms.trialEnd ?? trialEndAfter(startedAt, terms.trialPeriod!);
    if (trialEnd <= startedAt) throw subscriptionError(SubscriptionError.TrialEndNotAfterStart);
  }
  if (trial && terms.requireFirstPayment) throw subscriptionError(SubscriptionError.TrialWithFirstPayment);
  if (terms.expiresAt !== undefined && terms.expiresAt <= startedAt)
    throw subscriptionError(SubscriptionError.ExpiresAtNotAfterStart);
  return { startedAt, trialEnd, expiresAt: terms.expiresAt ?? null };
}

/**
 * Periods a new subscription may have started already (a backdated `startedAt`): all are billed
 * in the creating request, so a start further back is refused rather than billed for hours.
 */
export const MAX_PERIODS_AT_CREATION = 100;

/**
 * A new subscription, before any period is billed. Without a trial the first period starts at
 * `startedAt` (default now); with one, status is `trialing` and the first period starts at the
 * trial's end (the trial is the current period until then). A given trialEnd wins over a trialPeriod.
 * More than `MAX_PERIODS_AT_CREATION` periods already started: 400.
 */
export function startSubscription(
  ids: Pick<Subscription, 'id' | 'organizationId' | 'environmentId' | 'customerId' | 'applicationFeeBps'>,
  price: { id: string; interval: PriceInterval },
  terms: SubscriptionTerms,
  now: Date,
): Subscription {
  const { startedAt, trialEnd, expiresAt } = resolveTerms(terms, now);
  const anchor = trialEnd ?? startedAt;
  // The periods its creation bills: those started by now, none from expiresAt on.
  const billedUntil = expiresAt !== null && expiresAt <= now ? new Date(expiresAt.getTime() - 1) : now;
  if (periodsStartedBy(anchor, price.interval, billedUntil) > MAX_PERIODS_AT_CREATION)
    throw subscriptionError(SubscriptionError.StartTooFarInPast);
  return {
    ...ids,
    priceId: price.id,
    quantity: terms.quantity ?? 1,
    pendingPriceId: null,
    pendingQuantity: null,
    couponId: null,
    discountPeriodsApplied: 0,
    discountEndsAfter: null,
    status: trialEnd ? 'trialing' : 'active',
    trialEnd,
    startedAt,
    billingAnchor: anchor,
    billingInterval: price.interval,
    nextPeriod: 0,
    currentPeriodStart: trialEnd ? startedAt : null,
    currentPeriodEnd: trialEnd,
    nextBillingDate: anchor,
    expiresAt,
    cancelledAt: null,
    pausedAt: null,
    firstPaymentDueBy: terms.requireFirstPayment ? new Date(now.getTime() + FIRST_PAYMENT_WINDOW_MS) : null,
    createdAt: now,
    updatedAt: now,
  };
}

/** How long a subscription created with requireFirstPayment waits for its first invoice to be paid. */
export const FIRST_PAYMENT_WINDOW_MS = 23 * 3_600_000;

/** What a renewal needs besides the subscription: its price now, and its oldest unpaid invoice. */
export interface RenewalInput {
  subscription: Subscription;
  /** Its price now; `name`: what invoice lines say (its product's name). */
  price: { amount: number; interval: PriceInterval; name?: string };
  /** The price of its change at period end (`pendingPriceId`), when it has one. */
  pendingPrice?: { amount: number; interval: PriceInterval; name?: string } | null;
  /** The applied coupon's discount (`couponId`), when it has one. */
  coupon?: { percentOff: number | null; amountOff: number | null } | null;
  /** The due date of its oldest invoice still pending, if any. */
  oldestUnpaidDue: Date | null;
}

export interface BilledPeriod {
  start: Date;
  end: Date;
  /** The price's amount at the time of billing, and its product's name. */
  unitAmount: number;
  description: string;
  quantity: number;
  /** What the period costs before any discount or credit: unitAmount × quantity. */
  amount: number;
  /** Taken off by the coupon (0: none). */
  discount: number;
  /** The subscription once this period is billed, and whether it then has an overdue invoice. */
  subscription: Subscription;
  overdue: boolean;
  /** The invoice's due date when it is not the period's end (a first payment: due at once). */
  due?: Date;
}

export interface Renewal {
  /** Billed in order, at most `maxPeriods`. */
  periods: BilledPeriod[];
  /** The subscription after the renewal. */
  subscription: Subscription;
  overdue: boolean;
  /** It ended now: `cancelled` (its pending invoices are voided) or `expired`. */
  ended: 'cancelled' | 'expired' | 'incomplete_expired' | null;
  changed: boolean;
}

/** Periods billed for one subscription in one pass; a subscription further behind stays due for the next. */
export const MAX_PERIODS_PER_PASS = 100;

/**
 * When the billing run next has something to do with the subscription (what the database's
 * generated `subscriptions.due_at` computes, the claims' index): a trialing or active one at its
 * next billing date, a cancellation at its period's end, a paused one at its expiry; or never.
 */
export function dueAt(s: Subscription): Date | null {
  const earliest = (a: Date | null, b: Date | null) => (a === null ? b : b === null || a <= b ? a : b);
  if (s.status === 'trialing' || s.status === 'active') return earliest(s.nextBillingDate, s.expiresAt);
  if (s.status === 'pending_cancellation') return earliest(s.currentPeriodEnd, s.expiresAt);
  if (s.status === 'paused') return s.expiresAt;
  return null;
}

/**
 * Brings a subscription up to `now` (the billing run, and every change made through the API
 * first): every period that has started gets its invoice, in order, missed ones included, each at
 * the price's amount now; a price whose interval changed continues from the current period's end
 * on the new interval. No period starts at or after `expiresAt`, and from `expiresAt` on the
 * subscription is `expired`. A cancellation at period end takes effect at the period's end. A
 * paused subscription bills nothing.
 */
export function renew(input: RenewalInput, now: Date, maxPeriods = MAX_PERIODS_PER_PASS): Renewal {
  let { price } = input;
  const overdueBefore = input.oldestUnpaidDue !== null && input.oldestUnpaidDue <= now;
  const periods: BilledPeriod[] = [];
  let s = input.subscription;
  let ended: Renewal['ended'] = null;

  const expire = (): Subscription => ({
    ...s,
    status: 'expired',
    nextBillingDate: null,
    pausedAt: null,
    updatedAt: now,
  });
  const expiresBy = (at: Date) => s.expiresAt !== null && s.expiresAt <= at;

  for (;;) {
    if (s.status === 'paused') {
      if (expiresBy(now)) [s, ended] = [expire(), 'expired'];
      break;
    }
    if (s.status === 'pending_cancellation') {
      const end = s.currentPeriodEnd!;
      if (expiresBy(now) && expiresBy(end)) [s, ended] = [expire(), 'expired'];
      else if (end <= now)
        [s, ended] = [
          { ...s, status: 'cancelled', cancelledAt: end, nextBillingDate: null, updatedAt: now },
          'cancelled',
        ];
      break;
    }
    if (s.status !== 'trialing' && s.status !== 'active') break;
    // A first payment awaited: unpaid by its time, the subscription ends (its invoice voided);
    // paid, it is an ordinary active subscription from then on.
    if (s.firstPaymentDueBy !== null && s.firstPaymentDueBy <= now) {
      if (input.oldestUnpaidDue !== null) {
        s = {
          ...s,
          status: 'incomplete_expired',
          nextBillingDate: null,
          firstPaymentDueBy: null,
          updatedAt: now,
        };
        ended = 'incomplete_expired';
        break;
      }
      s = { ...s, firstPaymentDueBy: null, updatedAt: now };
    }

    const next = s.nextBillingDate!;
    if (s.expiresAt !== null && next >= s.expiresAt) {
      if (expiresBy(now)) [s, ended] = [expire(), 'expired'];
      break;
    }
    if (next > now || periods.length >= maxPeriods) break;

    // A change made for period end: this period bills the new price and quantity.
    if (s.pendingPriceId !== null && input.pendingPrice) {
      s = {
        ...s,
        priceId: s.pendingPriceId,
        quantity: s.pendingQuantity!,
        pendingPriceId: null,
        pendingQuantity: null,
      };
      price = input.pendingPrice;
    }

    // A price whose interval changed in place: a new cycle from this period on.
    const cycle =
      price.interval === s.billingInterval
        ? { anchor: s.billingAnchor, n: s.nextPeriod }
        : { anchor: next, n: 0 };
    const end = periodStart(cycle.anchor, price.interval, cycle.n + 1);
    s = {
      ...s,
      status: 'active',
      billingAnchor: cycle.anchor,
      billingInterval: price.interval,
      nextPeriod: cycle.n + 1,
      currentPeriodStart: next,
      currentPeriodEnd: end,
      nextBillingDate: end,
      updatedAt: now,
    };
    // The coupon discounts this period if it has periods left; its last one ends it.
    let discount = 0;
    if (s.couponId !== null && input.coupon) {
      discount = discountOf(input.coupon, price.amount * s.quantity);
      const applied = s.discountPeriodsApplied + 1;
      s =
        s.discountEndsAfter !== null && applied >= s.discountEndsAfter
          ? { ...s, couponId: null, discountPeriodsApplied: 0, discountEndsAfter: null }
          : { ...s, discountPeriodsApplied: applied };
    }
    periods.push({
      start: next,
      end,
      discount,
      unitAmount: price.amount,
      description: price.name ?? '',
      quantity: s.quantity,
      amount: price.amount * s.quantity,
      subscription: s,
      overdue: false,
    });
  }

  // An invoice is overdue from its due date, the end of its period: any older invoice still
  // pending, and each period billed here whose end has passed (all but the current one).
  let overdue = overdueBefore;
  for (const p of periods) {
    overdue ||= p.end <= now;
    p.overdue = overdue;
  }

  return {
    periods,
    subscription: s,
    overdue,
    ended,
    changed: s !== input.subscription,
  };
}

export interface Change {
  subscription: Subscription;
  changed: boolean;
  /** Its pending invoices are voided (cancelled now). */
  voidInvoices: boolean;
}

const unchanged = (s: Subscription): Change => ({ subscription: s, changed: false, voidInvoices: false });

/** No invoices while paused. Pausing a paused subscription changes nothing. */
export function pause(s: Subscription, now: Date): Change {
  switch (s.status) {
    case 'paused':
      return unchanged(s);
    case 'trialing':
    case 'active':
      return {
        subscription: { ...s, status: 'paused', pausedAt: now, updatedAt: now },
        changed: true,
        voidInvoices: false,
      };
    case 'pending_cancellation':
    case 'cancelled':
    case 'expired':
    case 'incomplete_expired':
      throw subscriptionError(SubscriptionError.CannotBePaused, s.status);
  }
}

/**
 * Resume → `active` (shown `past_due` while an invoice is overdue), or `trialing` while the trial
 * runs. Periods that would have started during the pause are not billed: when the next billing
 * date has passed, a new cycle starts now (its first period billed at once). Resuming a
 * subscription pending cancellation keeps it (the cancellation is withdrawn). Resuming one that is
 * already running changes nothing.
 */
export function resume(s: Subscription, now: Date): Change {
  const running = (): StoredStatus => (s.trialEnd !== null && now < s.trialEnd ? 'trialing' : 'active');
  switch (s.status) {
    case 'trialing':
    case 'active':
      return unchanged(s);
    case 'paused': {
      const skipped = s.nextBillingDate !== null && s.nextBillingDate <= now;
      const resumed: Subscription = skipped
        ? { ...s, status: 'active', billingAnchor: now, nextPeriod: 0, nextBillingDate: now }
        : { ...s, status: running() };
      return {
        subscription: { ...resumed, pausedAt: null, updatedAt: now },
        changed: true,
        voidInvoices: false,
      };
    }
    case 'pending_cancellation':
      return {
        subscription: {
          ...s,
          status: running(),
          nextBillingDate: periodStart(s.billingAnchor, s.billingInterval, s.nextPeriod),
          updatedAt: now,
        },
        changed: true,
        voidInvoices: false,
      };
    case 'cancelled':
    case 'expired':
    case 'incomplete_expired':
      throw subscriptionError(SubscriptionError.CannotBeResumed, s.status);
  }
}

/**
 * Cancel now: `cancelled`, and its unpaid invoices become `void`. At period end: `pending_cancellation`
 * until the current period (or trial) ends, billing nothing more; without a period still running
 * it is cancelled now. Cancelling a cancelled (or expired) subscription changes nothing.
 */
export function cancel(s: Subscription, atPeriodEnd: boolean, now: Date): Change {
  switch (s.status) {
    case 'cancelled':
    case 'expired':
    case 'incomplete_expired':
      return unchanged(s);
    case 'pending_cancellation':
      if (atPeriodEnd) return unchanged(s);
      break;
    case 'trialing':
    case 'active':
    case 'paused':
      if (atPeriodEnd && s.currentPeriodEnd !== null && s.currentPeriodEnd > now) {
        return {
          subscription: {
            ...s,
            status: 'pending_cancellation',
            nextBillingDate: null,
            pausedAt: null,
            updatedAt: now,
          },
          changed: true,
          voidInvoices: false,
        };
      }
  }
  return {
    subscription: {
      ...s,
      status: 'cancelled',
      cancelledAt: now,
      nextBillingDate: null,
      pausedAt: null,
      updatedAt: now,
    },
    changed: true,
    voidInvoices: true,
  };
}
