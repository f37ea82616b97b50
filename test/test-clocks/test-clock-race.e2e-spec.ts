import { setTimeout as sleep } from 'node:timers/promises';
import { TestClockAdvance } from '../../src/billing/test-clock-advance';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, privateDatabase, startTestApp, TestApp } from '../helpers/app';
import { catalog } from '../helpers/billing';
import { waitFor } from '../helpers/poll';

/*
 * Two live instances advancing one clock (docs/billing.md "Testing with test clocks"): both run the
 * advance job every 50 ms with the shortest lease (100 ms), and each stalls now and then longer
 * than that (as a process in a long pause would), so the other takes the clock over and both do
 * the same moment's work at once. The outcome must be what one instance alone makes of the same
 * clock: no invoice, event or SMS twice, the clock ready with one `test-clock-ready`.
 */
jest.setTimeout(300_000);
const SUBSCRIPTIONS = 50;
const ANCHOR = new Date('2025-01-31T10:00:00Z');
const TARGET = '2026-01-31T10:00:00.000Z';

// A database of its own: the two instances' advance jobs take any advancing clock they find, and
// other specs' live instances (an advance job on) must not take this spec's clocks either.
let db: { url: string; drop(): Promise<void> };
let t: TestApp;
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

/** An organization with SMS on and a clock at ANCHOR carrying SUBSCRIPTIONS monthly subscriptions, due at its time. */
async function clockWithSubscriptions(org: CreatedOrganization): Promise<string> {
  const key = org.sandbox.secretKey;
  expect(
    (
      await t.http
        .patch('/api/v1/billing-settings')
        .set('Authorization', key)
        .send({ sms: { enabled: true } })
    ).status,
  ).toBe(200);
  const c = await catalog(t, org, { interval: 'monthly', amount: 1500 });
  const clock = (
    await t.http
      .post('/api/v1/test-clocks')
      .set('Authorization', key)
      .send({ frozenTime: ANCHOR.toISOString() })
  ).body.data as { id: string };
  const customer = await t.http
    .post('/api/v1/customers')
    .set('Authorization', key)
    .send({ externalUserId: `race-${org.organizationId}`, phone: '22123456', testClockId: clock.id });
  expect(customer.status).toBe(200);
  await t.query(
    `INSERT INTO subscriptions (id, organization_id, environment_id, customer_id, price_id, status, started_at,
                                billing_anchor, billing_interval, next_period, next_billing_date, test_clock_id,
                                created_at, updated_at)
     SELECT gen_random_uuid(), $1, $2, $3, $4, 'active', $5, $5, 'monthly', 0, $5, $6, now(), now()
       FROM generate_series(1, $7)`,
    [
      org.organizationId,
      org.sandbox.environmentId,
      customer.body.data.id,
      c.price.id,
      ANCHOR,
      clock.id,
      SUBSCRIPTIONS,
    ],
  );
  return clock.id;
}

/**
 * What an advance made of a clock, with nothing that differs between two organizations (ids, real
 * times): invoices by period and creation time, events by kind, clock time and reminder day, SMS by
 * status; and the duplicates none of them may have.
 */
async function outcome(environmentId: string, clockId: string) {
  const [invoices, events, sms, [duplicates]] = await Promise.all([
    t.query(
      `SELECT period_start, period_end, due_date, amount, status, created_at, count(*)::int AS n
         FROM invoices WHERE test_clock_id = $1
        GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`,
      [clockId],
    ),
    t.query(
      // The clock's events at its times; those of the API and test-clock-ready (real times) by kind.
      `SELECT kind, CASE WHEN created_at <= $2 THEN created_at END AS at,
              coalesce(data->>'daysUntilDue', data->>'daysOverdue') AS days, count(*)::int AS n
         FROM events WHERE environment_id = $1
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      [environmentId, TARGET],
    ),
    t.query(
      // By status and moment (the clock's time of its reminder), with the invoices they are for.
      `SELECT status, created_at, count(*)::int AS n, count(DISTINCT invoice_id)::int AS invoices
         FROM sms_messages WHERE environment_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
      [environmentId],
    ),
    t.query(
      `SELECT (SELECT count(*) - count(DISTINCT (subscription_id, period_start, proration_seq)) FROM invoices
                WHERE test_clock_id = $2)::int AS invoices,
              (SELECT count(*) - count(DISTINCT number) FROM invoices WHERE test_clock_id = $2)::int AS numbers,
              (SELECT count(*) - count(DISTINCT (kind, data->>'id', coalesce(data->>'daysUntilDue', data->>'daysOverdue', ''),
                                                  created_at))
                 FROM events WHERE environment_id = $1)::int AS events,
              (SELECT count(*)::int FROM events WHERE environment_id = $1 AND kind = 'test-clock-ready') AS ready,
              (SELECT status FROM test_clocks WHERE id = $2) AS clock`,
      [environmentId, clockId],
    ),
  ]);
  return { invoices, events, sms, duplicates };
}

it('two instances advancing one clock of 50 monthly subscriptions by 12 months give what one instance gives', async () => {
  // One instance alone (this app's job is off: the test does its work).
  const alone = await newTenant(t);
  const aloneClock = await clockWithSubscriptions(alone);
  const res = await t.http
    .post(`/api/v1/test-clocks/${aloneClock}/advance`)
    .set('Authorization', alone.sandbox.secretKey)
    .send({ frozenTime: TARGET });
  expect(res.status).toBe(200);
  expect((await t.app.get(TestClockAdvance).run()).clocksReady).toBe(1);

  const reference = await outcome(alone.sandbox.environmentId, aloneClock);
  expect(reference.duplicates).toEqual({ invoices: 0, numbers: 0, events: 0, ready: 1, clock: 'ready' });
  // 13 periods each (Jan 31 to Jan 31), and their reminders: the run's own figures, not none.
  expect(reference.invoices.reduce((sum, r) => sum + r.n, 0)).toBe(SUBSCRIPTIONS * 13);
  expect(reference.sms.reduce((sum, r) => sum + r.n, 0)).toBe(SUBSCRIPTIONS * 45);
  expect(reference.sms.every((r) => r.status === 'logged' && r.n === r.invoices)).toBe(true);

  // Two live instances on the same database, both running the advance job.
  const env = { TEST_CLOCK_INTERVAL_MS: '50', TEST_CLOCK_LEASE_MS: '100', BILLING_BATCH_SIZE: '20' };
  const a = await startTestApp(env, db.url);
  cleanup.push(() => a.close());
  const b = await startTestApp(env, db.url);
  cleanup.push(() => b.close());
  // Each instance stalls before every fourth moment it starts, longer than the lease: the other
  // takes the clock over and starts that moment, then the stalled one wakes and runs it too, at
  // once (until its next claim's check finds the clock no longer its own).
  const moments = [a, b].map((app) => {
    // Its private moment(), the work of one moment of one clock.
    const advance = app.app.get<unknown, { moment: (...args: unknown[]) => Promise<void> }>(TestClockAdvance);
    const original = advance.moment.bind(advance);
    let started = 0;
    return jest.spyOn(advance, 'moment').mockImplementation(async (...args) => {
      if (++started % 4 === 0) await sleep(250);
      return original(...args);
    });
  });

  const raced = await newTenant(t);
  const racedClock = await clockWithSubscriptions(raced);
  const asked = await a.http
    .post(`/api/v1/test-clocks/${racedClock}/advance`)
    .set('Authorization', raced.sandbox.secretKey)
    .send({ frozenTime: TARGET });
  expect(asked.body.data.status).toBe('advancing');
  await waitFor(
    async () =>
      (await b.http.get(`/api/v1/test-clocks/${racedClock}`).set('Authorization', raced.sandbox.secretKey))
        .body.data.status === 'ready',
    'the clock to be ready',
    240_000,
  );
  // Both worked on the clock (each stalls at every fourth moment it starts, so with more than
  // three moments each, each took the clock over from the other at least once).
  expect(moments.map((m) => m.mock.calls.length > 0)).toEqual([true, true]);

  const got = await outcome(raced.sandbox.environmentId, racedClock);
  expect(got.duplicates).toEqual({ invoices: 0, numbers: 0, events: 0, ready: 1, clock: 'ready' });
  expect(got.invoices).toEqual(reference.invoices);
  expect(got.events).toEqual(reference.events);
  expect(got.sms).toEqual(reference.sms);
});
