import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startWorkerApp, TestApp } from '../helpers/app';
import { waitFor } from '../helpers/poll';
import { ok, Receiver, WORKER_ENV } from './receiver';

/**
 * One organization's silent endpoints must not delay another's deliveries: each endpoint holds at
 * most WEBHOOK_ENDPOINT_CONCURRENCY delivery slots, and claims take organizations in turn. The
 * time-out is long so that the silent receiver really holds its slots for the whole test.
 */
const PER_ENDPOINT = 4;
let t: TestApp;
const receivers: Receiver[] = [];
beforeAll(async () => {
  t = await startWorkerApp({
    ...WORKER_ENV,
    WEBHOOK_TIMEOUT_MS: '120000',
    WEBHOOK_LEASE_MS: '150000',
    WEBHOOK_ENDPOINT_CONCURRENCY: String(PER_ENDPOINT),
  });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  await t.close();
});

async function receiver(r: Receiver): Promise<Receiver> {
  receivers.push(r);
  await r.start();
  return r;
}

async function endpoint(org: CreatedOrganization, url: string): Promise<string> {
  const res = await t.http
    .post('/api/v1/webhook-endpoints')
    .set('Authorization', org.sandbox.secretKey)
    .send({ url, events: ['payment-request-created'] });
  expect(res.status).toBe(200);
  return res.body.data.id;
}

it('delivers another organization’s events within 5 s each while one organization’s two silent endpoints have hundreds of deliveries pending', async () => {
  // Accepts every connection and request, never answers.
  const silent = await receiver(new Receiver(() => 'hang'));
  const fast = await receiver(new Receiver());
  const noisy = await newTenant(t, 'Noisy');
  const silentEndpoints = [await endpoint(noisy, silent.url), await endpoint(noisy, silent.url)];
  const res = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      t.http
        .post('/api/v1/payment-request')
        .set('Authorization', noisy.sandbox.secretKey)
        .send({ transactionId: `noisy-${i}`, amount: 100 }),
    ),
  );
  expect(res.every((r) => r.status === 200)).toBe(true);
  // Every slot the silent endpoints may have is taken.
  await waitFor(() => silent.hits.length >= 2 * PER_ENDPOINT, 'the silent endpoints to hold their slots');

  const quiet = await newTenant(t, 'Quiet');
  await endpoint(quiet, fast.url);
  for (let i = 0; i < 5; i++) {
    const created = await t.http
      .post('/api/v1/payment-request')
      .set('Authorization', quiet.sandbox.secretKey)
      .send({ transactionId: `quiet-${i}`, amount: 100 });
    expect(created.status).toBe(200);
    const at = Date.now();
    const hit = await waitFor(
      () => fast.hits.find((h) => h.body.data.id === created.body.data.id),
      `quiet-${i} to arrive`,
      5000,
    );
    expect(hit.at - at).toBeLessThan(5000);
  }

  const [{ pending, leased }] = await t.query(
    `SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending,
            max(n)::int AS leased
       FROM webhook_deliveries d
       JOIN LATERAL (SELECT count(*) AS n FROM webhook_deliveries l
                      WHERE l.endpoint_id = d.endpoint_id AND l.locked_until > now()) x ON true
      WHERE d.endpoint_id = ANY($1::uuid[])`,
    [silentEndpoints],
  );
  expect(pending).toBeGreaterThanOrEqual(300);
  expect(leased).toBeLessThanOrEqual(PER_ENDPOINT);
  expect(silent.hits.length).toBe(2 * PER_ENDPOINT);
}, 60_000);

it('lets an endpoint that answers within 1 s have more than WEBHOOK_ENDPOINT_CONCURRENCY deliveries in flight', async () => {
  let open = 0;
  let most = 0;
  // Answers every request after 150 ms.
  const steady = await receiver(
    new Receiver((_n, _hit, res) => {
      open += 1;
      most = Math.max(most, open);
      setTimeout(() => {
        open -= 1;
        ok(_n, _hit, res);
      }, 150);
    }),
  );
  const busy = await newTenant(t, 'Busy');
  await endpoint(busy, steady.url);
  const res = await Promise.all(
    Array.from({ length: 120 }, (_, i) =>
      t.http
        .post('/api/v1/payment-request')
        .set('Authorization', busy.sandbox.secretKey)
        .send({ transactionId: `busy-${i}`, amount: 100 }),
    ),
  );
  expect(res.every((r) => r.status === 200)).toBe(true);
  await waitFor(() => steady.hits.length >= 120 || undefined, 'the busy endpoint’s 120 deliveries', 30_000);
  expect(most).toBeGreaterThan(PER_ENDPOINT);
}, 60_000);
