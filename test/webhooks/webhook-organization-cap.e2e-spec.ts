import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startWorkerApp, TestApp } from '../helpers/app';
import { waitFor } from '../helpers/poll';
import { Receiver, WORKER_ENV } from './receiver';

/**
 * One organization's many silent endpoints must not take every delivery slot: besides each
 * endpoint's cap (WEBHOOK_ENDPOINT_CONCURRENCY), an organization's deliveries to endpoints held
 * to that cap are capped together (WEBHOOK_ORGANIZATION_CONCURRENCY), over all instances. Ten
 * silent endpoints at 4 each would hold 40 leases, more than the worker's 32 slots; the time-out
 * is long so that they hold their slots for the whole test.
 */
const PER_ENDPOINT = 4;
const PER_ORGANIZATION = 6;
const SILENT_ENDPOINTS = 10;
let t: TestApp;
let silent: Receiver;
let fast: Receiver;
beforeAll(async () => {
  t = await startWorkerApp({
    ...WORKER_ENV,
    WEBHOOK_TIMEOUT_MS: '120000',
    WEBHOOK_LEASE_MS: '150000',
    WEBHOOK_CONCURRENCY: '32',
    WEBHOOK_ENDPOINT_CONCURRENCY: String(PER_ENDPOINT),
    WEBHOOK_ORGANIZATION_CONCURRENCY: String(PER_ORGANIZATION),
  });
  // Accepts every connection and request, never answers.
  silent = new Receiver(() => 'hang');
  fast = new Receiver();
  await Promise.all([silent.start(), fast.start()]);
});
afterAll(async () => {
  await Promise.all([silent.stop(), fast.stop()]);
  await t.close();
});

async function endpoint(org: CreatedOrganization, url: string): Promise<string> {
  const res = await t.http
    .post('/api/v1/webhook-endpoints')
    .set('Authorization', org.sandbox.secretKey)
    .send({ url, events: ['payment-request-created'] });
  expect(res.status).toBe(200);
  return res.body.data.id;
}

it('delivers another organization’s events within 5 s each while one organization’s ten silent endpoints have a thousand deliveries pending', async () => {
  const noisy = await newTenant(t, 'Noisy');
  const silentEndpoints: string[] = [];
  for (let i = 0; i < SILENT_ENDPOINTS; i++)
    silentEndpoints.push(await endpoint(noisy, `${silent.url}/${i}`));
  const res = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      t.http
        .post('/api/v1/payment-request')
        .set('Authorization', noisy.sandbox.secretKey)
        .send({ transactionId: `noisy-${i}`, amount: 100 }),
    ),
  );
  expect(res.every((r) => r.status === 200)).toBe(true);
  await waitFor(
    () => silent.hits.length >= PER_ORGANIZATION || undefined,
    'the silent endpoints to hold their organization’s slots',
  );

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

  const [{ pending, leased, endpoints }] = await t.query(
    `SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending,
            count(*) FILTER (WHERE locked_until > now())::int AS leased,
            count(DISTINCT endpoint_id) FILTER (WHERE locked_until > now())::int AS endpoints
       FROM webhook_deliveries WHERE endpoint_id = ANY($1::uuid[])`,
    [silentEndpoints],
  );
  expect(pending).toBe(SILENT_ENDPOINTS * 100);
  // The organization's cap, not the endpoints' (10 × 4), bounds what its silent endpoints hold,
  // spread over its endpoints in turn.
  expect(leased).toBe(PER_ORGANIZATION);
  expect(endpoints).toBe(PER_ORGANIZATION);
  expect(silent.hits.length).toBe(PER_ORGANIZATION);
}, 60_000);
