import { once } from 'node:events';
import request from 'supertest';
import { TestClockAdvance } from '../../src/billing/test-clock-advance';
import { newTenant, privateDatabase, startTestApp, TestApp } from '../helpers/app';
import { catalog, DAY } from '../helpers/billing';
import { waitFor } from '../helpers/poll';
import { serviceProcess } from '../helpers/service-process';

/*
 * An advance survives a SIGKILL: the instance advancing a clock is killed mid-advance, another
 * takes the clock over once the claim's lease runs out and finishes it, and nothing is done twice
 * (no period invoiced twice, no reminder sent twice), nothing left out.
 */
jest.setTimeout(300_000);
let t: TestApp;
// A database of its own: the instances here run the advance job, which claims every advancing
// clock of the database it works on, another suite's too.
let db: { url: string; drop(): Promise<void> };
const cleanup: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  db = await privateDatabase();
  t = await startTestApp({}, db.url);
});
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});
afterAll(async () => {
  await t.close();
  await db.drop();
});

const WEEK = 7 * DAY;

it('a clock whose instance is killed mid-advance is finished by another, each period and reminder once', async () => {
  const subscriptions = 100;
  const weeks = 12;
  const org = await newTenant(t);
  const key = org.sandbox.secretKey;
  const c = await catalog(t, org, { interval: 'weekly', amount: 500 });
  const anchor = new Date('2025-01-06T09:00:00Z');
  const clock = (
    await t.http
      .post('/api/v1/test-clocks')
      .set('Authorization', key)
      .send({ frozenTime: anchor.toISOString() })
  ).body.data as { id: string };
  const customer = (
    await t.http
      .post('/api/v1/customers')
      .set('Authorization', key)
      .send({ externalUserId: `clock-${Date.now()}`, phone: '22123456', testClockId: clock.id })
  ).body.data as { id: string };
  // Weekly subscriptions on the clock, due at its time, nothing billed yet.
  await t.query(
    `INSERT INTO subscriptions (id, organization_id, environment_id, customer_id, price_id, status, started_at,
                                billing_anchor, billing_interval, next_period, next_billing_date, test_clock_id,
                                created_at, updated_at)
     SELECT gen_random_uuid(), $1, $2, $3, $4, 'active', $5, $5, 'weekly', 0, $5, $6, now(), now()
       FROM generate_series(1, $7)`,
    [org.organizationId, org.sandbox.environmentId, customer.id, c.price.id, anchor, clock.id, subscriptions],
  );

  const instance = await serviceProcess(db.url, {
    WEBHOOK_WORKER: 'false',
    TEST_CLOCK_INTERVAL_MS: '100',
    TEST_CLOCK_LEASE_MS: '1500',
    BILLING_BATCH_SIZE: '20',
  });
  cleanup.push(instance.stop);
  const target = new Date(anchor.getTime() + weeks * WEEK).toISOString();
  const res = await request(`http://127.0.0.1:${instance.port}`)
    .post(`/api/v1/test-clocks/${clock.id}/advance`)
    .set('Authorization', key)
    .send({ frozenTime: target });
  expect(res.status).toBe(200);
  expect(res.body.data.status).toBe('advancing');

  const invoices = async () =>
    (
      await t.query<{ n: number }>(`SELECT count(*)::int AS n FROM invoices WHERE test_clock_id = $1`, [
        clock.id,
      ])
    )[0].n;
  await waitFor(async () => (await invoices()) >= 300, 'the advance to be under way', 120_000);
  const exited = once(instance.child, 'exit');
  instance.child.kill('SIGKILL');
  await exited;
  const [mid] = await t.query<{ status: string; position: Date }>(
    `SELECT status, position FROM test_clocks WHERE id = $1`,
    [clock.id],
  );
  expect(mid.status).toBe('advancing');
  expect(await invoices()).toBeLessThan(subscriptions * (weeks + 1));

  // Another instance (this one) takes the clock over once the killed one's claim has run out.
  const advance = t.app.get(TestClockAdvance);
  await waitFor(
    async () => {
      await advance.run();
      const [row] = await t.query<{ status: string }>(`SELECT status FROM test_clocks WHERE id = $1`, [
        clock.id,
      ]);
      return row.status === 'ready';
    },
    'another instance to finish the advance',
    120_000,
  );

  const [state] = await t.query(
    `SELECT (SELECT count(*)::int FROM invoices WHERE test_clock_id = $1) AS invoices,
            (SELECT count(DISTINCT (subscription_id, period_start))::int FROM invoices WHERE test_clock_id = $1) AS periods,
            (SELECT count(DISTINCT number)::int FROM invoices WHERE test_clock_id = $1) AS numbers,
            (SELECT count(*)::int FROM subscriptions WHERE test_clock_id = $1 AND next_period = $3) AS caught_up,
            (SELECT count(*)::int FROM events WHERE environment_id = $2 AND kind = 'invoice-created') AS created,
            (SELECT count(*)::int FROM events WHERE environment_id = $2 AND kind = 'subscription-updated') AS updated,
            (SELECT count(*)::int FROM events WHERE environment_id = $2 AND kind IN ('invoice-upcoming', 'invoice-overdue')) AS reminders,
            (SELECT count(DISTINCT (data->>'id', kind, coalesce(data->>'daysUntilDue', data->>'daysOverdue')))::int
               FROM events WHERE environment_id = $2 AND kind IN ('invoice-upcoming', 'invoice-overdue')) AS distinct_reminders,
            (SELECT count(*)::int FROM events WHERE environment_id = $2 AND kind = 'test-clock-ready') AS ready`,
    [clock.id, org.sandbox.environmentId, weeks + 1],
  );
  const periods = subscriptions * (weeks + 1);
  // Per subscription: 12 reminders 3 days before a due date reached, 11 each 1, 3 and 7 days after.
  const reminders = subscriptions * (12 + 3 * 11);
  expect(state).toEqual({
    invoices: periods,
    periods,
    numbers: periods,
    caught_up: subscriptions,
    created: periods,
    updated: periods, // none created through the API: every period billed by a run
    reminders,
    distinct_reminders: reminders,
    ready: 1,
  });
});
