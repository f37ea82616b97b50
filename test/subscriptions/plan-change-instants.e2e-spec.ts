import { Clock } from '../../src/common/clock';
import type { InvoiceJson } from '../../src/invoices/invoice';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { catalog, createCustomer, createPrice, invoicesOf, uniqueId } from '../helpers/billing';

/*
 * Plan changes at chosen instants (the app's Clock frozen there): two changes in one millisecond,
 * concurrent changes, the billing instant itself, month ends, Feb 29, a trial's end; and the
 * coupon's share of a proration. Every expected period is written out here, not read back.
 */

let t: TestApp;
let org: CreatedOrganization;
let sk: string;
let c: Awaited<ReturnType<typeof catalog>>;
let frozen: number | null = null;
beforeAll(async () => {
  t = await startTestApp();
  org = await newTenant(t);
  sk = org.sandbox.secretKey;
  c = await catalog(t, org);
  const clock = t.app.get(Clock);
  const real = clock.now.bind(clock);
  jest.spyOn(clock, 'now').mockImplementation(() => frozen ?? real());
});
afterEach(() => {
  frozen = null;
});
afterAll(() => t.close());

const get = (path: string) => t.http.get(`/api/v1${path}`).set('Authorization', sk);
const post = (path: string, body: object = {}) =>
  t.http.post(`/api/v1${path}`).set('Authorization', sk).send(body);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function ok(res: { status: number; text: string; body: { data: any } }) {
  if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
  return res.body.data;
}
const subscribe = async (body: object) =>
  ok(await post('/subscriptions', { customerId: (await createCustomer(t, sk)).id, ...body }));
const change = async (id: string, body: object) => ok(await post(`/subscriptions/${id}/change`, body));
const creditOf = async (customerId: string): Promise<number> =>
  (await get(`/customers?id=${customerId}`)).body.data[0].creditBalance;
const prorationsOf = async (id: string) =>
  (await invoicesOf(t, sk, id))
    .filter((i) => i.lines[0].proration)
    .sort((a, b) => a.number.localeCompare(b.number));
const periodInvoiceAt = async (id: string, start: string) =>
  (await invoicesOf(t, sk, id)).filter((i) => !i.lines[0].proration && i.periodStart === start);

/** The reference: round half up of |diff| × remaining / period, signed. */
function reference(diff: number, at: string, start: string, end: string): number {
  const [n, s, e] = [Date.parse(at), Date.parse(start), Date.parse(end)];
  const exact = (Math.abs(diff) * (e - n)) / (e - s);
  const rounded = Math.floor(exact) + (exact - Math.floor(exact) >= 0.5 ? 1 : 0);
  return Math.sign(diff) * rounded;
}
const money = (n: number) => `${n}.00`;
const freeze = (iso: string) => {
  frozen = Date.parse(iso);
};

describe('two prorated changes of one subscription at the same instant', () => {
  it('twice in one millisecond: each change has its invoice, both starting then, numbered in turn', async () => {
    const price = await createPrice(t, sk, c.product.id, { amount: 1000, interval: 'monthly' });
    const s = await subscribe({ priceId: price.id, startedAt: '2026-10-31T12:00:00.000Z' });
    const at = '2027-01-15T09:30:00.123Z';
    freeze(at);
    await change(s.id, { quantity: 3 });
    await change(s.id, { quantity: 7 });
    const [start, end] = ['2026-12-31T12:00:00.000Z', '2027-01-31T12:00:00.000Z'];
    const invoices = await prorationsOf(s.id);
    expect(invoices.map((i) => [i.periodStart, i.periodEnd, i.amount])).toEqual([
      [at, end, money(reference(2000, at, start, end))],
      [at, end, money(reference(4000, at, start, end))],
    ]);
    expect(invoices.map((i) => i.status)).toEqual(['pending', 'pending']);
    const [first, second] = invoices.map((i) => Number(i.number.split('-').pop()));
    expect(second).toBe(first + 1);
    for (const i of invoices) {
      const request = await get(`/payment-request/by-transaction/${i.id}`);
      expect(request.body.data).toMatchObject({ amount: Number(i.amount), status: 'pending' });
      const events = await t.query(`SELECT kind FROM events WHERE data->>'id' = $1`, [i.id]);
      expect(events.map((e) => e.kind)).toEqual(['invoice-created']);
    }
  });

  it('two concurrent changes at one instant: both invoiced, from the terms each found', async () => {
    const base = await createPrice(t, sk, c.product.id, { amount: 1000, interval: 'monthly' });
    const pro = await createPrice(t, sk, c.product.id, { amount: 2500, interval: 'monthly' });
    const s = await subscribe({ priceId: base.id, startedAt: '2026-10-31T12:00:00.000Z' });
    const at = '2027-01-20T00:00:00.000Z';
    freeze(at);
    const answers = await Promise.all([
      post(`/subscriptions/${s.id}/change`, { priceId: pro.id }),
      post(`/subscriptions/${s.id}/change`, { quantity: 3 }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const [start, end] = ['2026-12-31T12:00:00.000Z', '2027-01-31T12:00:00.000Z'];
    const p = (diff: number) => money(reference(diff, at, start, end));
    const amounts = (await prorationsOf(s.id)).map((i) => i.amount).sort();
    // Whichever went first: price then quantity, or quantity then price.
    const priceFirst = [p(2500 - 1000), p(7500 - 2500)].sort();
    const quantityFirst = [p(3000 - 1000), p(7500 - 3000)].sort();
    expect([priceFirst, quantityFirst]).toContainEqual(amounts);
    expect(await ok(await get(`/subscriptions/${s.id}`))).toMatchObject({ priceId: pro.id, quantity: 3 });
  });

  it('the billing run still bills each period once beside them', async () => {
    const price = await createPrice(t, sk, c.product.id, { amount: 1000, interval: 'monthly' });
    const s = await subscribe({ priceId: price.id, startedAt: '2026-10-31T12:00:00.000Z' });
    freeze('2027-01-31T12:00:00.000Z');
    await change(s.id, { quantity: 2 });
    await change(s.id, { quantity: 4 });
    frozen = null;
    const invoices = await invoicesOf(t, sk, s.id);
    const periods = invoices.filter((i) => !i.lines[0].proration).map((i) => i.periodStart);
    expect(new Set(periods).size).toBe(periods.length);
    expect(periods.filter((p) => p === '2027-01-31T12:00:00.000Z')).toHaveLength(1);
    expect(await prorationsOf(s.id)).toHaveLength(2);
    const counts = await t.query<{ n: number; numbers: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT number)::int AS numbers FROM invoices WHERE subscription_id = $1`,
      [s.id],
    );
    expect(counts).toEqual([{ n: invoices.length, numbers: invoices.length }]);
  });
});

describe('changes on the awkward instants of the calendar', () => {
  it.each([
    // [name, interval, startedAt, change at, period start, period end]
    [
      'in the last hours of a 30-day month',
      'monthly',
      '2026-08-31T00:00:00.000Z',
      '2027-04-29T18:00:00.000Z',
      '2027-03-31T00:00:00.000Z',
      '2027-04-30T00:00:00.000Z',
    ],
    [
      'on Feb 29, within the period ending then',
      'monthly',
      '2026-10-31T12:00:00.000Z',
      '2028-02-29T06:00:00.000Z',
      '2028-01-31T12:00:00.000Z',
      '2028-02-29T12:00:00.000Z',
    ],
    [
      'on Feb 29 of a leap year, mid-period of a Feb 29 yearly',
      'yearly',
      '2024-02-29T08:00:00.000Z',
      '2028-02-29T00:00:00.000Z',
      '2027-02-28T08:00:00.000Z',
      '2028-02-29T08:00:00.000Z',
    ],
    [
      'on Dec 31 of a weekly',
      'weekly',
      '2026-11-03T00:00:00.000Z',
      '2026-12-31T23:59:59.000Z',
      '2026-12-29T00:00:00.000Z',
      '2027-01-05T00:00:00.000Z',
    ],
  ])(
    '%s: the reference over the period the calendar gives',
    async (_n, interval, startedAt, at, start, end) => {
      const p = await createPrice(t, sk, c.product.id, { amount: 1234, interval });
      const up = await createPrice(t, sk, c.product.id, { amount: 4321, interval });
      const s = await subscribe({ priceId: p.id, startedAt, quantity: 3 });
      freeze(at);
      const changed = await change(s.id, { priceId: up.id, quantity: 7 });
      expect(changed).toMatchObject({ currentPeriodStart: start, currentPeriodEnd: end });
      const [invoice] = await prorationsOf(s.id);
      expect([invoice.periodStart, invoice.periodEnd]).toEqual([at, end]);
      expect(invoice.amount).toBe(money(reference(4321 * 7 - 1234 * 3, at, start, end)));
    },
  );

  it.each([
    [
      'a month end (Apr 30 of a monthly from the 31st)',
      'monthly',
      '2026-08-31T00:00:00.000Z',
      '2027-04-30T00:00:00.000Z',
      '2027-05-31T00:00:00.000Z',
    ],
    [
      'Feb 29 (a monthly from the 31st)',
      'monthly',
      '2026-10-31T12:00:00.000Z',
      '2028-02-29T12:00:00.000Z',
      '2028-03-31T12:00:00.000Z',
    ],
  ])(
    'on the billing instant itself, %s: the period starting then billed at the old terms, the whole difference prorated',
    async (_n, interval, startedAt, at, end) => {
      const p = await createPrice(t, sk, c.product.id, { amount: 1000, interval });
      const s = await subscribe({ priceId: p.id, startedAt });
      freeze(at);
      await change(s.id, { quantity: 2 });
      const [period] = await periodInvoiceAt(s.id, at);
      expect(period).toMatchObject({ periodStart: at, periodEnd: end, amount: '1000.00' });
      const [invoice] = await prorationsOf(s.id);
      expect(invoice).toMatchObject({ periodStart: at, periodEnd: end, amount: '1000.00' });
    },
  );

  it('on a trial’s last instant: nothing prorated; on its end: the first period at the old terms and the whole difference', async () => {
    const p = await createPrice(t, sk, c.product.id, { amount: 1000, interval: 'monthly' });
    const trialEnd = new Date(Date.now() + 10 * 86_400_000);
    trialEnd.setUTCMilliseconds(0);
    const s = await subscribe({ priceId: p.id, trialEnd: trialEnd.toISOString() });
    expect(s.status).toBe('trialing');
    frozen = trialEnd.getTime() - 1;
    await change(s.id, { quantity: 2 });
    expect(await invoicesOf(t, sk, s.id)).toEqual([]);
    frozen = trialEnd.getTime();
    await change(s.id, { quantity: 3 });
    const [first] = await periodInvoiceAt(s.id, trialEnd.toISOString());
    expect(first.amount).toBe('2000.00');
    const [invoice] = await prorationsOf(s.id);
    expect(invoice).toMatchObject({ periodStart: trialEnd.toISOString(), amount: '1000.00' });
  });

  it('while paused, on what would have been its billing instant: nothing billed, nothing prorated', async () => {
    const p = await createPrice(t, sk, c.product.id, { amount: 1000, interval: 'monthly' });
    const s = await subscribe({ priceId: p.id });
    await ok(await post(`/subscriptions/${s.id}/pause`));
    freeze(s.currentPeriodEnd);
    expect(await change(s.id, { quantity: 4 })).toMatchObject({ status: 'paused', quantity: 4 });
    expect((await invoicesOf(t, sk, s.id)).map((i) => i.periodStart)).toEqual([s.currentPeriodStart]);
  });
});

describe('a coupon on a prorated change', () => {
  const coupon = async (body: object) =>
    ok(
      await post('/coupons', {
        code: uniqueId('P')
          .toUpperCase()
          .replace(/[^A-Z0-9_]/g, '')
          .slice(-30),
        ...body,
      }),
    );

  it('a percentage takes its share off the prorated invoice (rounded half up), and the period count is untouched', async () => {
    const p = await createPrice(t, sk, c.product.id, { amount: 1000, interval: 'monthly' });
    const off = await coupon({ percentOff: 25, duration: 'repeating', durationInPeriods: 6 });
    const s = await subscribe({ priceId: p.id, startedAt: '2026-10-31T12:00:00.000Z', coupon: off.code });
    const at = '2027-01-10T00:00:00.000Z';
    freeze(at);
    const changed = await change(s.id, { quantity: 3 });
    const prorated = reference(2000, at, '2026-12-31T12:00:00.000Z', '2027-01-31T12:00:00.000Z');
    const discount = Math.floor((prorated * 25 * 2 + 100) / 200);
    const [invoice]: InvoiceJson[] = await prorationsOf(s.id);
    expect(invoice).toMatchObject({
      subtotal: money(prorated),
      discount: money(discount),
      amount: money(prorated - discount),
    });
    expect(invoice.lines[0].amount).toBe(money(prorated));
    expect((await get(`/payment-request/by-transaction/${invoice.id}`)).body.data.amount).toBe(
      prorated - discount,
    );
    expect(changed.discount).toMatchObject({ couponId: off.id, periodsApplied: 3, endsAfterPeriods: 6 });
  });

  it('a percentage takes its share off a credit too: a discounted period gives back what was paid for it', async () => {
    const p = await createPrice(t, sk, c.product.id, { amount: 1000, interval: 'monthly' });
    const off = await coupon({ percentOff: 50, duration: 'forever' });
    const s = await subscribe({
      priceId: p.id,
      startedAt: '2026-10-31T12:00:00.000Z',
      quantity: 5,
      coupon: off.id,
    });
    const at = '2027-01-07T13:13:13.013Z';
    freeze(at);
    await change(s.id, { quantity: 2 });
    const prorated = -reference(-3000, at, '2026-12-31T12:00:00.000Z', '2027-01-31T12:00:00.000Z');
    expect(await creditOf(s.customerId)).toBe(prorated - Math.floor((prorated * 50 * 2 + 100) / 200));
  });

  it('100 %: the prorated invoice is paid at once, with no payment request', async () => {
    const p = await createPrice(t, sk, c.product.id, { amount: 1000, interval: 'monthly' });
    const free = await coupon({ percentOff: 100, duration: 'forever' });
    const s = await subscribe({ priceId: p.id, coupon: free.id });
    await change(s.id, { quantity: 2 });
    const [invoice] = await prorationsOf(s.id);
    expect(invoice).toMatchObject({ amount: '0.00', status: 'paid', paymentRequestId: null });
    expect(Number(invoice.discount)).toBeGreaterThan(0);
  });

  it('a fixed amount off is not taken off prorations (it is per period billed)', async () => {
    const p = await createPrice(t, sk, c.product.id, { amount: 1000, interval: 'monthly' });
    const off = await coupon({ amountOff: 300, duration: 'forever' });
    const s = await subscribe({ priceId: p.id, startedAt: '2026-10-31T12:00:00.000Z', coupon: off.id });
    const at = '2027-01-12T00:00:00.000Z';
    freeze(at);
    await change(s.id, { quantity: 4 });
    const [invoice] = await prorationsOf(s.id);
    const prorated = reference(3000, at, '2026-12-31T12:00:00.000Z', '2027-01-31T12:00:00.000Z');
    expect(invoice).toMatchObject({ subtotal: money(prorated), discount: '0.00', amount: money(prorated) });
  });

  it('a once coupon already spent on the period: the proration is not discounted', async () => {
    const p = await createPrice(t, sk, c.product.id, { amount: 1000, interval: 'monthly' });
    const once = await coupon({ percentOff: 40, duration: 'once' });
    const s = await subscribe({ priceId: p.id, coupon: once.id });
    expect(s.discount).toBeNull();
    await change(s.id, { quantity: 2 });
    const [invoice] = await prorationsOf(s.id);
    expect(invoice.discount).toBe('0.00');
  });
});
