import { raw, sql, SqlRows, SqlValue } from '../database/sql';

/*
 * The customers side of other modules' statements (invoices, subscriptions): their rows shown with
 * their customer. Declared here, with what each gives.
 */

/** SQL after FROM or JOIN: the customers, as `alias` (id, external_user_id, phone), for another module's statement. */
export function customerRows(
  alias: string,
): SqlRows<{ id: string; external_user_id: string; phone: string | null }> {
  return raw(`customers ${alias}`);
}

/** SQL: the id of the organization's customer with this externalUserId (null: none). */
export function customerIdByExternalUser(
  organizationId: string,
  externalUserId: string,
): SqlValue<string | null> {
  return sql`(SELECT c.id FROM customers c
        WHERE c.organization_id = ${organizationId} AND c.external_user_id = ${externalUserId})`;
}
