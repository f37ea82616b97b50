import { BillingRun } from '../../src/billing/billing-run';
import { Messages } from '../../src/common/errors/messages';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { addDays, periodStart, periodsStartedBy } from '../../src/subscriptions/periods';
import { MAX_PERIODS_PER_PASS } from '../../src/subscriptions/lifecycle';
import { Renewals } from '../../src/subscriptions/renewals';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import {
  catalog,
  createPrice,
  createSubscription,
  billingState,
  DAY,
  invoicesOf,
  runBilling,
  seedDueSubscriptions,
  timeTravel,
} from '../helpers/billing';
import { expectText } from '../helpers/http';

/*
 * The billing run on the sandbox route (which bills the key's environment only, so each test's
 * fresh organization gives exact counts) and through BillingRun directly. Time passes by moving a
 * subscription's dates back (weekly prices: a week is the same length wherever it starts).
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface Setup {
  org: CreatedOrganization;
  sk: string;
  c: Awaited<ReturnType<typeof catalog>>;
}
async function setup(price: object = { interval: 'weekly', amount: 700 }): Promise<Setup> {
  const org = await newTenant(t);
  return { org, sk: org.sandbox.secretKey, c: await catalog(t, org, price) };
}
const subscribe = (s: Setup, body: object = {}) =>
  createSubscription(t, s.sk, { customerId: s.c.customer.id, priceId: s.c.price.id, ...body });
const get = (path: string, key: string) => t.http.get(`/api/v1${path}`).set('Authorization', key);
const kinds = (environmentId: string) =>
  t.query<{ kind: string; n: number }>(
    `SELECT kind, count(*)::int AS n FROM events WHERE environment_id = $1 GROUP BY kind ORDER BY kind`,
    [environmentId],
  );

describe('POST /sandbox/billing/run', () => {
  it('answers 400 `Billing runs are only available in sandbox` to a Production key, 403 to a publishable key', async () => {
    const org = await newTenant(t);
    expectText(
      await t.http
        .post('/api/v1/sandbox/billing/run')
        .set('Authorization', org.production.secretKey)
        .send({ x: 1 }),
      400,
      Messages.billingRunsSandboxOnly,
    );
    expectText(
      await t.http.post('/api/v1/sandbox/billing/run').set('Authorization', org.sandbox.publishableKey),
      403,
      Messages.unauthorizedAccess,
    );
  });

  it('bills nothing when nothing is due', async () => {
    const s = await setup();
    await subscribe(s);
    expect(await runBilling(t, s.sk)).toEqual({ invoicesCreated: 0, subscriptionsUpdated: 0 });
  });

  it('bills a period that has started: its invoice, payment request and events, and the subscription moves on', async () => {
    const s = await setup();
    const sub = await subscribe(s);
    await timeTravel(t, sub.id, 7 * DAY + 1000);
    const before = await kinds(s.org.sandbox.environmentId);
    expect(await runBilling(t, s.sk)).toEqual({ invoicesCreated: 1, subscriptionsUpdated: 1 });

    const renewed = (await get(`/subscriptions/${sub.id}`, s.sk)).body.data;
    const [invoice, old] = await invoicesOf(t, s.sk, sub.id);
    expect(renewed.currentPeriodStart).toBe(old.periodEnd);
    expect(renewed.nextBillingDate).toBe(addDays(new Date(old.periodEnd), 7).toISOString());
    // The first invoice was still unpaid when this period started.
    expect(renewed.status).toBe('past_due');
    expect(invoice).toMatchObject({
      status: 'pending',
      amount: '700.00',
      periodStart: renewed.currentPeriodStart,
      periodEnd: renewed.currentPeriodEnd,
      dueDate: renewed.nextBillingDate,
    });
    const request = (await get(`/payment-request/by-transaction/${invoice.id}`, s.sk)).body.data;
    expect(request).toMatchObject({
      id: invoice.paymentRequestId,
      amount: 700,
      phoneNumber: '22123456',
      invoiceId: invoice.id,
    });
    const after = await kinds(s.org.sandbox.environmentId);
    const added = (kind: string) =>
      (after.find((k) => k.kind === kind)?.n ?? 0) - (before.find((k) => k.kind === kind)?.n ?? 0);
    expect(['invoice-created', 'payment-request-created', 'subscription-updated'].map(added)).toEqual([
      1, 1, 1,
    ]);
    const [updated] = await t.query(
      `SELECT data FROM events WHERE kind = 'subscription-updated' AND data->>'id' = $1`,
      [sub.id],
    );
    expect(updated.data).toEqual(renewed);
  });

  it('is idempotent: a second run bills nothing more', async () => {
    const s = await setup();
    const sub = await subscribe(s);
    await timeTravel(t, sub.id, 15 * DAY);
    expect((await runBilling(t, s.sk)).invoicesCreated).toBe(2);
    expect(await runBilling(t, s.sk)).toEqual({ invoicesCreated: 0, subscriptionsUpdated: 0 });
    expect(await invoicesOf(t, s.sk, sub.id)).toHaveLength(3);
  });

  it('bills the environment of the key only', async () => {
    const s = await setup();
    const live = await createSubscription(t, s.org.production.secretKey, {
      customerId: s.c.customer.id,
      priceId: s.c.price.id,
    });
    await timeTravel(t, live.id, 8 * DAY);
    expect(await runBilling(t, s.sk)).toEqual({ invoicesCreated: 0, subscriptionsUpdated: 0 });
    expect(await t.app.get(BillingRun).run({ environmentId: s.org.production.environmentId })).toEqual({
      invoicesCreated: 1,
      subscriptionsUpdated: 1,
    });
  });
});

describe('what a renewal bills', () => {
  it('the price’s current amount when it was changed in place, the old amount when it was replaced', async () => {
    const s = await setup();
    const inPlace = await subscribe(s);
    const other = await createPrice(t, s.sk, s.c.product.id, { interval: 'weekly', amount: 900 });
    const replaced = await subscribe(s, { priceId: other.id });
    await t.http.patch(`/api/v1/prices/${s.c.price.id}`).set('Authorization', s.sk).send({ amount: 750 });
    await t.http
      .patch(`/api/v1/prices/${other.id}`)
      .set('Authorization', s.sk)
      .send({ amount: 990, replaceExisting: true });
    await timeTravel(t, inPlace.id, 7 * DAY);
    await timeTravel(t, replaced.id, 7 * DAY);
    await runBilling(t, s.sk);
    expect((await invoicesOf(t, s.sk, inPlace.id)).map((i) => i.amount)).toEqual(['750.00', '700.00']);
    expect((await invoicesOf(t, s.sk, replaced.id)).map((i) => i.amount)).toEqual(['900.00', '900.00']);
  });

  it('keeps billing a subscription whose price or product was archived', async () => {
    const s = await setup();
    const sub = await subscribe(s);
    await t.http.patch(`/api/v1/prices/${s.c.price.id}/archive`).set('Authorization', s.sk);
    await t.http.patch(`/api/v1/products/${s.c.product.id}/archive`).set('Authorization', s.sk);
    await timeTravel(t, sub.id, 7 * DAY);
    expect((await runBilling(t, s.sk)).invoicesCreated).toBe(1);
  });

  it('continues on the new interval from the end of the current period when the interval changed in place', async () => {
    const s = await setup({ interval: 'monthly', amount: 3000 });
    const startedAt = new Date(Date.now() - 40 * DAY);
    const sub = await subscribe(s, { startedAt: startedAt.toISOString() });
    await t.http
      .patch(`/api/v1/prices/${s.c.price.id}`)
      .set('Authorization', s.sk)
      .send({ interval: 'weekly' });
    const currentEnd = periodStart(startedAt, 'monthly', 2);
    await timeTravel(t, sub.id, currentEnd.getTime() - Date.now() + 8 * DAY);
    await runBilling(t, s.sk);
    const [latest, weekOne] = await invoicesOf(t, s.sk, sub.id);
    expect(new Date(weekOne.periodEnd).getTime() - new Date(weekOne.periodStart).getTime()).toBe(7 * DAY);
    expect(new Date(latest.periodEnd).getTime() - new Date(latest.periodStart).getTime()).toBe(7 * DAY);
    expect(latest.periodStart).toBe(weekOne.periodEnd);
  });

  it('the first period at the end of a trial: trialing becomes active', async () => {
    const s = await setup();
    const sub = await subscribe(s, { trialPeriod: 14 });
    await timeTravel(t, sub.id, 14 * DAY);
    expect(await runBilling(t, s.sk)).toEqual({ invoicesCreated: 1, subscriptionsUpdated: 1 });
    const renewed = (await get(`/subscriptions/${sub.id}`, s.sk)).body.data;
    expect(renewed.status).toBe('active');
    const [invoice] = await invoicesOf(t, s.sk, sub.id);
    expect(invoice.periodStart).toBe(renewed.trialEnd);
  });

  it('every missed period after downtime, one invoice each, contiguous', async () => {
    const s = await setup();
    const sub = await subscribe(s);
    await timeTravel(t, sub.id, 30 * DAY);
    expect((await runBilling(t, s.sk)).invoicesCreated).toBe(4);
    const invoices = (await invoicesOf(t, s.sk, sub.id)).reverse();
    expect(invoices).toHaveLength(5);
    for (let i = 1; i < invoices.length; i++) expect(invoices[i].periodStart).toBe(invoices[i - 1].periodEnd);
  });

  it('nothing from expiresAt on: the subscription expires', async () => {
    const s = await setup();
    const sub = await subscribe(s, { expiresAt: new Date(Date.now() + 10 * DAY).toISOString() });
    await timeTravel(t, sub.id, 30 * DAY);
    expect(await runBilling(t, s.sk)).toEqual({ invoicesCreated: 1, subscriptionsUpdated: 1 });
    const expired = (await get(`/subscriptions/${sub.id}`, s.sk)).body.data;
    expect(expired).toMatchObject({ status: 'expired', nextBillingDate: null });
    expect(await invoicesOf(t, s.sk, sub.id)).toHaveLength(2);
    const [event] = (
      await t.query(
        `SELECT data FROM events WHERE kind = 'subscription-updated' AND data->>'id' = $1 AND data->>'status' = 'expired'`,
        [sub.id],
      )
    ).map((e) => e.data);
    expect(event).toEqual(expired);
    expect(await runBilling(t, s.sk)).toEqual({ invoicesCreated: 0, subscriptionsUpdated: 0 });
  });
});

describe('concurrency', () => {
  it('two runs started at the same moment bill each period once', async () => {
    const s = await setup();
    const subs = await Promise.all(Array.from({ length: 30 }, () => subscribe(s)));
    for (const sub of subs) await timeTravel(t, sub.id, 15 * DAY);
    const run = t.app.get(BillingRun);
    const results = await Promise.all([
      run.run({ environmentId: s.org.sandbox.environmentId }),
      run.run({ environmentId: s.org.sandbox.environmentId }),
      runBilling(t, s.sk),
    ]);
    expect(results.reduce((n, r) => n + r.invoicesCreated, 0)).toBe(60);
    const [{ invoices, periods, requests }] = await t.query(
      `SELECT count(*)::int AS invoices, count(DISTINCT (subscription_id, period_start))::int AS periods,
              (SELECT count(*)::int FROM payment_requests WHERE environment_id = $1) AS requests
         FROM invoices WHERE environment_id = $1`,
      [s.org.sandbox.environmentId],
    );
    expect({ invoices, periods, requests }).toEqual({ invoices: 90, periods: 90, requests: 90 });
  });

  it('runs in batches: with a batch of 7, every due subscription is billed once', async () => {
    const small = await startTestApp({ BILLING_BATCH_SIZE: '7' });
    try {
      const org = await newTenant(small);
      const c = await catalog(small, org, { interval: 'weekly', amount: 100 });
      const subs = await Promise.all(
        Array.from({ length: 23 }, () =>
          createSubscription(small, org.sandbox.secretKey, {
            customerId: c.customer.id,
            priceId: c.price.id,
          }),
        ),
      );
      for (const sub of subs) await timeTravel(small, sub.id, 7 * DAY);
      expect(await runBilling(small, org.sandbox.secretKey)).toEqual({
        invoicesCreated: 23,
        subscriptionsUpdated: 23,
      });
    } finally {
      await small.close();
    }
  });

  it('bills several batches at once within a run (BILLING_CONCURRENCY), and two such runs at once bill each due period exactly once', async () => {
    const parallel = await startTestApp({ BILLING_BATCH_SIZE: '7', BILLING_CONCURRENCY: '4' });
    try {
      const org = await newTenant(parallel);
      const c = await catalog(parallel, org, { interval: 'weekly', amount: 100 });
      const n = 300;
      const anchor = new Date(Date.now() - 2 * 7 * DAY - 3_600_000);
      await seedDueSubscriptions(parallel, org, c, n, anchor);
      const periods = periodsStartedBy(anchor, 'weekly', new Date());

      const renewals = parallel.app.get(Renewals);
      const renewDueBatch = renewals.renewDueBatch.bind(renewals);
      let inFlight = 0;
      let mostInFlight = 0;
      jest.spyOn(renewals, 'renewDueBatch').mockImplementation(async (...args) => {
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        try {
          return await renewDueBatch(...args);
        } finally {
          inFlight--;
        }
      });
      const run = parallel.app.get(BillingRun);
      const results = await Promise.all([
        run.run({ environmentId: org.sandbox.environmentId }),
        run.run({ environmentId: org.sandbox.environmentId }),
      ]);

      expect(mostInFlight).toBe(8);
      expect(results.reduce((sum, r) => sum + r.invoicesCreated, 0)).toBe(n * periods);
      expect(await billingState(parallel, org.sandbox.environmentId)).toEqual({
        subscriptions: n,
        invoices: n * periods,
        periods: n * periods,
        requests: n * periods,
        events: 3 * n * periods,
        untouched: 0,
        billed: n,
      });
      expect(await runBilling(parallel, org.sandbox.secretKey)).toEqual({
        invoicesCreated: 0,
        subscriptionsUpdated: 0,
      });
    } finally {
      await parallel.close();
    }
  });
  it('counts a subscription further behind than one pass bills once, though several batches at once update it', async () => {
    const parallel = await startTestApp({ BILLING_BATCH_SIZE: '4', BILLING_CONCURRENCY: '3' });
    try {
      const org = await newTenant(parallel);
      const c = await catalog(parallel, org, { interval: 'weekly', amount: 100 });
      const n = 30;
      // 130 weeks behind: two passes (100 periods at most each) per subscription.
      const anchor = new Date(Date.now() - 130 * 7 * DAY - 3_600_000);
      await seedDueSubscriptions(parallel, org, c, n, anchor);
      const periods = periodsStartedBy(anchor, 'weekly', new Date());
      expect(periods).toBeGreaterThan(MAX_PERIODS_PER_PASS);

      expect(await runBilling(parallel, org.sandbox.secretKey)).toEqual({
        invoicesCreated: n * periods,
        subscriptionsUpdated: n,
      });
      expect(await billingState(parallel, org.sandbox.environmentId)).toEqual({
        subscriptions: n,
        invoices: n * periods,
        periods: n * periods,
        requests: n * periods,
        events: 3 * n * periods,
        untouched: 0,
        billed: n,
      });
    } finally {
      await parallel.close();
    }
  });
  it("with an Idempotency-Key (the run in the request's transaction) bills one batch at a time, each period and subscription once, and replays its answer", async () => {
    const parallel = await startTestApp({ BILLING_BATCH_SIZE: '4', BILLING_CONCURRENCY: '3' });
    try {
      const org = await newTenant(parallel);
      const c = await catalog(parallel, org, { interval: 'weekly', amount: 100 });
      const n = 25;
      const anchor = new Date(Date.now() - 2 * 7 * DAY - 3_600_000);
      await seedDueSubscriptions(parallel, org, c, n, anchor);
      const periods = periodsStartedBy(anchor, 'weekly', new Date());
      const keyed = () =>
        parallel.http
          .post('/api/v1/sandbox/billing/run')
          .set('Authorization', org.sandbox.secretKey)
          .set('Idempotency-Key', 'billing-run-once')
          .send({});
      const first = await keyed();
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual({ invoicesCreated: n * periods, subscriptionsUpdated: n });
      const replay = await keyed();
      expect(replay.status).toBe(200);
      expect(replay.body.data).toEqual(first.body.data);
      expect(await billingState(parallel, org.sandbox.environmentId)).toEqual({
        subscriptions: n,
        invoices: n * periods,
        periods: n * periods,
        requests: n * periods,
        events: 3 * n * periods,
        untouched: 0,
        billed: n,
      });
    } finally {
      await parallel.close();
    }
  });
});
