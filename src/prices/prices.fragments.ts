import { raw, Sql } from '../database/sql';

/* The prices side of another module's statement (subscriptions show their price). */

/** SQL after FROM or JOIN: the prices, as `alias` (id, product_id, amount, interval, active), for another module's statement. */
export function priceRows(alias: string): Sql {
  return raw(`prices ${alias}`);
}
