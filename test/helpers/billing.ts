import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import type { TestApp } from './app';

/** Products, prices, customers and subscriptions through the API, for billing tests. */

let n = 0;
export const uniqueId = (prefix: string) => `${prefix}_${process.pid}_${Date.now()}_${++n}`;

async function post(t: TestApp, key: string, path: string, body: object) {
  const res = await t.http.post(`/api/v1${path}`).set('Authorization', key).send(body);
  if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${res.text}`);
  return res.body.data;
}

export async function createProduct(t: TestApp, key: string, body: object = {}) {
  return post(t, key, '/products', { name: 'Premium', ...body });
}

export async function createPrice(t: TestApp, key: string, productId: string, body: object = {}) {
  return post(t, key, '/prices', { productId, amount: 1500, interval: 'monthly', ...body });
}

export async function createCustomer(t: TestApp, key: string, body: object = {}) {
  return post(t, key, '/customers', { externalUserId: uniqueId('user'), phone: '22123456', ...body });
}

export async function createSubscription(t: TestApp, key: string, body: object) {
  return post(t, key, '/subscriptions', body);
}

/** A sandbox product with a monthly price of 1500 MRU and a customer with a phone. */
export async function catalog(t: TestApp, org: CreatedOrganization, price: object = {}) {
  const sk = org.sandbox.secretKey;
  const product = await createProduct(t, sk);
  return {
    product,
    price: await createPrice(t, sk, product.id, price),
    customer: await createCustomer(t, sk),
  };
}

/** A sandbox billing run through the API. */
export async function runBilling(
  t: TestApp,
  key: string,
): Promise<{ invoicesCreated: number; subscriptionsUpdated: number }> {
  return post(t, key, '/sandbox/billing/run', {});
}

export async function invoicesOf(t: TestApp, key: string, subscriptionId: string) {
  const res = await t.http
    .get(`/api/v1/invoices?subscriptionId=${subscriptionId}&limit=100`)
    .set('Authorization', key);
  if (res.status !== 200) throw new Error(`GET /invoices: ${res.status} ${res.text}`);
  return res.body.data as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * Moves a subscription back in time by `ms`, as if the clock had run on: its dates and its
 * invoices' periods (so the next billing date is reached, and older invoices become overdue).
 */
export async function timeTravel(t: TestApp, subscriptionId: string, ms: number): Promise<void> {
  const shift = `${ms} milliseconds`;
  await t.query(
    `UPDATE subscriptions SET started_at = started_at - $2::interval, billing_anchor = billing_anchor - $2::interval,
            trial_end = trial_end - $2::interval, current_period_start = current_period_start - $2::interval,
            current_period_end = current_period_end - $2::interval, next_billing_date = next_billing_date - $2::interval,
            expires_at = expires_at - $2::interval, created_at = created_at - $2::interval
      WHERE id = $1`,
    [subscriptionId, shift],
  );
  await t.query(
    `UPDATE invoices SET period_start = period_start - $2::interval, period_end = period_end - $2::interval,
            due_date = due_date - $2::interval
      WHERE subscription_id = $1`,
    [subscriptionId, shift],
  );
}

export const DAY = 86_400_000;
