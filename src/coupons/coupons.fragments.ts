import { raw, SqlRows } from '../database/sql';

/*
 * The coupons side of other modules' statements (the subscriptions' renewals). Declared here, with
 * what each gives; everything else of coupons is CouponsRepository's.
 */

/** SQL after FROM or JOIN: the coupons as `alias`, for the subscriptions' renewals. */
export function couponRows(
  alias: string,
): SqlRows<{ id: string; percent_off: number | null; amount_off: number | null }> {
  return raw(`coupons ${alias}`);
}
