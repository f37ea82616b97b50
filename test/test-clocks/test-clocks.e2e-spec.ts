import { BillingRun } from '../../src/billing/billing-run';
import { DunningRun } from '../../src/billing/dunning-run';
import { ReminderRun } from '../../src/billing/reminder-run';
import { TestClockAdvance } from '../../src/billing/test-clock-advance';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, startWorkerApp, TestApp } from '../helpers/app';
import { createPrice, createProduct, DAY, invoicesOf, uniqueId } from '../helpers/billing';
import { waitFor } from '../helpers/poll';

/*
 * Sandbox test clocks (CONTRACT "Billing that grows with the merchant", docs/billing.md "Testing
 * with test clocks"): the API, customers and their subscriptions on a clock, advancing as of each
 * moment in order, and isolation between the real clock and each test clock. The advance job is
 * off in this app: a test advances with POST /advance, then runs the job's work itself.
 */
jest.setTimeout(180_000);
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const api = (method: 'get' | 'post' | 'delete' | 'patch', key: string, path: string, body?: object) => {
  const r = t.http[method](`/api/v1${path}`).set('Authorization', key);
  return body === undefined ? r : r.send(body);
};
/**
 * The advance job's work, until the clock is ready: another spec's live instance on the run's
 * database (an advance job on) may claim the clock first, and this run then finds nothing to do.
 */
const advanceWork = (clockId: string) =>
  waitFor(async () => {
    await t.app.get(TestClockAdvance).run();
    const [row] = await t.query<{ status: string }>('SELECT status FROM test_clocks WHERE id = $1', [
      clockId,
    ]);
    return row.status === 'ready';
  }, 'the clock to be ready');

async function newClock(org: CreatedOrganization, frozenTime: string, name?: string) {
  const res = await api('post', org.sandbox.secretKey, '/test-clocks', { frozenTime, name });
  expect(res.status).toBe(200);
  return res.body.data as { id: string; frozenTime: string; status: string };
}

async function customerOn(org: CreatedOrganization, testClockId: string | undefined) {
  const res = await api('post', org.sandbox.secretKey, '/customers', {
    externalUserId: uniqueId('user'),
    phone: '22123456',
    testClockId,
  });
  expect(res.status).toBe(200);
  return res.body.data as { id: string; testClockId: string | null };
}

async function monthlyPrice(org: CreatedOrganization) {
  const product = await createProduct(t, org.sandbox.secretKey);
  return createPrice(t, org.sandbox.secretKey, product.id, { amount: 1500, interval: 'monthly' });
}

async function subscribe(org: CreatedOrganization, customerId: string, priceId: string, body: object = {}) {
  const res = await api('post', org.sandbox.secretKey, '/subscriptions', { customerId, priceId, ...body });
  expect(res.status).toBe(200);
  return res.body.data as { id: string; status: string; currentPeriodStart: string; startedAt: string };
}

/** Advances the clock through the API, checks the answer, and does the job's work until it is ready. */
async function advance(org: CreatedOrganization, clockId: string, frozenTime: string) {
  const res = await api('post', org.sandbox.secretKey, `/test-clocks/${clockId}/advance`, { frozenTime });
  expect(res.status).toBe(200);
  const iso = new Date(frozenTime).toISOString();
  expect(res.body.data).toMatchObject({ id: clockId, status: 'advancing', frozenTime: iso });
  await advanceWork(clockId);
  const after = (await api('get', org.sandbox.secretKey, `/test-clocks/${clockId}`)).body.data;
  expect(after).toMatchObject({ status: 'ready', frozenTime: iso, advancedTo: iso });
  return after;
}

const eventsOf = (environmentId: string, kinds: string[]) =>
  t.query<{ kind: string; id: string; created_at: Date; data: Record<string, unknown> }>(
    `SELECT kind, data->>'id' AS id, created_at, data FROM events
      WHERE environment_id = $1 AND kind = ANY($2) ORDER BY created_at, kind, id`,
    [environmentId, kinds],
  );

describe('the test clocks API', () => {
  it('creates, lists and gets clocks in Sandbox; a Production key gets 400', async () => {
    const org = await newTenant(t);
    const clock = await newClock(org, '2025-01-31T10:00:00Z', 'Renewals');
    expect(clock).toMatchObject({
      name: 'Renewals',
      frozenTime: '2025-01-31T10:00:00.000Z',
      status: 'ready',
      advancedTo: '2025-01-31T10:00:00.000Z',
      environmentId: org.sandbox.environmentId,
    });
    const list = await api('get', org.sandbox.secretKey, '/test-clocks');
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([clock.id]);
    expect((await api('get', org.sandbox.secretKey, `/test-clocks/${clock.id}`)).body.data).toEqual(clock);

    const live = await api('post', org.production.secretKey, '/test-clocks', {
      frozenTime: '2025-01-01T00:00:00Z',
    });
    expect(live.status).toBe(400);
    expect(live.text).toBe('Test clocks are only available in sandbox');
    // Another organization's clock is not found.
    const other = await newTenant(t);
    expect((await api('get', other.sandbox.secretKey, `/test-clocks/${clock.id}`)).status).toBe(404);
  });

  it('advances forward only, by at most two years, answering at once with advancing; not twice at once', async () => {
    const org = await newTenant(t);
    const clock = await newClock(org, '2025-03-01T00:00:00Z');
    for (const frozenTime of ['2025-03-01T00:00:00Z', '2025-02-01T00:00:00Z', '2027-03-01T00:00:00.001Z']) {
      const res = await api('post', org.sandbox.secretKey, `/test-clocks/${clock.id}/advance`, {
        frozenTime,
      });
      expect(res.status).toBe(400);
      expect(res.text).toBe('Test clocks only move forward, by at most two years');
    }
    const res = await api('post', org.sandbox.secretKey, `/test-clocks/${clock.id}/advance`, {
      frozenTime: '2027-03-01T00:00:00Z',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'advancing',
      frozenTime: '2027-03-01T00:00:00.000Z',
      advancedTo: '2025-03-01T00:00:00.000Z',
    });
    const again = await api('post', org.sandbox.secretKey, `/test-clocks/${clock.id}/advance`, {
      frozenTime: '2027-03-02T00:00:00Z',
    });
    expect(again.status).toBe(409);
    expect(again.text).toBe('Test clock is advancing');
    await advanceWork(clock.id);
    const ready = (await api('get', org.sandbox.secretKey, `/test-clocks/${clock.id}`)).body.data;
    expect(ready).toMatchObject({ status: 'ready', advancedTo: '2027-03-01T00:00:00.000Z' });
    const [event] = await eventsOf(org.sandbox.environmentId, ['test-clock-ready']);
    expect(event.data).toMatchObject({
      id: clock.id,
      status: 'ready',
      frozenTime: '2027-03-01T00:00:00.000Z',
    });
  });

  it('puts customers on a clock of the key’s environment only, and starts their subscriptions at its time', async () => {
    const org = await newTenant(t);
    const clock = await newClock(org, '2025-01-31T10:00:00Z');
    const customer = await customerOn(org, clock.id);
    expect(customer.testClockId).toBe(clock.id);
    expect((await customerOn(org, undefined)).testClockId).toBeNull();

    const unknown = await api('post', org.sandbox.secretKey, '/customers', {
      externalUserId: uniqueId('user'),
      testClockId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe('Test clock not found');
    const live = await api('post', org.production.secretKey, '/customers', {
      externalUserId: uniqueId('user'),
      testClockId: clock.id,
    });
    expect(live.status).toBe(400);
    expect(live.text).toBe('Test clocks are only available in sandbox');

    const price = await monthlyPrice(org);
    const sub = await subscribe(org, customer.id, price.id);
    expect(sub.startedAt).toBe('2025-01-31T10:00:00.000Z');
    expect(sub.currentPeriodStart).toBe('2025-01-31T10:00:00.000Z');
    const [invoice] = await invoicesOf(t, org.sandbox.secretKey, sub.id);
    expect(invoice.periodEnd).toBe('2025-02-28T10:00:00.000Z');

    // The clock's customer cannot be billed through Production (its clock is Sandbox's).
    const product = await createProduct(t, org.production.secretKey);
    const livePrice = await createPrice(t, org.production.secretKey, product.id);
    const onLive = await api('post', org.production.secretKey, '/subscriptions', {
      customerId: customer.id,
      priceId: livePrice.id,
    });
    expect(onLive.status).toBe(400);
    expect(onLive.text).toBe('Customer is on a test clock of another environment');
  });

  it('deletes the clock with its customers and their subscriptions, invoices and payment requests', async () => {
    const org = await newTenant(t);
    const clock = await newClock(org, '2025-01-01T00:00:00Z');
    const customer = await customerOn(org, clock.id);
    const price = await monthlyPrice(org);
    const sub = await subscribe(org, customer.id, price.id);
    await advance(org, clock.id, '2025-04-01T00:00:00Z');
    const real = await customerOn(org, undefined);
    const realSub = await subscribe(org, real.id, price.id);
    const requests = async () =>
      (
        await t.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM payment_requests r JOIN invoices i ON i.id = r.invoice_id WHERE i.subscription_id = $1`,
          [sub.id],
        )
      )[0].n;
    expect(await requests()).toBe(4);

    const res = await api('delete', org.sandbox.secretKey, `/test-clocks/${clock.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: clock.id, deleted: true });
    expect((await api('get', org.sandbox.secretKey, `/test-clocks/${clock.id}`)).status).toBe(404);
    expect((await api('get', org.sandbox.secretKey, `/customers/${customer.id}`)).status).toBe(404);
    expect((await api('get', org.sandbox.secretKey, `/subscriptions/${sub.id}`)).status).toBe(404);
    const [left] = await t.query<{ invoices: number; requests: number }>(
      `SELECT (SELECT count(*)::int FROM invoices WHERE subscription_id = $1 OR test_clock_id = $2) AS invoices,
              (SELECT count(*)::int FROM payment_requests WHERE invoice_id IS NOT NULL
                 AND transaction_id IN (SELECT id::text FROM invoices WHERE subscription_id = $1)) AS requests`,
      [sub.id, clock.id],
    );
    expect(left).toEqual({ invoices: 0, requests: 0 });
    expect(await requests()).toBe(0);
    // The real clock's objects stay.
    expect((await api('get', org.sandbox.secretKey, `/subscriptions/${realSub.id}`)).status).toBe(200);
    expect(await invoicesOf(t, org.sandbox.secretKey, realSub.id)).toHaveLength(1);
  });
});

describe('advancing', () => {
  it('a year of a monthly plan in one call gives the invoices, events and reminders of the calendar', async () => {
    const org = await newTenant(t);
    expect(
      (await api('patch', org.sandbox.secretKey, '/billing-settings', { sms: { enabled: true } })).status,
    ).toBe(200);
    const clock = await newClock(org, '2025-01-31T10:00:00Z');
    const customer = await customerOn(org, clock.id);
    const price = await monthlyPrice(org);
    const sub = await subscribe(org, customer.id, price.id);
    await advance(org, clock.id, '2026-01-31T10:00:00Z');

    // The calendar: a month from Jan 31 is the last day of a shorter month, at the same time.
    const starts = [
      '2025-01-31',
      '2025-02-28',
      '2025-03-31',
      '2025-04-30',
      '2025-05-31',
      '2025-06-30',
      '2025-07-31',
      '2025-08-31',
      '2025-09-30',
      '2025-10-31',
      '2025-11-30',
      '2025-12-31',
      '2026-01-31',
      '2026-02-28',
    ].map((d) => `${d}T10:00:00.000Z`);
    const invoices = (await invoicesOf(t, org.sandbox.secretKey, sub.id)).sort((a, b) =>
      a.periodStart.localeCompare(b.periodStart),
    );
    expect(invoices.map((i) => [i.periodStart, i.periodEnd, i.dueDate, i.amount, i.status])).toEqual(
      starts.slice(0, 13).map((s, n) => [s, starts[n + 1], starts[n + 1], '1500.00', 'pending']),
    );
    // Each invoice created at its period's start (the clock's time then), numbered in order.
    expect(invoices.map((i) => i.createdAt)).toEqual(starts.slice(0, 13));
    expect(new Set(invoices.map((i) => i.number)).size).toBe(13);

    const events = await eventsOf(org.sandbox.environmentId, [
      'invoice-created',
      'payment-request-created',
      'subscription-updated',
    ]);
    const count = (kind: string) => events.filter((e) => e.kind === kind).length;
    expect([
      count('invoice-created'),
      count('payment-request-created'),
      count('subscription-updated'),
    ]).toEqual([13, 13, 12]);
    expect(
      events.filter((e) => e.kind === 'subscription-updated').map((e) => e.created_at.toISOString()),
    ).toEqual(starts.slice(1, 13));

    // Reminders (defaults: 3 days before, 1, 3 and 7 days after), each at its moment, up to the clock's time.
    const end = Date.parse('2026-01-31T10:00:00Z');
    const expected: string[] = [];
    for (const i of invoices) {
      const due = Date.parse(i.dueDate!);
      for (const [kind, days, at] of [
        ['invoice-upcoming', 3, due - 3 * DAY],
        ['invoice-overdue', 1, due + DAY],
        ['invoice-overdue', 3, due + 3 * DAY],
        ['invoice-overdue', 7, due + 7 * DAY],
      ] as const)
        if (at <= end) expected.push(`${new Date(at).toISOString()} ${kind} ${days} ${i.id}`);
    }
    expected.sort();
    expect(expected).toHaveLength(45);
    const reminders = await eventsOf(org.sandbox.environmentId, ['invoice-upcoming', 'invoice-overdue']);
    expect(
      reminders
        .map(
          (e) =>
            `${e.created_at.toISOString()} ${e.kind} ${String(e.data.daysUntilDue ?? e.data.daysOverdue)} ${e.id}`,
        )
        .sort(),
    ).toEqual(expected);
    // Their SMS, through the Sandbox gateway: logged, not sent.
    const sms = await t.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM sms_messages WHERE environment_id = $1 GROUP BY status`,
      [org.sandbox.environmentId],
    );
    expect(sms).toEqual([{ status: 'logged', n: 45 }]);
  });

  it('ends a trial at its time, and dunns an unpaid invoice at its time', async () => {
    const org = await newTenant(t);
    expect(
      (
        await api('patch', org.sandbox.secretKey, '/billing-settings', {
          dunning: { afterDaysOverdue: 5, action: 'cancel' },
        })
      ).status,
    ).toBe(200);
    const clock = await newClock(org, '2025-03-01T00:00:00Z');
    const customer = await customerOn(org, clock.id);
    const price = await monthlyPrice(org);
    const sub = await subscribe(org, customer.id, price.id, { trial: true, trialPeriod: '1_week' });
    expect(sub.status).toBe('trialing');
    expect(await invoicesOf(t, org.sandbox.secretKey, sub.id)).toHaveLength(0);
    await advance(org, clock.id, '2025-06-01T00:00:00Z');

    // The trial ends on Mar 8: its first period; the second starts on Apr 8; dunning cancels on
    // Apr 13, 5 days after the first went unpaid, voiding both; nothing is billed after.
    const invoices = (await invoicesOf(t, org.sandbox.secretKey, sub.id)).sort((a, b) =>
      a.periodStart.localeCompare(b.periodStart),
    );
    expect(invoices.map((i) => [i.periodStart, i.createdAt, i.dueDate, i.status])).toEqual([
      ['2025-03-08T00:00:00.000Z', '2025-03-08T00:00:00.000Z', '2025-04-08T00:00:00.000Z', 'void'],
      ['2025-04-08T00:00:00.000Z', '2025-04-08T00:00:00.000Z', '2025-05-08T00:00:00.000Z', 'void'],
    ]);
    const got = (await api('get', org.sandbox.secretKey, `/subscriptions/${sub.id}`)).body.data;
    expect(got).toMatchObject({ status: 'cancelled', cancelledAt: '2025-04-13T00:00:00.000Z' });
    const updates = (await eventsOf(org.sandbox.environmentId, ['subscription-updated'])).filter(
      (e) => e.id === sub.id,
    );
    expect(updates.map((e) => e.created_at.toISOString())).toEqual([
      '2025-03-08T00:00:00.000Z',
      '2025-04-08T00:00:00.000Z',
      '2025-04-13T00:00:00.000Z',
    ]);
    expect(updates[2].data.status).toBe('cancelled');
  });

  it('changes a subscription on a clock as of the clock’s time (proration over its period)', async () => {
    const org = await newTenant(t);
    const clock = await newClock(org, '2025-01-01T00:00:00Z');
    const customer = await customerOn(org, clock.id);
    const price = await monthlyPrice(org);
    const sub = await subscribe(org, customer.id, price.id);
    await advance(org, clock.id, '2025-01-16T12:00:00Z'); // half of January
    const res = await api('post', org.sandbox.secretKey, `/subscriptions/${sub.id}/change`, { quantity: 3 });
    expect(res.status).toBe(200);
    const proration = (await invoicesOf(t, org.sandbox.secretKey, sub.id)).find((i) => i.lines[0].proration);
    expect(proration).toMatchObject({ amount: '1500.00', createdAt: '2025-01-16T12:00:00.000Z' });
  });
});

describe('isolation', () => {
  /** A clock frozen 90 days ago with a subscription on it, and a real subscription started as long ago. */
  async function world(org: CreatedOrganization) {
    const past = new Date(Date.now() - 90 * DAY).toISOString();
    const clock = await newClock(org, past);
    const price = await monthlyPrice(org);
    const onClock = await subscribe(org, (await customerOn(org, clock.id)).id, price.id);
    const real = await subscribe(org, (await customerOn(org, undefined)).id, price.id, { startedAt: past });
    return { clock, price, onClock, real };
  }
  const stateOf = async (subscriptionId: string) => {
    const [row] = await t.query(
      `SELECT s.next_period, s.status, s.dunned_through,
              (SELECT count(*)::int FROM invoices i WHERE i.subscription_id = s.id) AS invoices,
              (SELECT array_agg(i.reminder_step ORDER BY i.period_start) FROM invoices i WHERE i.subscription_id = s.id) AS steps
         FROM subscriptions s WHERE s.id = $1`,
      [subscriptionId],
    );
    return row;
  };

  it('the real clock’s billing, reminders and dunning never touch an object on a test clock', async () => {
    const org = await newTenant(t);
    await api('patch', org.sandbox.secretKey, '/billing-settings', {
      dunning: { afterDaysOverdue: 1, action: 'pause' },
    });
    const { onClock, real } = await world(org);
    const before = await stateOf(onClock.id);
    expect(before.invoices).toBe(1); // its first period, due 60 days ago by the real clock

    const environmentId = org.sandbox.environmentId;
    expect((await t.app.get(BillingRun).run({ environmentId })).invoicesCreated).toBe(0);
    expect(await t.app.get(ReminderRun).run({ environmentId })).toBeGreaterThan(0); // the real one's
    expect(await t.app.get(DunningRun).run({ environmentId })).toBe(1); // the real one
    const sandboxRun = await api('post', org.sandbox.secretKey, '/sandbox/billing/run', {});
    expect(sandboxRun.status).toBe(200);
    expect(await stateOf(onClock.id)).toEqual(before);
    expect((await stateOf(real.id)).status).toBe('paused');
  });

  it('a test clock never touches another clock’s objects nor the real clock’s', async () => {
    const org = await newTenant(t);
    const { clock, price, onClock, real } = await world(org);
    const other = await newClock(org, clock.frozenTime);
    const onOther = await subscribe(org, (await customerOn(org, other.id)).id, price.id);
    const [otherBefore, realBefore] = [await stateOf(onOther.id), await stateOf(real.id)];

    await advance(org, clock.id, new Date(Date.parse(clock.frozenTime) + 80 * DAY).toISOString());
    expect((await stateOf(onClock.id)).invoices).toBe(3);
    expect(await stateOf(onOther.id)).toEqual(otherBefore);
    expect(await stateOf(real.id)).toEqual(realBefore);
    expect((await api('get', org.sandbox.secretKey, `/test-clocks/${other.id}`)).body.data.status).toBe(
      'ready',
    );
  });
});

describe('the advance job', () => {
  it('answers at once and turns ready by itself, with test-clock-ready', async () => {
    // On a database of its own (startWorkerApp): the job claims every advancing clock of its
    // database, and another suite's clock taken over here would leave that suite's checks racing it.
    const worker = await startWorkerApp({ TEST_CLOCK_INTERVAL_MS: '200' });
    try {
      const org = await newTenant(worker);
      const key = org.sandbox.secretKey;
      const created = await worker.http
        .post('/api/v1/test-clocks')
        .set('Authorization', key)
        .send({ frozenTime: '2025-01-01T00:00:00Z' });
      const id = created.body.data.id as string;
      const res = await worker.http
        .post(`/api/v1/test-clocks/${id}/advance`)
        .set('Authorization', key)
        .send({ frozenTime: '2025-12-01T00:00:00Z' });
      expect(res.body.data.status).toBe('advancing');
      await waitFor(
        async () =>
          (await worker.http.get(`/api/v1/test-clocks/${id}`).set('Authorization', key)).body.data.status ===
          'ready',
        'the clock to be ready',
      );
      const ready = await worker.query(
        `SELECT id FROM events WHERE environment_id = $1 AND kind = 'test-clock-ready'`,
        [org.sandbox.environmentId],
      );
      expect(ready).toHaveLength(1);
    } finally {
      await worker.close();
    }
  });
});
