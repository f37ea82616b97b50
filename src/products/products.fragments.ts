import { raw, Sql } from '../database/sql';

/* The products side of another module's statement (subscriptions show their product). */

/** SQL after FROM or JOIN: the products, as `alias` (id, organization_id, environment_id, name, active), for another module's statement. */
export function productRows(alias: string): Sql {
  return raw(`products ${alias}`);
}
