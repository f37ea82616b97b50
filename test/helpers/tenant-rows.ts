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

/** An organization's Sandbox with a Masrivi payment method and one completed payment, inserted directly. */
export interface PaymentRows {
  organizationId: string;
  environmentId: string;
  paymentRequestId: string;
  paymentId: string;
  amount: number;
}

/**
 * An organization with a Sandbox environment, a payment request of `amount` and its completed
 * payment, inserted directly: for the repositories' tests against the schema, below the API.
 */
export async function completedPayment(c: Client, amount: number): Promise<PaymentRows> {
  const organizationId = randomUUID();
  await c.query(`INSERT INTO organizations (id, name) VALUES ($1, 'Shop')`, [organizationId]);
  const environmentId = randomUUID();
  await c.query(`INSERT INTO environments (id, organization_id, kind) VALUES ($1, $2, 'sandbox')`, [
    environmentId,
    organizationId,
  ]);
  const [method] = (
    await c.query(
      `INSERT INTO payment_methods (environment_id, type, name, requires_pass_code, code)
       VALUES ($1, 'masrivi', 'Masrivi', false, 'masrivi') RETURNING id`,
      [environmentId],
    )
  ).rows;
  const paymentRequestId = randomUUID();
  await c.query(
    `INSERT INTO payment_requests (id, environment_id, transaction_id, amount) VALUES ($1, $2, $3, $4)`,
    [paymentRequestId, environmentId, `order-${paymentRequestId}`, amount],
  );
  const paymentId = randomUUID();
  await c.query(
    `INSERT INTO payments (id, environment_id, payment_request_id, payment_method_id, amount, phone_number,
                           status, completed_at, next_check_at)
     VALUES ($1, $2, $3, $4, $5, '22123456', 'completed', now(), now())`,
    [paymentId, environmentId, paymentRequestId, method.id, amount],
  );
  return { organizationId, environmentId, paymentRequestId, paymentId, amount };
}
