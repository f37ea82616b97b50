import type { Tenant } from '../organizations/tenant';
import { PaymentRequestError, paymentRequestError } from './payment-requests.errors';

/*
 * Application fees (docs/platforms.md): what a connected account pays its platform out of a
 * payment, moved between their balances by the statement that settles it.
 */

/**
 * The fee of a payment request made by `tenant` (null when none is asked): only a platform acting
 * for a connected account may ask one (400 otherwise), and it may not exceed the amount (400).
 */
export function applicationFeeOf(
  tenant: Pick<Tenant, 'platform'>,
  fee: number | null | undefined,
  amount: number,
): number | null {
  if (fee === undefined || fee === null) return null;
  assertFeeAllowed(tenant);
  if (fee > amount) throw paymentRequestError(PaymentRequestError.ApplicationFeeExceedsAmount);
  return fee;
}

/** 400 `Application fees need a connected account` unless the request acts for one. */
export function assertFeeAllowed(tenant: Pick<Tenant, 'platform'>): void {
  if (!tenant.platform) throw paymentRequestError(PaymentRequestError.ApplicationFeeNeedsAccount);
}

/** The fee of an invoice of a subscription with `bps` basis points: rounded down to whole MRU. */
export function feeOfBps(amount: number, bps: number | null): number | null {
  return bps === null ? null : Math.floor((amount * bps) / 10000);
}

/**
 * The fee a pending request still asks once a payment made by hand lowers what is due from `due`
 * to `dueAfter` (docs/platforms.md "Charge for it"): the fee is taken only on money paid through
 * Khoums, so it shrinks with the amount, pro rata and rounded half up to whole MRU, and is never
 * above `dueAfter`. Exact in integers (BigInt: fee × dueAfter may pass 2^53).
 */
export function feeStillDue(fee: number | null, due: number, dueAfter: number): number | null {
  if (fee === null) return null;
  if (dueAfter >= due) return fee;
  const [f, d, a] = [BigInt(fee), BigInt(due), BigInt(dueAfter)];
  return Number((2n * f * a + d) / (2n * d));
}
