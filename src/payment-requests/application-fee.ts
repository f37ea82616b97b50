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
