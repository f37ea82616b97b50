import { Messages } from '../../src/common/errors/messages';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, recordEvent, startTestApp, startWorkerApp, TestApp } from '../helpers/app';
import { catalog, createSubscription, DAY, runBilling, timeTravel } from '../helpers/billing';
import { expectText } from '../helpers/http';
import { waitFor } from '../helpers/poll';
import { ok, Receiver, WORKER_ENV } from '../webhooks/receiver';

/**
 * `GET /metrics` (docs/architecture.md, "Metrics and traces"): Prometheus's text format, behind
 * METRICS_TOKEN; each metric moves after the action it counts.
 */
const TOKEN = 'metrics-token-for-the-tests';
let t: TestApp;
let org: CreatedOrganization;
const receiver = new Receiver();
beforeAll(async () => {
  t = await startWorkerApp({ ...WORKER_ENV, METRICS_TOKEN: TOKEN });
  org = await newTenant(t);
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
  await t.close();
});

async function scrape(): Promise<string> {
  const res = await t.http.get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text;
}

/** The value of one series (0 when absent); `labels` must all match. */
function value(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) total += Number(m[3]);
  }
  return total;
}

/** How much each series moved across `action`. */
async function moved(
  series: [string, Record<string, string>?][],
  action: () => Promise<unknown>,
): Promise<number[]> {
  const before = await scrape();
  await action();
  const after = await scrape();
  return series.map(([name, labels]) => value(after, name, labels) - value(before, name, labels));
}

describe('the token', () => {
  it('is required: a missing or wrong one is 401', async () => {
    expectText(await t.http.get('/metrics'), 401, Messages.invalidMetricsToken);
    expectText(
      await t.http.get('/metrics').set('Authorization', 'Bearer wrong-token-of-some-length'),
      401,
      Messages.invalidMetricsToken,
    );
    expectText(await t.http.get('/metrics').set('Authorization', TOKEN), 401, Messages.invalidMetricsToken);
  });

  it('unset, there is no metrics route: 404 Not found', async () => {
    const plain = await startTestApp();
    try {
      expectText(
        await plain.http.get('/metrics').set('Authorization', `Bearer ${TOKEN}`),
        404,
        Messages.notFound,
      );
    } finally {
      await plain.close();
    }
  });
});

it("declares every metric, and Node's process metrics", async () => {
  // A statement just before: its connection is back in the pool, idle (the pool closes one idle
  // for 10 s, which a loaded machine or a pooler's slower start can let pass since the last one).
  await t.http.get('/api/v1/payment-request').set('Authorization', org.sandbox.secretKey).expect(200);
  const text = await scrape();
  for (const name of [
    'khoums_http_requests_total',
    'khoums_http_request_duration_seconds',
    'khoums_payments_total',
    'khoums_bank_call_duration_seconds',
    'khoums_webhook_deliveries_total',
    'khoums_webhook_delivery_lag_seconds',
    'khoums_outbox_pending',
    'khoums_billing_invoices_created_total',
    'khoums_payouts_total',
    'khoums_refunds_total',
    'khoums_transfers_received_total',
    'khoums_transfer_to_payment_seconds',
    'khoums_db_pool_connections',
    'process_cpu_user_seconds_total',
    'nodejs_heap_size_used_bytes',
  ])
    expect(text).toContain(`# TYPE ${name} `);
  expect(value(text, 'khoums_db_pool_connections', { state: 'idle' })).toBeGreaterThan(0);
});

it('counts requests by route template, never by raw path', async () => {
  const id = '0190f3a4-0000-7000-8000-000000000042';
  const route = '/api/v1/payment-request/:id';
  const [get, durations, unmatched] = await moved(
    [
      ['khoums_http_requests_total', { method: 'GET', route, status: '404' }],
      ['khoums_http_request_duration_seconds_count', { method: 'GET', route }],
      ['khoums_http_requests_total', { route: 'unmatched', status: '404' }],
    ],
    async () => {
      await t.http.get(`/api/v1/payment-request/${id}`).set('Authorization', org.sandbox.secretKey);
      await t.http.get(`/no/such/path/${id}`);
    },
  );
  expect([get, durations, unmatched]).toEqual([1, 1, 1]);
  expect(await scrape()).not.toContain(id);
});

it('counts a payment opened and completed, and times the bank call', async () => {
  const pr = await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', org.sandbox.secretKey)
    .send({ transactionId: 'metrics-pay', amount: 10 });
  expect(pr.status).toBe(200);
  const methods = await t.http
    .get('/api/v1/payment-methods')
    .set('Authorization', org.sandbox.publishableKey);
  const masrivi = (methods.body.data as { id: string; type: string }[]).find((m) => m.type === 'masrivi')!;
  const labels = { method: 'masrivi', environment: 'sandbox' };
  const changes = await moved(
    [
      ['khoums_payments_total', { ...labels, status: 'pending' }],
      ['khoums_payments_total', { ...labels, status: 'completed' }],
      [
        'khoums_bank_call_duration_seconds_count',
        { method: 'masrivi', operation: 'charge', outcome: 'completed' },
      ],
    ],
    async () =>
      expect(
        (
          await t.http
            .post('/api/v1/payment')
            .set('Authorization', org.sandbox.publishableKey)
            .send({ transactionId: 'metrics-pay', phoneNumber: '22222222', configurationId: masrivi.id })
        ).status,
      ).toBe(200),
  );
  expect(changes).toEqual([1, 1, 1]);
});

it('counts webhook deliveries, their lag and the outbox', async () => {
  const tenant = await newTenant(t);
  // The first attempt gets no answer (so the delivery waits in the outbox), the retry a 200.
  receiver.behaviour = (n, hit, res) => (n === 0 ? 'hang' : ok(n, hit, res));
  const res = await t.http
    .post('/api/v1/webhook-endpoints')
    .set('Authorization', tenant.sandbox.secretKey)
    .send({ url: receiver.url });
  expect(res.status).toBe(200);
  const before = await scrape();
  const eventId = await recordEvent(t, {
    organizationId: tenant.organizationId,
    environmentId: tenant.sandbox.environmentId,
    kind: 'payment-created',
    data: { id: 'obj_metrics' },
  });
  await waitFor(() => receiver.hitsFor(eventId).length > 0, 'the first attempt');
  expect(value(await scrape(), 'khoums_outbox_pending')).toBe(value(before, 'khoums_outbox_pending') + 1);
  const after = await waitFor(async () => {
    const text = await scrape();
    return value(text, 'khoums_webhook_deliveries_total', { outcome: 'delivered' }) >
      value(before, 'khoums_webhook_deliveries_total', { outcome: 'delivered' })
      ? text
      : undefined;
  }, 'the delivery to be counted');
  expect(value(after, 'khoums_webhook_deliveries_total', { outcome: 'failed' })).toBe(
    value(before, 'khoums_webhook_deliveries_total', { outcome: 'failed' }) + 1,
  );
  expect(value(after, 'khoums_webhook_delivery_lag_seconds_count')).toBe(
    value(before, 'khoums_webhook_delivery_lag_seconds_count') + 2,
  );
  await waitFor(
    async () => value(await scrape(), 'khoums_outbox_pending') === value(before, 'khoums_outbox_pending'),
    'the outbox to drain',
  );
});

it('counts the invoices the billing run creates', async () => {
  const tenant = await newTenant(t);
  const c = await catalog(t, tenant, { interval: 'weekly', amount: 100 });
  const sub = await createSubscription(t, tenant.sandbox.secretKey, {
    customerId: c.customer.id,
    priceId: c.price.id,
  });
  await timeTravel(t, sub.id, 7 * DAY);
  const [invoices] = await moved([['khoums_billing_invoices_created_total']], () =>
    runBilling(t, tenant.sandbox.secretKey),
  );
  expect(invoices).toBe(1);
});
