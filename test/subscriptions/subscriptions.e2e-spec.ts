import { Messages } from '../../src/common/errors/messages';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { addDays, addMonths, periodStart, periodsStartedBy } from '../../src/subscriptions/periods';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import {
  catalog,
  createCustomer,
  createPrice,
  createProduct,
  DAY,
  invoicesOf,
  runBilling,
  timeTravel,
  uniqueId,
} from '../helpers/billing';
import { expect422, expectText } from '../helpers/http';

let t: TestApp;
let org: CreatedOrganization;
let sk: string;
let c: Awaited<ReturnType<typeof catalog>>;
beforeAll(async () => {
  t = await startTestApp();
  org = await newTenant(t);
  sk = org.sandbox.secretKey;
  c = await catalog(t, org);
});
afterAll(() => t.close());

const get = (path: string, key = sk) => t.http.get(`/api/v1${path}`).set('Authorization', key);
const post = (path: string, body: object = {}, key = sk) =>
  t.http.post(`/api/v1${path}`).set('Authorization', key).send(body);
const subscribe = (body: object = {}, key = sk) =>
  post('/subscriptions', { customerId: c.customer.id, priceId: c.price.id, ...body }, key);
const eventsAbout = (kind: string, id: string) =>
  t.query(`SELECT data FROM events WHERE kind = $1 AND data->>'id' = $2 ORDER BY created_at`, [kind, id]);

const SUBSCRIPTION_FIELDS = [
  'id',
  'customerId',
  'priceId',
  'quantity',
  'pendingChange',
  'discount',
  'status',
  'trialEnd',
  'startedAt',
  'currentPeriodStart',
  'currentPeriodEnd',
  'nextBillingDate',
  'expiresAt',
  'cancelledAt',
  'applicationFeeBps',
  'environmentId',
  'organizationId',
  'createdAt',
  'updatedAt',
].sort();

describe('creating a subscription', () => {
  it('starts its first period now and creates its invoice at once, with a payment request for the customer’s phone', async () => {
    const before = Date.now();
    const res = await subscribe();
    expect(res.status).toBe(200);
    const s = res.body.data;
    expect(Object.keys(s).sort()).toEqual(SUBSCRIPTION_FIELDS);
    expect(s).toMatchObject({
      customerId: c.customer.id,
      priceId: c.price.id,
      status: 'active',
      trialEnd: null,
      expiresAt: null,
      cancelledAt: null,
      environmentId: org.sandbox.environmentId,
      organizationId: org.organizationId,
    });
    expect(Date.parse(s.startedAt)).toBeGreaterThanOrEqual(before);
    expect(s.currentPeriodStart).toBe(s.startedAt);
    expect(s.currentPeriodEnd).toBe(periodStart(new Date(s.startedAt), 'monthly', 1).toISOString());
    expect(s.nextBillingDate).toBe(s.currentPeriodEnd);

    const [invoice, ...more] = await invoicesOf(t, sk, s.id);
    expect(more).toEqual([]);
    expect(invoice).toMatchObject({
      customerId: c.customer.id,
      subscriptionId: s.id,
      status: 'pending',
      amount: '1500.00',
      periodStart: s.currentPeriodStart,
      periodEnd: s.currentPeriodEnd,
      dueDate: s.nextBillingDate,
      organizationId: org.organizationId,
      environmentId: org.sandbox.environmentId,
    });
    const request = await get(`/payment-request/by-transaction/${invoice.id}`);
    expect(request.body.data).toMatchObject({
      id: invoice.paymentRequestId,
      transactionId: invoice.id,
      amount: 1500,
      phoneNumber: c.customer.phone,
      status: 'pending',
      invoiceId: invoice.id,
    });

    expect(await eventsAbout('subscription-created', s.id)).toEqual([{ data: s }]);
    expect(await eventsAbout('invoice-created', invoice.id)).toEqual([{ data: invoice }]);
    expect(await eventsAbout('payment-request-created', invoice.paymentRequestId!)).toEqual([
      { data: request.body.data },
    ]);
  });

  it('is for secret keys only', async () => {
    expectText(await subscribe({}, org.sandbox.publishableKey), 403, Messages.unauthorizedAccess);
    expectText(await get('/subscriptions', org.sandbox.publishableKey), 403, Messages.unauthorizedAccess);
  });

  describe('with a trial', () => {
    it.each([
      [{ trial: true, trialPeriod: '1_week' }, (start: Date) => addDays(start, 7)],
      [{ trial: 'trialing', trialPeriod: '1_month' }, (start: Date) => periodStart(start, 'monthly', 1)],
      [{ trial: true, trialPeriod: '1_year' }, (start: Date) => periodStart(start, 'yearly', 1)],
      [{ trial: true, trialPeriod: 10 }, (start: Date) => addDays(start, 10)],
      [{ trialPeriod: 3 }, (start: Date) => addDays(start, 3)],
    ])('%p: trialing until the trial ends, with no invoice yet', async (options, end) => {
      const s = (await subscribe(options)).body.data;
      expect(s.status).toBe('trialing');
      expect(s.trialEnd).toBe(end(new Date(s.startedAt)).toISOString());
      expect(s.nextBillingDate).toBe(s.trialEnd);
      expect([s.currentPeriodStart, s.currentPeriodEnd]).toEqual([s.startedAt, s.trialEnd]);
      expect(await invoicesOf(t, sk, s.id)).toEqual([]);
    });

    it('ends at a given trialEnd', async () => {
      const trialEnd = new Date(Date.now() + 5 * DAY).toISOString();
      const s = (await subscribe({ trial: true, trialEnd })).body.data;
      expect([s.status, s.trialEnd]).toEqual(['trialing', trialEnd]);
    });

    it('answers 400 when trial is true without trialPeriod or trialEnd, or ends before it starts', async () => {
      expectText(await subscribe({ trial: true }), 400, Messages.trialNeedsPeriodOrEnd);
      expectText(await subscribe({ trial: 'trialing' }), 400, Messages.trialNeedsPeriodOrEnd);
      expectText(
        await subscribe({ trialEnd: '2020-01-01T00:00:00Z', startedAt: '2021-01-01T00:00:00Z' }),
        400,
        Messages.trialEndNotAfterStart,
      );
    });

    it('creates no trial when trial is false', async () => {
      const s = (await subscribe({ trial: false, trialPeriod: '1_week' })).body.data;
      expect([s.status, s.trialEnd]).toEqual(['active', null]);
    });
  });

  it('validates the shapes of its inputs with 422', async () => {
    expect422(await subscribe({ trial: 'yes' }), 'body', '/trial');
    expect422(await subscribe({ trialPeriod: '2_weeks' }), 'body', '/trialPeriod');
    expect422(await subscribe({ trialPeriod: 0 }), 'body', '/trialPeriod');
    expect422(await subscribe({ trialPeriod: 731 }), 'body', '/trialPeriod');
    expect422(await subscribe({ startedAt: 'tomorrow' }), 'body', '/startedAt');
    expect422(await subscribe({ expiresAt: '2025-02-30' }), 'body', '/expiresAt');
    expect422(await subscribe({ trialEnd: 1700000000 }), 'body', '/trialEnd');
    expect422(await post('/subscriptions', { customerId: 'x', priceId: c.price.id }), 'body', '/customerId');
    expect422(await post('/subscriptions', { customerId: c.customer.id }), 'body', '/priceId');
  });

  it('answers 400 for expiresAt not after startedAt', async () => {
    expectText(
      await subscribe({ expiresAt: new Date(Date.now() - DAY).toISOString() }),
      400,
      Messages.expiresAtNotAfterStart,
    );
  });

  it('needs a customer of the organization (404 `Customer not found`)', async () => {
    expectText(
      await subscribe({ customerId: '00000000-0000-4000-8000-000000000000' }),
      404,
      Messages.customerNotFound,
    );
    const b = await newTenant(t);
    const theirs = await createCustomer(t, b.sandbox.secretKey);
    expectText(await subscribe({ customerId: theirs.id }), 404, Messages.customerNotFound);
    // The organization's customer, from the other environment: allowed (customers are shared).
    expect((await subscribe({}, org.production.secretKey)).body.data.environmentId).toBe(
      org.production.environmentId,
    );
  });

  it('needs an active price of an active product of the organization (404 `Price not found`)', async () => {
    const product = await createProduct(t, sk);
    const archived = await createPrice(t, sk, product.id);
    await t.http.patch(`/api/v1/prices/${archived.id}/archive`).set('Authorization', sk);
    expectText(await subscribe({ priceId: archived.id }), 404, Messages.priceNotFound);

    const replaced = await createPrice(t, sk, product.id);
    await t.http
      .patch(`/api/v1/prices/${replaced.id}`)
      .set('Authorization', sk)
      .send({ replaceExisting: true });
    expectText(await subscribe({ priceId: replaced.id }), 404, Messages.priceNotFound);

    const ofArchivedProduct = await createPrice(t, sk, product.id);
    await t.http.patch(`/api/v1/products/${product.id}/archive`).set('Authorization', sk);
    expectText(await subscribe({ priceId: ofArchivedProduct.id }), 404, Messages.priceNotFound);

    const b = await newTenant(t);
    const theirs = await catalog(t, b);
    expectText(await subscribe({ priceId: theirs.price.id }), 404, Messages.priceNotFound);
  });

  it('bills a backdated subscription once per started period, the overdue ones making it past_due; a run adds none', async () => {
    const startedAt = new Date(Date.now() - 75 * DAY);
    const res = await subscribe({ startedAt: startedAt.toISOString() });
    const s = res.body.data;
    const started = periodsStartedBy(startedAt, 'monthly', new Date());
    const invoices = await invoicesOf(t, sk, s.id);
    expect(invoices).toHaveLength(started);
    expect(invoices.map((i) => i.periodStart).sort()).toEqual(
      Array.from({ length: started }, (_, n) => periodStart(startedAt, 'monthly', n).toISOString()),
    );
    expect(s.status).toBe('past_due');
    expect(s.currentPeriodStart).toBe(periodStart(startedAt, 'monthly', started - 1).toISOString());
    await runBilling(t, sk);
    expect(await invoicesOf(t, sk, s.id)).toHaveLength(started);
  });

  it('announces the periods billed at creation by subscription-created alone, and each period billed later by subscription-updated', async () => {
    const startedAt = new Date(Date.now() - 75 * DAY);
    const s = (await subscribe({ startedAt: startedAt.toISOString() })).body.data;
    const atCreation = await invoicesOf(t, sk, s.id);
    expect(atCreation.length).toBeGreaterThan(1);
    expect(await eventsAbout('subscription-created', s.id)).toEqual([{ data: s }]);
    expect(await eventsAbout('subscription-updated', s.id)).toEqual([]);
    for (const invoice of atCreation)
      expect(await eventsAbout('invoice-created', invoice.id)).toHaveLength(1);

    // A month later, the run bills the periods started since.
    await timeTravel(t, s.id, 31 * DAY);
    await runBilling(t, sk);
    const billedLater = periodsStartedBy(new Date(startedAt.getTime() - 31 * DAY), 'monthly', new Date());
    const renewed = (await invoicesOf(t, sk, s.id)).filter((i) => !atCreation.some((a) => a.id === i.id));
    expect(renewed).toHaveLength(billedLater - atCreation.length);
    expect(renewed.length).toBeGreaterThan(0);
    const updates = (await eventsAbout('subscription-updated', s.id)).map((e) => e.data);
    expect(updates.map((u) => [u.id, u.currentPeriodStart]).sort()).toEqual(
      renewed.map((i) => [s.id, i.periodStart]).sort(),
    );
  });

  describe('a start more than 100 periods back', () => {
    const HOUR = 3600_000;
    // `back` intervals before (now - 1 h): periods 0..back have started, so back + 1 of them.
    const weeklyStart = (back: number) => new Date(Date.now() - HOUR - back * 7 * DAY).toISOString();
    const monthlyStart = (back: number) => addMonths(new Date(Date.now() - HOUR), -back).toISOString();
    let weekly: { id: string };
    beforeAll(async () => {
      weekly = await createPrice(t, sk, c.product.id, { interval: 'weekly' });
    });
    const subscriptionsOf = async (customerId: string) =>
      (await t.query('SELECT id FROM subscriptions WHERE customer_id = $1', [customerId])).length;

    it.each([
      ['weekly', () => weekly.id, weeklyStart],
      ['monthly', () => c.price.id, monthlyStart],
    ] as const)(
      '%s: bills exactly 100 started periods, and refuses 101 with 400, writing nothing',
      async (_i, price, at) => {
        const customer = await createCustomer(t, sk);
        const ok = await subscribe({ customerId: customer.id, priceId: price(), startedAt: at(99) });
        expect(ok.status).toBe(200);
        expect(await invoicesOf(t, sk, ok.body.data.id)).toHaveLength(100);

        const other = await createCustomer(t, sk);
        expectText(
          await subscribe({ customerId: other.id, priceId: price(), startedAt: at(100) }),
          400,
          Messages.startTooFarInPast,
        );
        expect(await subscriptionsOf(other.id)).toBe(0);

        const externalUserId = uniqueId('ext');
        expectText(
          await post('/subscriptions/by-external-user', {
            externalUserId,
            priceId: price(),
            startedAt: at(100),
          }),
          400,
          Messages.startTooFarInPast,
        );
        expect((await get(`/customers?externalUserId=${externalUserId}`)).body.data).toEqual([]);
      },
    );

    it('refuses startedAt 0001-01-01 on a weekly price at once', async () => {
      const started = Date.now();
      expectText(
        await subscribe({ priceId: weekly.id, startedAt: '0001-01-01T00:00:00Z' }),
        400,
        Messages.startTooFarInPast,
      );
      expect(Date.now() - started).toBeLessThan(5000);
    });
  });

  it('starts later when startedAt is in the future: no invoice until then', async () => {
    const startedAt = new Date(Date.now() + 3 * DAY).toISOString();
    const s = (await subscribe({ startedAt })).body.data;
    expect(s).toMatchObject({ status: 'active', currentPeriodStart: null, nextBillingDate: startedAt });
    expect(await invoicesOf(t, sk, s.id)).toEqual([]);
  });
});

describe('creating a subscription by external user', () => {
  it('creates the customer when needed, with the given phone', async () => {
    const externalUserId = uniqueId('ext');
    const res = await post('/subscriptions/by-external-user', {
      externalUserId,
      priceId: c.price.id,
      phone: '+22233445566',
    });
    expect(res.status).toBe(200);
    const customers = await get(`/customers?externalUserId=${externalUserId}`);
    expect(customers.body.data).toEqual([expect.objectContaining({ externalUserId, phone: '33445566' })]);
    expect(res.body.data.customerId).toBe(customers.body.data[0].id);
    const [invoice] = await invoicesOf(t, sk, res.body.data.id);
    expect((await get(`/payment-request/by-transaction/${invoice.id}`)).body.data.phoneNumber).toBe(
      '33445566',
    );
  });

  it('uses the existing customer and replaces its phone when one is given, keeps it otherwise', async () => {
    const customer = await createCustomer(t, sk, { phone: '22000000' });
    const first = await post('/subscriptions/by-external-user', {
      externalUserId: customer.externalUserId,
      priceId: c.price.id,
    });
    expect(first.body.data.customerId).toBe(customer.id);
    expect((await get(`/customers?id=${customer.id}`)).body.data[0].phone).toBe('22000000');
    await post('/subscriptions/by-external-user', {
      externalUserId: customer.externalUserId,
      priceId: c.price.id,
      phone: '44556677',
    });
    expect((await get(`/customers?id=${customer.id}`)).body.data[0].phone).toBe('44556677');
  });

  it('takes the creation options, and creates one customer for two requests at once', async () => {
    const externalUserId = uniqueId('ext');
    const body = { externalUserId, priceId: c.price.id, trialPeriod: '1_week' };
    const results = await Promise.all([
      post('/subscriptions/by-external-user', body),
      post('/subscriptions/by-external-user', body),
    ]);
    expect(results.map((r) => [r.status, r.body.data.status])).toEqual([
      [200, 'trialing'],
      [200, 'trialing'],
    ]);
    expect(results[0].body.data.customerId).toBe(results[1].body.data.customerId);
  });

  it('creates no customer when the price is not found, and validates the phone', async () => {
    const externalUserId = uniqueId('ext');
    const res = await post('/subscriptions/by-external-user', {
      externalUserId,
      priceId: '00000000-0000-4000-8000-000000000000',
    });
    expectText(res, 404, Messages.priceNotFound);
    expect((await get(`/customers?externalUserId=${externalUserId}`)).body.data).toEqual([]);
    expectText(
      await post('/subscriptions/by-external-user', { externalUserId, priceId: c.price.id, phone: '123' }),
      400,
      Messages.invalidPhoneNumber,
    );
    expect422(
      await post('/subscriptions/by-external-user', { priceId: c.price.id }),
      'body',
      '/externalUserId',
    );
  });
});

describe('reading subscriptions', () => {
  it('gets one in its environment; the other environment and another organization get 404', async () => {
    const s = (await subscribe()).body.data;
    expect((await get(`/subscriptions/${s.id}`)).body.data).toEqual(s);
    expectText(
      await get(`/subscriptions/${s.id}`, org.production.secretKey),
      404,
      Messages.subscriptionNotFound,
    );
    const b = await newTenant(t);
    expectText(await get(`/subscriptions/${s.id}`, b.sandbox.secretKey), 404, Messages.subscriptionNotFound);
    expectText(
      await post(`/subscriptions/${s.id}/cancel`, {}, b.sandbox.secretKey),
      404,
      Messages.subscriptionNotFound,
    );
    expectText(
      await post(`/subscriptions/${s.id}/pause`, {}, b.sandbox.secretKey),
      404,
      Messages.subscriptionNotFound,
    );
    expectText(
      await post(`/subscriptions/${s.id}/resume`, {}, org.production.secretKey),
      404,
      Messages.subscriptionNotFound,
    );
    expect422(await get('/subscriptions/not-a-uuid'), 'params', '/id');
  });

  it('lists the environment’s subscriptions newest first, filtered by status as shown', async () => {
    const b = await newTenant(t);
    const theirs = await catalog(t, b);
    const key = b.sandbox.secretKey;
    const base = { customerId: theirs.customer.id, priceId: theirs.price.id };
    const active = (await subscribe(base, key)).body.data;
    const trialing = (await subscribe({ ...base, trialPeriod: 7 }, key)).body.data;
    const pastDue = (
      await subscribe({ ...base, startedAt: new Date(Date.now() - 40 * DAY).toISOString() }, key)
    ).body.data;
    const cancelled = (await subscribe(base, key)).body.data;
    await post(`/subscriptions/${cancelled.id}/cancel`, {}, key);
    await subscribe(base, b.production.secretKey);

    const all = await get('/subscriptions', key);
    expect(all.body.data.map((s: { id: string }) => s.id)).toEqual([
      cancelled.id,
      pastDue.id,
      trialing.id,
      active.id,
    ]);
    expect(all.body.pagination).toEqual({ page: 1, limit: 20, total: 4, totalPages: 1 });
    const ids = async (status: string) =>
      (await get(`/subscriptions?status=${status}`, key)).body.data.map((s: { id: string }) => s.id);
    expect(await ids('active')).toEqual([active.id]);
    expect(await ids('past_due')).toEqual([pastDue.id]);
    expect(await ids('trialing')).toEqual([trialing.id]);
    expect(await ids('cancelled')).toEqual([cancelled.id]);
    expect(await ids('paused')).toEqual([]);
    expect(
      (await get('/subscriptions?limit=2&page=2', key)).body.data.map((s: { id: string }) => s.id),
    ).toEqual([trialing.id, active.id]);
    expect422(await get('/subscriptions?status=unknown', key), 'query', '/status');
  });

  it('gets a user’s newest current subscription, else the newest of any status, in the key’s environment', async () => {
    const customer = await createCustomer(t, sk);
    const byUser = () => get(`/subscriptions/by-external-user/${customer.externalUserId}`);
    expectText(await byUser(), 404, Messages.subscriptionNotFound);
    const current = (await subscribe({ customerId: customer.id })).body.data;
    const newer = (await subscribe({ customerId: customer.id })).body.data;
    await post(`/subscriptions/${newer.id}/cancel`);
    expect((await byUser()).body.data.id).toBe(current.id);
    await post(`/subscriptions/${current.id}/cancel`);
    expect((await byUser()).body.data.id).toBe(newer.id);
    expectText(
      await get(`/subscriptions/by-external-user/${customer.externalUserId}`, org.production.secretKey),
      404,
      Messages.subscriptionNotFound,
    );
    expectText(await get('/subscriptions/by-external-user/nobody-here'), 404, Messages.subscriptionNotFound);
  });
});

describe('cancelling', () => {
  it('now: cancelled, its unpaid invoices void (invoice-voided), subscription-updated; again is a no-op 200', async () => {
    const s = (await subscribe({ startedAt: new Date(Date.now() - 40 * DAY).toISOString() })).body.data;
    const before = await invoicesOf(t, sk, s.id);
    expect(before).toHaveLength(2);
    const res = await post(`/subscriptions/${s.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: s.id, status: 'cancelled', nextBillingDate: null });
    expect(Date.parse(res.body.data.cancelledAt)).toBeGreaterThan(Date.parse(s.createdAt) - 1);
    const after = await invoicesOf(t, sk, s.id);
    expect(after.map((i) => i.status)).toEqual(['void', 'void']);
    for (const invoice of after)
      expect(await eventsAbout('invoice-voided', invoice.id)).toEqual([{ data: invoice }]);
    expect((await eventsAbout('subscription-updated', s.id)).map((e) => e.data)).toEqual([res.body.data]);

    const again = await post(`/subscriptions/${s.id}/cancel`, {});
    expect(again.body.data).toEqual(res.body.data);
    expect(await eventsAbout('subscription-updated', s.id)).toHaveLength(1);
    await runBilling(t, sk);
    expect(await invoicesOf(t, sk, s.id)).toHaveLength(2);
  });

  it('keeps paid invoices paid', async () => {
    const s = (await subscribe()).body.data;
    const [invoice] = await invoicesOf(t, sk, s.id);
    await t.query(`UPDATE invoices SET status = 'paid', paid_at = now() WHERE id = $1`, [invoice.id]);
    await post(`/subscriptions/${s.id}/cancel`);
    expect((await invoicesOf(t, sk, s.id)).map((i) => i.status)).toEqual(['paid']);
  });

  it('at period end: pending_cancellation, its invoice kept; the run ends it when the period ends and voids what is unpaid', async () => {
    const weekly = await createPrice(t, sk, c.product.id, { interval: 'weekly', amount: 300 });
    const s = (await subscribe({ priceId: weekly.id })).body.data;
    const res = await post(`/subscriptions/${s.id}/cancel`, { atPeriodEnd: true });
    expect(res.body.data).toMatchObject({
      status: 'pending_cancellation',
      nextBillingDate: null,
      cancelledAt: null,
    });
    expect((await invoicesOf(t, sk, s.id)).map((i) => i.status)).toEqual(['pending']);
    expect((await post(`/subscriptions/${s.id}/cancel`, { atPeriodEnd: true })).body.data).toEqual(
      res.body.data,
    );

    await timeTravel(t, s.id, 8 * DAY);
    await runBilling(t, sk);
    const ended = (await get(`/subscriptions/${s.id}`)).body.data;
    expect(ended.status).toBe('cancelled');
    expect(ended.cancelledAt).toBe(ended.currentPeriodEnd);
    expect((await invoicesOf(t, sk, s.id)).map((i) => i.status)).toEqual(['void']);
  });

  it('accepts an empty JSON body with content-type application/json, as client libraries send', async () => {
    const s = (await subscribe()).body.data;
    const res = await t.http
      .post(`/api/v1/subscriptions/${s.id}/cancel`)
      .set('Authorization', sk)
      .set('content-type', 'application/json');
    expect(res.body.data.status).toBe('cancelled');
  });
});

describe('pausing and resuming', () => {
  it('bills nothing while paused; resuming after the period ended starts a new period at once', async () => {
    const weekly = await createPrice(t, sk, c.product.id, { interval: 'weekly', amount: 300 });
    const s = (await subscribe({ priceId: weekly.id })).body.data;
    const paused = await post(`/subscriptions/${s.id}/pause`);
    expect(paused.body.data.status).toBe('paused');
    expect((await post(`/subscriptions/${s.id}/pause`)).body.data).toEqual(paused.body.data);

    await timeTravel(t, s.id, 20 * DAY);
    expect((await runBilling(t, sk)).invoicesCreated).toBe(0);
    expect(await invoicesOf(t, sk, s.id)).toHaveLength(1);

    const before = Date.now();
    const resumed = (await post(`/subscriptions/${s.id}/resume`)).body.data;
    // The old invoice is overdue (its period ended while paused): past_due, with a new period from now.
    expect(resumed.status).toBe('past_due');
    expect(Date.parse(resumed.currentPeriodStart)).toBeGreaterThanOrEqual(before - 5);
    expect(resumed.nextBillingDate).toBe(addDays(new Date(resumed.currentPeriodStart), 7).toISOString());
    const invoices = await invoicesOf(t, sk, s.id);
    expect(invoices).toHaveLength(2);
    expect(invoices[0].periodStart).toBe(resumed.currentPeriodStart);
  });

  it('resuming within the period continues it: active, no new invoice', async () => {
    const s = (await subscribe()).body.data;
    await post(`/subscriptions/${s.id}/pause`);
    const resumed = (await post(`/subscriptions/${s.id}/resume`)).body.data;
    expect(resumed).toMatchObject({ status: 'active', nextBillingDate: s.nextBillingDate });
    expect(await invoicesOf(t, sk, s.id)).toHaveLength(1);
    expect((await post(`/subscriptions/${s.id}/resume`)).body.data).toEqual(resumed);
  });

  it('answers 409 for pausing or resuming a cancelled subscription', async () => {
    const s = (await subscribe()).body.data;
    await post(`/subscriptions/${s.id}/cancel`);
    expectText(
      await post(`/subscriptions/${s.id}/pause`),
      409,
      Messages.subscriptionCannotBePaused('cancelled'),
    );
    expectText(
      await post(`/subscriptions/${s.id}/resume`),
      409,
      Messages.subscriptionCannotBeResumed('cancelled'),
    );
  });

  it('resume withdraws a cancellation at period end', async () => {
    const s = (await subscribe()).body.data;
    await post(`/subscriptions/${s.id}/cancel`, { atPeriodEnd: true });
    const resumed = (await post(`/subscriptions/${s.id}/resume`)).body.data;
    expect(resumed).toMatchObject({ status: 'active', nextBillingDate: s.nextBillingDate });
  });
});
