import { raw, Sql, sql, SqlRows, SqlValue } from '../database/sql';

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

/**
 * A data-modifying CTE body adding to the credit balance of each customer of `deltas` (SQL after
 * FROM, alias it; columns customer_id, delta: whole MRU, negative when credit is taken off an
 * invoice), returning the ids changed. The customers must be locked by the caller (`lockCredits`)
 * before their credit was read; the balance's CHECK refuses going below 0 whatever happens.
 */
export function adjustCreditsCte(deltas: Sql, at: Date): SqlRows<{ id: string }> {
  return sql`UPDATE customers c SET credit_balance = c.credit_balance + d.delta, updated_at = ${at}
      FROM ${deltas} WHERE c.id = d.customer_id AND d.delta <> 0
    RETURNING c.id`;
}
