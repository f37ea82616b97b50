import type { PriceInterval } from '../prices/price';
import type { Subscription } from './subscription';
import { SubscriptionError, subscriptionError } from './subscriptions.errors';

/*
 * Changing a subscription's price or quantity (docs/billing.md "Changing plan"), pure: the service
 * first renews the subscription to now, under its lock, then applies this.
 */

export interface PlanChangeRequest {
  /** The new price (its amount and interval now), or the current one. */
  price: { id: string; amount: number; interval: PriceInterval };
  quantity: number;
  /** Bill the difference over the rest of the current period (default true). */
  prorate: boolean;
  at: 'now' | 'period_end';
}

export interface PlanChange {
  subscription: Subscription;
  /**
   * With `at: "now"` and `prorate`, during a billed period: round_half_up((new amount × new
   * quantity − old amount × old quantity) × remaining / period length), whole MRU, over
   * [start, end): invoiced when positive, credited to the customer when negative; null when
   * nothing is prorated (a trial, a pause, no period running, or no difference).
   */
  proration: { amount: number; start: Date; end: Date } | null;
}

/** The statuses in which a subscription takes a change (past_due is an active one). */
const CHANGEABLE = new Set<Subscription['status']>(['trialing', 'active', 'paused', 'pending_cancellation']);

/**
 * `round_half_up(difference × remainingMs / periodMs)` exactly (BigInt: amounts up to 10^12 times
 * milliseconds up to 3.2 × 10^10 pass 2^53). Half up on the magnitude: a credit of 2.5 MRU is 3 MRU,
 * as an invoice of 2.5 MRU is 3 MRU, so the two directions of a change are symmetric.
 */
export function proratedAmount(difference: number, remainingMs: number, periodMs: number): number {
  if (!Number.isInteger(difference) || !Number.isInteger(remainingMs) || !Number.isInteger(periodMs))
    throw new RangeError('proration takes whole MRU and milliseconds');
  if (periodMs <= 0 || remainingMs < 0 || remainingMs > periodMs)
    throw new RangeError('remaining outside the period');
  const numerator = BigInt(Math.abs(difference)) * BigInt(remainingMs);
  const denominator = BigInt(periodMs);
  const rounded = Number((2n * numerator + denominator) / (2n * denominator));
  return difference < 0 ? -rounded : rounded;
}

/**
 * The change of `s` (renewed to `now`, billing `current`) at `now`. Cancelled, expired or
 * incomplete-expired: 409 `Subscription is not active`. A prorated change now between prices of
 * different intervals: 400. Now: the subscription bills the new price and quantity from its next
 * period, and the difference over the rest of this one is prorated when it is active (or pending
 * cancellation) within a billed period; a trial or a pause prorates nothing (nothing of it was
 * billed). At period end: `pendingChange`, applied by the renewal that bills the next period. A
 * change now withdraws a pending one.
 */
export function changePlan(
  s: Subscription,
  current: { amount: number; interval: PriceInterval },
  req: PlanChangeRequest,
  now: Date,
): PlanChange {
  if (!CHANGEABLE.has(s.status)) throw subscriptionError(SubscriptionError.NotActive);
  if (req.at === 'period_end') {
    const same = req.price.id === s.priceId && req.quantity === s.quantity;
    return {
      subscription: {
        ...s,
        pendingPriceId: same ? null : req.price.id,
        pendingQuantity: same ? null : req.quantity,
        updatedAt: now,
      },
      proration: null,
    };
  }
  if (req.prorate && req.price.interval !== s.billingInterval)
    throw subscriptionError(SubscriptionError.ProrationNeedsSameInterval);
  const changed: Subscription = {
    ...s,
    priceId: req.price.id,
    quantity: req.quantity,
    pendingPriceId: null,
    pendingQuantity: null,
    updatedAt: now,
  };
  const start = s.currentPeriodStart;
  const end = s.currentPeriodEnd;
  const billedPeriodRuns =
    (s.status === 'active' || s.status === 'pending_cancellation') &&
    start !== null &&
    end !== null &&
    (s.trialEnd === null || start >= s.trialEnd) &&
    start <= now &&
    now < end;
  if (!req.prorate || !billedPeriodRuns) return { subscription: changed, proration: null };
  const difference = req.price.amount * req.quantity - current.amount * s.quantity;
  const amount = proratedAmount(difference, end.getTime() - now.getTime(), end.getTime() - start.getTime());
  return { subscription: changed, proration: amount === 0 ? null : { amount, start: now, end } };
}
