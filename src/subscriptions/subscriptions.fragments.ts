import { raw, Sql, sql, SqlCtes, SqlRows, SqlValue } from '../database/sql';
import { hasOverdueInvoice } from '../invoices/invoices.fragments';
import { priceRows } from '../prices/prices.fragments';
import { productRows } from '../products/products.fragments';
import { insertEventPerRow } from '../webhooks/outbox';
import { subscriptionJsonSql } from './subscription';

/*
 * The subscriptions side of other modules' statements (billing's settlement, invoices' product
 * names). Declared here, with what each gives.
 */

/** SQL: the name of the product the subscription (`subscriptionId`, SQL naming it) bills, its price's product. */
export function productNameOfSubscription(subscriptionId: Sql): SqlValue<string> {
  return sql`(SELECT product.name FROM subscriptions sub
      JOIN ${priceRows('price')} ON price.id = sub.price_id JOIN ${productRows('product')} ON product.id = price.product_id
     WHERE sub.id = ${subscriptionId})`;
}

/** SQL selecting the ids of the cancelled subscriptions, for other modules' statements. */
export const CANCELLED_SUBSCRIPTION_IDS: SqlRows<{ id: string }> = raw(
  `SELECT id FROM subscriptions WHERE status = 'cancelled'`,
);

/**
 * A CTE `<name>` recording `subscription-updated` (status `active`) for each subscription shown
 * past_due until one of `paidInvoices` (SQL naming rows of invoices just paid, alias-free) was
 * paid: it was overdue and was the subscription's last overdue invoice. The settlement statement's
 * part (billing/billing-settlement.ts): the status is derived from the invoices, so the event is
 * all that changes.
 */
export function reactivationEventCte(name: string, paidInvoices: Sql, at: Date): SqlCtes<string> {
  const reactivated = sql`${paidInvoices} paid JOIN subscriptions s ON s.id = paid.subscription_id
       WHERE s.status = 'active' AND paid.due_date <= ${at}
         AND NOT ${hasOverdueInvoice({ subscriptionId: raw('s.id'), at, except: raw('paid.id') })}`;
  return sql`${raw(name)} AS (${insertEventPerRow(reactivated, {
    organizationId: raw('s.organization_id'),
    environmentId: raw('s.environment_id'),
    kind: 'subscription-updated',
    data: subscriptionJsonSql(sql`'active'`),
    createdAt: at,
  })})`;
}
