import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { catalog, invoicesOf, runBilling, timeTravel, uniqueId } from '../helpers/billing';
import { expect422 } from '../helpers/http';

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

const post = (path: string, body: object = {}) =>
  t.http.post(`/api/v1${path}`).set('Authorization', sk).send(body);
const get = (path: string) => t.http.get(`/api/v1${path}`).set('Authorization', sk);
const eventsAbout = (kind: string, id: string) =>
  t.query(`SELECT data FROM events WHERE kind = $1 AND data->>'id' = $2 ORDER BY created_at`, [kind, id]);

describe('quantities', () => {
  it('default to 1: the invoice is the price’s amount', async () => {
    const res = await post('/subscriptions', { customerId: c.customer.id, priceId: c.price.id });
    expect(res.body.data.quantity).toBe(1);
    const [invoice] = await invoicesOf(t, sk, res.body.data.id);
    expect(invoice.amount).toBe('1500.00');
  });

  it('bill price.amount × quantity, in the invoice and its payment request; the events show the quantity', async () => {
    const res = await post('/subscriptions', {
      customerId: c.customer.id,
      priceId: c.price.id,
      quantity: 30,
    });
    expect(res.status).toBe(200);
    const s = res.body.data;
    expect(s.quantity).toBe(30);
    expect((await get(`/subscriptions/${s.id}`)).body.data).toEqual(s);
    const [invoice] = await invoicesOf(t, sk, s.id);
    expect(invoice.amount).toBe('45000.00');
    const request = await get(`/payment-request/by-transaction/${invoice.id}`);
    expect(request.body.data.amount).toBe(45000);
    expect(await eventsAbout('subscription-created', s.id)).toEqual([{ data: s }]);
  });

  it('are taken by subscriptions created by external user', async () => {
    const res = await post('/subscriptions/by-external-user', {
      externalUserId: uniqueId('school'),
      phone: '22334455',
      priceId: c.price.id,
      quantity: 7,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.quantity).toBe(7);
    const [invoice] = await invoicesOf(t, sk, res.body.data.id);
    expect(invoice.amount).toBe('10500.00');
  });

  it('bill each renewal at the price’s amount then × quantity, and subscription-updated shows it', async () => {
    const s = (await post('/subscriptions', { customerId: c.customer.id, priceId: c.price.id, quantity: 4 }))
      .body.data;
    await timeTravel(t, s.id, 32 * 86_400_000);
    await runBilling(t, sk);
    const invoices = await invoicesOf(t, sk, s.id);
    expect(invoices.map((i) => i.amount)).toEqual(['6000.00', '6000.00']);
    const updated = await eventsAbout('subscription-updated', s.id);
    expect(updated.at(-1).data.quantity).toBe(4);
  });

  it('are whole numbers from 1 to 10,000 (else 422)', async () => {
    const base = { customerId: c.customer.id, priceId: c.price.id };
    for (const quantity of [0, 10001, 1.5, '3', -1])
      expect422(await post('/subscriptions', { ...base, quantity }), 'body', '/quantity');
    const max = await post('/subscriptions', { ...base, quantity: 10000 });
    expect(max.status).toBe(200);
    const [invoice] = await invoicesOf(t, sk, max.body.data.id);
    expect(invoice.amount).toBe('15000000.00');
  });

  it('are checked by the database too', async () => {
    await expect(
      t.query(`UPDATE subscriptions SET quantity = 0 WHERE environment_id = $1`, [org.sandbox.environmentId]),
    ).rejects.toThrow(/check constraint/);
  });
});
