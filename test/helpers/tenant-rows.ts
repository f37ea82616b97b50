import { randomUUID } from 'node:crypto';
import type { Client } from 'pg';

/** The rows `subscriptionTenant` writes: an organization's, with its Sandbox and a subscription. */
export interface SubscriptionTenant {
  id: string;
  environmentId: string;
  customerId: string;
  subscriptionId: string;
}

/**
 * An organization with a Sandbox environment, a customer, a monthly price and an active
 * subscription, inserted directly: for tests of the schema itself (its keys, triggers and
 * migrations), below the API.
 */
export async function subscriptionTenant(c: Client, name = 'Shop'): Promise<SubscriptionTenant> {
  const id = randomUUID();
  await c.query(`INSERT INTO organizations (id, name) VALUES ($1, $2)`, [id, name]);
  const environmentId = randomUUID();
  await c.query(`INSERT INTO environments (id, organization_id, kind) VALUES ($1, $2, 'sandbox')`, [
    environmentId,
    id,
  ]);
  const customerId = randomUUID();
  await c.query(
    `INSERT INTO customers (id, organization_id, external_user_id, phone) VALUES ($1, $2, 'u1', '22123456')`,
    [customerId, id],
  );
  const productId = randomUUID();
  await c.query(
    `INSERT INTO products (id, organization_id, environment_id, name) VALUES ($1, $2, $3, 'Plan')`,
    [productId, id, environmentId],
  );
  const priceId = randomUUID();
  await c.query(
    `INSERT INTO prices (id, organization_id, product_id, amount, interval) VALUES ($1, $2, $3, 1500, 'monthly')`,
    [priceId, id, productId],
  );
  const subscriptionId = randomUUID();
  await c.query(
    `INSERT INTO subscriptions (id, organization_id, environment_id, customer_id, price_id, status, started_at,
                                billing_anchor, billing_interval, next_period, next_billing_date)
     VALUES ($1, $2, $3, $4, $5, 'active', now(), now(), 'monthly', 1, now() + interval '1 month')`,
    [subscriptionId, id, environmentId, customerId, priceId],
  );
  return { id, environmentId, customerId, subscriptionId };
}
