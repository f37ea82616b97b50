import { Messages } from '../../src/common/errors/messages';
import type { InvoiceJson } from '../../src/invoices/invoice';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
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

const get = (path: string) => t.http.get(`/api/v1${path}`).set('Authorization', sk);
const post = (path: string, body: object = {}) =>
  t.http.post(`/api/v1${path}`).set('Authorization', sk).send(body);
const subscribe = async (body: object = {}, customerId?: string) => {
  const res = await post('/subscriptions', {
    customerId: customerId ?? c.customer.id,
    priceId: c.price.id,
    ...body,
  });
  if (res.status !== 200) throw new Error(res.text);
  return res.body.data;
};
const change = (id: string, body: object) => post(`/subscriptions/${id}/change`, body);
const creditOf = async (customerId: string) =>
  (await get(`/customers?id=${customerId}`)).body.data[0].creditBalance;
const prorationsOf = async (id: string) => (await invoicesOf(t, sk, id)).filter((i) => i.lines[0].proration);

/** The reference: round half up of the difference over the remaining share of the period, on the magnitude. */
function expectedProration(diff: number, at: string, start: string, end: string): number {
  const [n, s, e] = [Date.parse(at), Date.parse(start), Date.parse(end)];
  const exact = (Math.abs(diff) * (e - n)) / (e - s);
  const rounded = Math.floor(exact) + (exact - Math.floor(exact) >= 0.5 ? 1 : 0);
  return Math.sign(diff) * rounded;
}

describe('POST /subscriptions/:id/change now, prorated', () => {
  it('up: the new price and quantity at once, and an invoice for the difference over the rest of the period, with its payment request', async () => {
    const customer = await createCustomer(t, sk);
    const s = await subscribe({ startedAt: new Date(Date.now() - 10 * DAY).toISOString() }, customer.id);
    const pro = await createPrice(t, sk, c.product.id, { amount: 4000 });
    const res = await change(s.id, { priceId: pro.id, quantity: 2 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      priceId: pro.id,
      quantity: 2,
      pendingChange: null,
      status: 'active',
    });
    const [invoice] = await prorationsOf(s.id);
    const at = invoice.periodStart;
    expect(invoice).toMatchObject({
      status: 'pending',
      periodEnd: s.currentPeriodEnd,
      dueDate: s.currentPeriodEnd,
    });
    const amount = expectedProration(8000 - 1500, at, s.currentPeriodStart, s.currentPeriodEnd);
    expect(amount).toBeGreaterThan(0);
    expect(invoice.amount).toBe(`${amount}.00`);
    expect(invoice.lines).toEqual([
      {
        description: 'Premium',
        quantity: 1,
        unitAmount: `${amount}.00`,
        amount: `${amount}.00`,
        periodStart: at,
        periodEnd: s.currentPeriodEnd,
        proration: true,
      },
    ]);
    const request = await get(`/payment-request/by-transaction/${invoice.id}`);
    expect(request.body.data).toMatchObject({ amount, status: 'pending', phoneNumber: customer.phone });
    const events = await t.query(
      `SELECT kind, data FROM events WHERE kind IN ('subscription-updated', 'invoice-created') AND (data->>'id' = $1 OR data->>'id' = $2)
        ORDER BY created_at, kind`,
      [s.id, invoice.id],
    );
    expect(events).toEqual([
      { kind: 'invoice-created', data: invoice },
      { kind: 'subscription-updated', data: res.body.data },
    ]);
    // The next period bills the new terms in full.
    await timeTravel(t, s.id, Date.parse(s.currentPeriodEnd) - Date.now() + 1000);
    await runBilling(t, sk);
    const amounts = (await invoicesOf(t, sk, s.id)).filter((i) => !i.lines[0].proration).map((i) => i.amount);
    expect(amounts.sort()).toEqual(['1500.00', '8000.00']);
  });

  it('down: a credit on the customer, taken off the next invoices, never below 0 and never lost', async () => {
    const customer = await createCustomer(t, sk);
    const s = await subscribe({ quantity: 10 }, customer.id);
    const res = await change(s.id, { quantity: 1 });
    expect(res.status).toBe(200);
    expect(await prorationsOf(s.id)).toEqual([]);
    const changedAt = res.body.data.updatedAt;
    const credit = -expectedProration(1500 - 15000, changedAt, s.currentPeriodStart, s.currentPeriodEnd);
    expect(credit).toBeGreaterThan(13000);
    expect(await creditOf(customer.id)).toBe(credit);

    // The next period (1,500) is paid from the credit: an invoice of 0, paid, with no payment request.
    await timeTravel(t, s.id, Date.parse(s.currentPeriodEnd) - Date.now() + 1000);
    await runBilling(t, sk);
    const invoices: InvoiceJson[] = await invoicesOf(t, sk, s.id);
    const billed = invoices.find((i) => i.creditApplied !== '0.00');
    expect(billed).toMatchObject({
      subtotal: '1500.00',
      creditApplied: '1500.00',
      amount: '0.00',
      status: 'paid',
      paymentRequestId: null,
    });
    expect(await creditOf(customer.id)).toBe(credit - 1500);
    const paidEvents = await t.query(`SELECT kind FROM events WHERE data->>'id' = $1 ORDER BY kind`, [
      billed!.id,
    ]);
    expect(paidEvents.map((e) => e.kind)).toEqual(['invoice-created', 'invoice-paid']);
  });

  it('a credit smaller than the invoice: the rest asked for', async () => {
    const customer = await createCustomer(t, sk);
    await t.query(`UPDATE customers SET credit_balance = 400 WHERE id = $1`, [customer.id]);
    const s = await subscribe({}, customer.id);
    const [invoice] = await invoicesOf(t, sk, s.id);
    expect(invoice).toMatchObject({
      subtotal: '1500.00',
      creditApplied: '400.00',
      amount: '1100.00',
      status: 'pending',
    });
    expect((await get(`/payment-request/by-transaction/${invoice.id}`)).body.data.amount).toBe(1100);
    expect(await creditOf(customer.id)).toBe(0);
  });

  it('a credit is spent once when two subscriptions of the customer are billed at once', async () => {
    const customer = await createCustomer(t, sk);
    await t.query(`UPDATE customers SET credit_balance = 2000 WHERE id = $1`, [customer.id]);
    const subs = await Promise.all([subscribe({}, customer.id), subscribe({}, customer.id)]);
    const applied = (await Promise.all(subs.map((s) => invoicesOf(t, sk, s.id))))
      .flat()
      .map((i) => Number(i.creditApplied));
    expect(applied.sort((a, b) => a - b)).toEqual([500, 1500]);
    expect(await creditOf(customer.id)).toBe(0);
  });

  it('another product’s price is allowed; the line names it', async () => {
    const other = await createProduct(t, sk, { name: 'Famille' });
    const price = await createPrice(t, sk, other.id, { amount: 9000 });
    const s = await subscribe();
    expect((await change(s.id, { priceId: price.id })).status).toBe(200);
    const [invoice] = await prorationsOf(s.id);
    expect(invoice.lines[0].description).toBe('Famille');
  });

  it('without prorate: nothing invoiced nor credited', async () => {
    const customer = await createCustomer(t, sk);
    const s = await subscribe({ quantity: 3 }, customer.id);
    expect((await change(s.id, { quantity: 1, prorate: false })).body.data.quantity).toBe(1);
    expect(await prorationsOf(s.id)).toEqual([]);
    expect(await creditOf(customer.id)).toBe(0);
  });

  it('during a trial: the new terms, nothing prorated; the first invoice at the trial’s end bills them', async () => {
    const s = await subscribe({ trialPeriod: 7 });
    const res = await change(s.id, { quantity: 5 });
    expect(res.body.data).toMatchObject({ status: 'trialing', quantity: 5 });
    expect(await invoicesOf(t, sk, s.id)).toEqual([]);
    await timeTravel(t, s.id, 8 * DAY);
    await runBilling(t, sk);
    expect((await invoicesOf(t, sk, s.id)).map((i) => i.amount)).toEqual(['7500.00']);
  });

  it('while paused: the new terms, nothing prorated', async () => {
    const s = await subscribe();
    await post(`/subscriptions/${s.id}/pause`);
    const res = await change(s.id, { quantity: 2 });
    expect(res.body.data).toMatchObject({ status: 'paused', quantity: 2 });
    expect(await prorationsOf(s.id)).toEqual([]);
  });
});

describe('POST /subscriptions/:id/change at period end', () => {
  it('shows pendingChange until the next period bills it, then clears it', async () => {
    const pro = await createPrice(t, sk, c.product.id, { amount: 2000 });
    const s = await subscribe();
    const res = await change(s.id, { priceId: pro.id, quantity: 3, at: 'period_end' });
    expect(res.body.data).toMatchObject({
      priceId: c.price.id,
      quantity: 1,
      pendingChange: { priceId: pro.id, quantity: 3, effectiveAt: s.nextBillingDate },
    });
    expect((await get(`/subscriptions/${s.id}`)).body.data).toEqual(res.body.data);
    expect(await prorationsOf(s.id)).toEqual([]);
    await timeTravel(t, s.id, 31 * DAY);
    await runBilling(t, sk);
    const after = (await get(`/subscriptions/${s.id}`)).body.data;
    expect(after).toMatchObject({ priceId: pro.id, quantity: 3, pendingChange: null });
    const amounts = (await invoicesOf(t, sk, s.id)).map((i) => i.amount).sort();
    expect(amounts).toEqual(['1500.00', '6000.00']);
    const updated = await t.query(
      `SELECT data FROM events WHERE kind = 'subscription-updated' AND data->>'id' = $1 ORDER BY created_at`,
      [s.id],
    );
    expect(updated.at(-1).data).toEqual(after);
  });
});

describe('refusals', () => {
  it('400 Nothing to change; 422 for a bad quantity or at', async () => {
    const s = await subscribe();
    expectText(await change(s.id, {}), 400, Messages.nothingToChange);
    expectText(await change(s.id, { prorate: false }), 400, Messages.nothingToChange);
    expect422(await change(s.id, { quantity: 0 }), 'body', '/quantity');
    expect422(await change(s.id, { quantity: 2, at: 'tomorrow' }), 'body', '/at');
  });

  it('400 Price is not active for an archived price; 404 for a price of another organization', async () => {
    const s = await subscribe();
    const old = await createPrice(t, sk, c.product.id, { amount: 10 });
    await t.http.patch(`/api/v1/prices/${old.id}/archive`).set('Authorization', sk);
    expectText(await change(s.id, { priceId: old.id }), 400, Messages.priceNotActive);
    const b = await newTenant(t);
    const foreign = await catalog(t, b);
    expectText(await change(s.id, { priceId: foreign.price.id }), 404, Messages.priceNotFound);
  });

  it('400 for a prorated change to another interval; without proration it is taken', async () => {
    const weekly = await createPrice(t, sk, c.product.id, { amount: 400, interval: 'weekly' });
    const s = await subscribe();
    expectText(await change(s.id, { priceId: weekly.id }), 400, Messages.prorationNeedsSameInterval);
    expect((await change(s.id, { priceId: weekly.id, prorate: false })).body.data.priceId).toBe(weekly.id);
  });

  it('409 Subscription is not active once cancelled; 404 for an unknown one', async () => {
    const s = await subscribe();
    await post(`/subscriptions/${s.id}/cancel`);
    expectText(await change(s.id, { quantity: 2 }), 409, Messages.subscriptionNotActive);
    expectText(
      await change('00000000-0000-4000-8000-000000000000', { quantity: 2 }),
      404,
      Messages.subscriptionNotFound,
    );
  });

  it('400 when a period would bill more than 100,000,000 MRU', async () => {
    const dear = await createPrice(t, sk, c.product.id, { amount: 20_000 });
    const s = (await post('/subscriptions', { customerId: c.customer.id, priceId: dear.id, quantity: 5000 }))
      .body.data;
    expectText(await change(s.id, { quantity: 5001 }), 400, Messages.periodAmountTooLarge);
    expectText(
      await post('/subscriptions', { customerId: c.customer.id, priceId: dear.id, quantity: 5001 }),
      400,
      Messages.periodAmountTooLarge,
    );
  });
});

describe('on the awkward dates of the calendar', () => {
  it.each([
    ['monthly from Jan 31', 'monthly', '2024-01-31T12:00:00.000Z'],
    ['monthly from Feb 29', 'monthly', '2024-02-29T00:00:00.000Z'],
    ['monthly from Mar 31', 'monthly', '2024-03-31T23:59:59.000Z'],
    ['yearly from Feb 29', 'yearly', '2024-02-29T08:00:00.000Z'],
    ['weekly from a Dec 31', 'weekly', '2024-12-31T00:00:00.000Z'],
  ])(
    '%s: the prorated invoice is the reference over the period the calendar gives',
    async (_name, interval, startedAt) => {
      const p = await createPrice(t, sk, c.product.id, { amount: 1234, interval });
      const up = await createPrice(t, sk, c.product.id, { amount: 4321, interval });
      const s = (
        await post('/subscriptions', { customerId: c.customer.id, priceId: p.id, startedAt, quantity: 3 })
      ).body.data;
      expect((await change(s.id, { priceId: up.id, quantity: 7 })).status).toBe(200);
      const [invoice] = await prorationsOf(s.id);
      expect(invoice.periodEnd).toBe(s.currentPeriodEnd);
      expect(Number(invoice.amount)).toBe(
        expectedProration(4321 * 7 - 1234 * 3, invoice.periodStart, s.currentPeriodStart, s.currentPeriodEnd),
      );
    },
  );

  it('twice in one period: each prorated from the terms then in force', async () => {
    const customer = await createCustomer(t, sk);
    const s = await subscribe({ startedAt: new Date(Date.now() - 5 * DAY).toISOString() }, customer.id);
    await change(s.id, { quantity: 4 });
    const second = (await change(s.id, { quantity: 2 })).body.data;
    const [up] = await prorationsOf(s.id);
    expect(Number(up.amount)).toBe(
      expectedProration(6000 - 1500, up.periodStart, s.currentPeriodStart, s.currentPeriodEnd),
    );
    expect(await creditOf(customer.id)).toBe(
      -expectedProration(3000 - 6000, second.updatedAt, s.currentPeriodStart, s.currentPeriodEnd),
    );
  });
});
