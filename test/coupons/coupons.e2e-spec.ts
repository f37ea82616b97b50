import { Messages } from '../../src/common/errors/messages';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { catalog, createPrice, DAY, invoicesOf, runBilling, timeTravel, uniqueId } from '../helpers/billing';
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
const code = () =>
  uniqueId('C')
    .toUpperCase()
    .replace(/[^A-Z0-9_-]/g, '')
    .slice(-40);
const coupon = async (body: object) => {
  const res = await post('/coupons', { code: code(), ...body });
  if (res.status !== 200) throw new Error(res.text);
  return res.body.data;
};
const subscribe = async (body: object = {}) => {
  const res = await post('/subscriptions', { customerId: c.customer.id, priceId: c.price.id, ...body });
  if (res.status !== 200) throw new Error(res.text);
  return res.body.data;
};
/** Bills `n` more monthly periods of the subscription. */
const billPeriods = async (id: string, n: number) => {
  for (let i = 0; i < n; i++) {
    await timeTravel(t, id, 31 * DAY);
    await runBilling(t, sk);
  }
};
const byPeriod = async (id: string) =>
  (await invoicesOf(t, sk, id)).sort((a, b) => a.periodStart.localeCompare(b.periodStart));

describe('coupons', () => {
  it('are created, read, listed and archived, organization-scoped', async () => {
    const k = await coupon({
      percentOff: 25,
      duration: 'repeating',
      durationInPeriods: 3,
      maxRedemptions: 10,
    });
    expect(k).toMatchObject({
      percentOff: 25,
      amountOff: null,
      duration: 'repeating',
      durationInPeriods: 3,
      maxRedemptions: 10,
      timesRedeemed: 0,
      expiresAt: null,
      archived: false,
      organizationId: org.organizationId,
    });
    expect((await get(`/coupons/${k.id}`)).body.data).toEqual(k);
    expect((await get(`/coupons/${k.id}`, org.production.secretKey)).body.data).toEqual(k);
    expect((await get('/coupons?limit=100')).body.data).toContainEqual(k);
    const archived = await post(`/coupons/${k.id}/archive`);
    expect(archived.body.data).toEqual({ ...k, archived: true });
    const other = await newTenant(t);
    expectText(await get(`/coupons/${k.id}`, other.sandbox.secretKey), 404, Messages.couponNotFound);
  });

  it('get a generated code when none is given; a code is unique in the organization (409)', async () => {
    const k = await post('/coupons', { amountOff: 100, duration: 'once' });
    expect(k.body.data.code).toMatch(/^[A-Z0-9]{10}$/);
    const again = await post('/coupons', { code: k.body.data.code, amountOff: 5, duration: 'once' });
    expectText(again, 409, Messages.couponCodeTaken);
  });

  it('take exactly one of percentOff and amountOff, and durationInPeriods with repeating only (400); shapes (422)', async () => {
    expectText(await post('/coupons', { duration: 'once' }), 400, Messages.couponOneKindOfDiscount);
    expectText(
      await post('/coupons', { percentOff: 5, amountOff: 5, duration: 'once' }),
      400,
      Messages.couponOneKindOfDiscount,
    );
    expectText(
      await post('/coupons', { percentOff: 5, duration: 'repeating' }),
      400,
      Messages.couponDurationInPeriods,
    );
    expectText(
      await post('/coupons', { percentOff: 5, duration: 'forever', durationInPeriods: 2 }),
      400,
      Messages.couponDurationInPeriods,
    );
    expect422(await post('/coupons', { code: 'ab', percentOff: 5, duration: 'once' }), 'body', '/code');
    expect422(
      await post('/coupons', { code: 'lower-case', percentOff: 5, duration: 'once' }),
      'body',
      '/code',
    );
    expect422(await post('/coupons', { percentOff: 101, duration: 'once' }), 'body', '/percentOff');
    expect422(await post('/coupons', { amountOff: 0, duration: 'once' }), 'body', '/amountOff');
    expect422(await post('/coupons', { percentOff: 5, duration: 'sometimes' }), 'body', '/duration');
    expect422(
      await post('/coupons', { percentOff: 5, duration: 'repeating', durationInPeriods: 121 }),
      'body',
      '/durationInPeriods',
    );
  });
});

describe('discounts on subscriptions', () => {
  it('once: the first invoice only, the percentage rounded half up; the discount then ends', async () => {
    const price = await createPrice(t, sk, c.product.id, { amount: 1499 });
    const k = await coupon({ percentOff: 25, duration: 'once' });
    const s = await subscribe({ priceId: price.id, coupon: k.code });
    expect(s.discount).toBeNull(); // its one period is billed at creation
    await billPeriods(s.id, 1);
    const [first, second] = await byPeriod(s.id);
    expect(first).toMatchObject({ subtotal: '1499.00', discount: '375.00', amount: '1124.00' }); // 374.75
    expect(second).toMatchObject({ subtotal: '1499.00', discount: '0.00', amount: '1499.00' });
    expect((await get(`/payment-request/by-transaction/${first.id}`)).body.data.amount).toBe(1124);
  });

  it('repeating: durationInPeriods invoices, shown as the subscription’s discount meanwhile', async () => {
    const k = await coupon({ amountOff: 500, duration: 'repeating', durationInPeriods: 2 });
    const s = await subscribe({ coupon: k.id, quantity: 2 });
    expect(s.discount).toEqual({ couponId: k.id, endsAfterPeriods: 2, periodsApplied: 1 });
    await billPeriods(s.id, 2);
    expect((await byPeriod(s.id)).map((i) => [i.subtotal, i.discount, i.amount])).toEqual([
      ['3000.00', '500.00', '2500.00'],
      ['3000.00', '500.00', '2500.00'],
      ['3000.00', '0.00', '3000.00'],
    ]);
    expect((await get(`/subscriptions/${s.id}`)).body.data.discount).toBeNull();
    expect((await get(`/coupons/${k.id}`)).body.data.timesRedeemed).toBe(1);
  });

  it('forever: every invoice', async () => {
    const k = await coupon({ percentOff: 10, duration: 'forever' });
    const s = await subscribe({ coupon: k.code });
    await billPeriods(s.id, 2);
    expect((await byPeriod(s.id)).map((i) => i.amount)).toEqual(['1350.00', '1350.00', '1350.00']);
    expect((await get(`/subscriptions/${s.id}`)).body.data.discount).toEqual({
      couponId: k.id,
      endsAfterPeriods: null,
      periodsApplied: 3,
    });
  });

  it('100 % (or an amount over the subtotal): a paid invoice of 0 with no payment request, and invoice-paid', async () => {
    for (const off of [{ percentOff: 100 }, { amountOff: 99_999 }]) {
      const k = await coupon({ ...off, duration: 'once' });
      const s = await subscribe({ coupon: k.code });
      const [invoice] = await invoicesOf(t, sk, s.id);
      expect(invoice).toMatchObject({
        status: 'paid',
        subtotal: '1500.00',
        discount: '1500.00',
        amount: '0.00',
        amountDue: '0.00',
        paymentRequestId: null,
      });
      const kinds = await t.query(`SELECT kind, data FROM events WHERE data->>'id' = $1 ORDER BY kind`, [
        invoice.id,
      ]);
      expect(kinds).toEqual([
        { kind: 'invoice-created', data: invoice },
        { kind: 'invoice-paid', data: invoice },
      ]);
      const requests = await t.query(
        `SELECT count(*)::int AS n FROM payment_requests WHERE invoice_id = $1`,
        [invoice.id],
      );
      expect(requests).toEqual([{ n: 0 }]);
    }
  });

  it('applied later, replaced and removed; subscription-updated each time', async () => {
    const s = await subscribe();
    const a = await coupon({ percentOff: 50, duration: 'forever' });
    const b = await coupon({ amountOff: 100, duration: 'once' });
    const applied = await post(`/subscriptions/${s.id}/discount`, { coupon: a.code });
    expect(applied.body.data.discount).toEqual({ couponId: a.id, endsAfterPeriods: null, periodsApplied: 0 });
    const replaced = await post(`/subscriptions/${s.id}/discount`, { coupon: b.id });
    expect(replaced.body.data.discount).toEqual({ couponId: b.id, endsAfterPeriods: 1, periodsApplied: 0 });
    await billPeriods(s.id, 1);
    expect((await byPeriod(s.id)).map((i) => i.amount)).toEqual(['1500.00', '1400.00']);
    await post(`/subscriptions/${s.id}/discount`, { coupon: a.code });
    const removed = await t.http.delete(`/api/v1/subscriptions/${s.id}/discount`).set('Authorization', sk);
    expect(removed.status).toBe(200);
    expect(removed.body.data.discount).toBeNull();
    await billPeriods(s.id, 1);
    expect((await byPeriod(s.id)).map((i) => i.amount)).toEqual(['1500.00', '1400.00', '1500.00']);
    const updated = await t.query(
      `SELECT data FROM events WHERE kind = 'subscription-updated' AND data->>'id' = $1 ORDER BY created_at`,
      [s.id],
    );
    expect(updated.map((e) => e.data.discount?.couponId ?? null)).toEqual([
      a.id,
      b.id,
      null,
      a.id,
      null,
      null,
    ]);
  });

  it('an unknown, archived, expired or exhausted coupon: 400 Coupon is not valid, and nothing is created', async () => {
    const archived = await coupon({ percentOff: 5, duration: 'once' });
    await post(`/coupons/${archived.id}/archive`);
    const expired = await coupon({
      percentOff: 5,
      duration: 'once',
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    const exhausted = await coupon({ percentOff: 5, duration: 'once', maxRedemptions: 1 });
    await subscribe({ coupon: exhausted.code });
    const before = await t.query(`SELECT count(*)::int AS n FROM subscriptions WHERE environment_id = $1`, [
      org.sandbox.environmentId,
    ]);
    for (const k of ['NOPE-NOT-HERE', archived.code, expired.id, exhausted.code]) {
      expectText(
        await post('/subscriptions', { customerId: c.customer.id, priceId: c.price.id, coupon: k }),
        400,
        Messages.couponNotValid,
      );
    }
    const s = await subscribe();
    expectText(
      await post(`/subscriptions/${s.id}/discount`, { coupon: expired.code }),
      400,
      Messages.couponNotValid,
    );
    const after = await t.query(`SELECT count(*)::int AS n FROM subscriptions WHERE environment_id = $1`, [
      org.sandbox.environmentId,
    ]);
    expect(after[0].n).toBe(before[0].n + 1);
    // Another organization's coupon is unknown here.
    const other = await newTenant(t);
    const foreign = (await post('/coupons', { percentOff: 5, duration: 'once' }, other.sandbox.secretKey))
      .body.data;
    expectText(
      await post(`/subscriptions/${s.id}/discount`, { coupon: foreign.id }),
      400,
      Messages.couponNotValid,
    );
  });

  it('20 redemptions at once of a coupon with 5 left: exactly 5 pass', async () => {
    const k = await coupon({ percentOff: 10, duration: 'once', maxRedemptions: 7 });
    await subscribe({ coupon: k.code });
    await subscribe({ coupon: k.code });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        post('/subscriptions', { customerId: c.customer.id, priceId: c.price.id, coupon: k.code }),
      ),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(5);
    expect(answers.filter((r) => r.status === 400 && r.text === Messages.couponNotValid)).toHaveLength(15);
    expect((await get(`/coupons/${k.id}`)).body.data.timesRedeemed).toBe(7);
  });
});
