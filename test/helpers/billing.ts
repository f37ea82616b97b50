import type { InvoiceJson } from '../../src/invoices/invoice';
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
  return res.body.data as InvoiceJson[];
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
  // period_start by way of the far past: a subscription's periods are unique (invoices_period_key,
  // checked row by row), and shifting them in place collides whenever the shift equals the gap
  // between two periods (31 days back from a period that follows a 31-day month) and the later row
  // happens to be updated first.
  await t.query(
    `UPDATE invoices SET period_start = period_start - $2::interval - interval '1000 years',
            period_end = period_end - $2::interval, due_date = due_date - $2::interval,
            reminder_at = reminder_at - $2::interval
      WHERE subscription_id = $1`,
    [subscriptionId, shift],
  );
  await t.query(
    `UPDATE invoices SET period_start = period_start + interval '1000 years' WHERE subscription_id = $1`,
    [subscriptionId],
  );
}

export const DAY = 86_400_000;

/**
 * `n` active weekly subscriptions of one customer whose cycle started at `anchor` and of which
 * nothing is billed yet (as if every instance had been down since): due now, each with one period
 * per started week to bill. Written straight to the database, for runs over thousands.
 */
export async function seedDueSubscriptions(
  t: TestApp,
  org: CreatedOrganization,
  c: { customer: { id: string }; price: { id: string } },
  n: number,
  anchor: Date,
): Promise<void> {
  await t.query(
    `INSERT INTO subscriptions (id, organization_id, environment_id, customer_id, price_id, status, started_at,
                                billing_anchor, billing_interval, next_period, next_billing_date, created_at, updated_at)
     SELECT gen_random_uuid(), $1, $2, $3, $4, 'active', $5, $5, 'weekly', 0, $5, now(), now()
       FROM generate_series(1, $6)`,
    [org.organizationId, org.sandbox.environmentId, c.customer.id, c.price.id, anchor, n],
  );
}

/**
 * The billing of an environment's subscriptions, counted: `untouched` ones have no invoice yet,
 * `billed` ones exactly one invoice per period they moved past.
 */
export async function billingState(t: TestApp, environmentId: string) {
  const [row] = await t.query<{
    subscriptions: number;
    invoices: number;
    periods: number;
    requests: number;
    events: number;
    untouched: number;
    billed: number;
  }>(
    `SELECT (SELECT count(*)::int FROM subscriptions WHERE environment_id = $1) AS subscriptions,
            (SELECT count(*)::int FROM invoices WHERE environment_id = $1) AS invoices,
            (SELECT count(DISTINCT (subscription_id, period_start))::int FROM invoices WHERE environment_id = $1) AS periods,
            (SELECT count(*)::int FROM payment_requests WHERE environment_id = $1 AND invoice_id IS NOT NULL) AS requests,
            (SELECT count(*)::int FROM events WHERE environment_id = $1
               AND kind IN ('invoice-created', 'payment-request-created', 'subscription-updated')) AS events,
            (SELECT count(*)::int FROM subscriptions s WHERE environment_id = $1 AND next_period = 0
               AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.subscription_id = s.id)) AS untouched,
            (SELECT count(*)::int FROM subscriptions s WHERE environment_id = $1 AND s.next_period > 0
               AND (SELECT count(*) FROM invoices i WHERE i.subscription_id = s.id) = s.next_period) AS billed`,
    [environmentId],
  );
  return row;
}
