import { Messages } from '../../src/common/errors/messages';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { catalog, createCustomer, createSubscription, DAY, invoicesOf } from '../helpers/billing';
import { expect422, expectText } from '../helpers/http';

/*
 * Invoices through the API (organization-scoped reads) and paid through their payment request:
 * whatever pays the request marks the invoice paid, and a past_due subscription active, in the
 * payment's statement.
 */
let t: TestApp;
let org: CreatedOrganization;
let sk: string;
let c: Awaited<ReturnType<typeof catalog>>;
let methods: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp();
  org = await newTenant(t);
  sk = org.sandbox.secretKey;
  c = await catalog(t, org);
  const res = await t.http.get('/api/v1/payment-methods').set('Authorization', sk);
  methods = Object.fromEntries((res.body.data as { type: string; id: string }[]).map((m) => [m.type, m.id]));
});
afterAll(() => t.close());

const get = (path: string, key = sk) => t.http.get(`/api/v1${path}`).set('Authorization', key);
const subscribe = async (body: object = {}, key = sk) =>
  (await createSubscription(t, key, { customerId: c.customer.id, priceId: c.price.id, ...body })) as {
    id: string;
    status: string;
    [k: string]: unknown;
  };
const pay = (invoiceId: string, phoneNumber = '22222222') =>
  t.http
    .post('/api/v1/payment')
    .set('Authorization', org.sandbox.publishableKey)
    .send({ transactionId: invoiceId, phoneNumber, configurationId: methods.masrivi });
const events = (kind: string, id: string) =>
  t.query(`SELECT data FROM events WHERE kind = $1 AND data->>'id' = $2 ORDER BY created_at`, [kind, id]);
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

describe('reading invoices', () => {
  it('gets an invoice with all its fields, the amount a two-decimal string', async () => {
    const s = await subscribe();
    const [listed] = await invoicesOf(t, sk, s.id);
    const res = await get(`/invoices/${listed.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: listed.id,
      customerId: c.customer.id,
      subscriptionId: s.id,
      number: expect.stringMatching(/^[A-Z0-9]{1,4}-\d{6}$/),
      status: 'pending',
      amount: '1500.00',
      subtotal: '1500.00',
      discount: '0.00',
      creditApplied: '0.00',
      lines: [
        {
          description: 'Premium',
          quantity: 1,
          unitAmount: '1500.00',
          amount: '1500.00',
          periodStart: s.currentPeriodStart,
          periodEnd: s.currentPeriodEnd,
          proration: false,
        },
      ],
      dueDate: s.nextBillingDate,
      paymentRequestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      checkoutUrl: `${t.config.publicUrl}/checkout/invoices/${listed.id}`,
      amountPaid: '0.00',
      amountDue: '1500.00',
      manualPayments: [],
      periodStart: s.currentPeriodStart,
      periodEnd: s.currentPeriodEnd,
      organizationId: org.organizationId,
      environmentId: org.sandbox.environmentId,
      createdAt: expect.any(String),
    });
    expect(listed).toEqual(res.body.data);
  });

  it('is organization-scoped: any secret key of the organization reads it, another organization gets 404', async () => {
    const s = await subscribe();
    const [invoice] = await invoicesOf(t, sk, s.id);
    expect((await get(`/invoices/${invoice.id}`, org.production.secretKey)).body.data).toEqual(invoice);
    expect((await get(`/invoices?subscriptionId=${s.id}`, org.production.secretKey)).body.data).toEqual([
      invoice,
    ]);
    const b = await newTenant(t);
    expectText(await get(`/invoices/${invoice.id}`, b.sandbox.secretKey), 404, Messages.invoiceNotFound);
    expect((await get(`/invoices?id=${invoice.id}`, b.sandbox.secretKey)).body.data).toEqual([]);
    expect((await get(`/invoices?subscriptionId=${s.id}`, b.production.secretKey)).body.data).toEqual([]);
    // Its payment request lives in the subscription's environment only.
    expectText(
      await get(`/payment-request/by-transaction/${invoice.id}`, org.production.secretKey),
      404,
      Messages.paymentRequestNotFound,
    );
  });

  it('lists newest first (a catch-up newest period first), filtered by id, subscriptionId and externalUserId', async () => {
    const b = await newTenant(t);
    const key = b.sandbox.secretKey;
    const theirs = await catalog(t, b);
    const other = await createCustomer(t, key);
    const first = await createSubscription(t, key, {
      customerId: theirs.customer.id,
      priceId: theirs.price.id,
      startedAt: ago(40),
    });
    const second = await createSubscription(t, key, { customerId: other.id, priceId: theirs.price.id });
    const all = (await get('/invoices', key)).body;
    expect(all.pagination).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1 });
    const firsts = await invoicesOf(t, key, first.id);
    const [latest] = await invoicesOf(t, key, second.id);
    expect(all.data.map((i: { id: string }) => i.id)).toEqual([latest.id, firsts[0].id, firsts[1].id]);
    expect(firsts[0].periodStart > firsts[1].periodStart).toBe(true);
    const ids = async (query: string) =>
      (await get(`/invoices?${query}`, key)).body.data.map((i: { id: string }) => i.id);
    expect(await ids(`externalUserId=${other.externalUserId}`)).toEqual([latest.id]);
    expect(await ids(`externalUserId=${theirs.customer.externalUserId}&subscriptionId=${second.id}`)).toEqual(
      [],
    );
    expect(await ids(`id=${latest.id}`)).toEqual([latest.id]);
    expect(await ids('externalUserId=unknown')).toEqual([]);
    expect(await ids('limit=1&page=3')).toEqual([firsts[1].id]);
  });

  it('validates ids and is for secret keys only; invoices cannot be created through the API', async () => {
    expect422(await get('/invoices/nope'), 'params', '/id');
    expect422(await get('/invoices?subscriptionId=nope'), 'query', '/subscriptionId');
    expectText(await get('/invoices', org.sandbox.publishableKey), 403, Messages.unauthorizedAccess);
    expectText(
      await t.http.post('/api/v1/invoices').set('Authorization', sk).send({}),
      404,
      Messages.notFound,
    );
  });
});

describe('paying an invoice', () => {
  it('through POST /payment: the invoice becomes paid with invoice-paid, in the payment’s transaction', async () => {
    const s = await subscribe();
    const [invoice] = await invoicesOf(t, sk, s.id);
    const res = await pay(invoice.id);
    expect(res.body.data.status).toBe('completed');
    const paid = (await get(`/invoices/${invoice.id}`)).body.data;
    expect(paid).toEqual({ ...invoice, status: 'paid', amountPaid: '1500.00', amountDue: '0.00' });
    expect(await events('invoice-paid', invoice.id)).toEqual([{ data: paid }]);
    // An active subscription stays as it is: no subscription-updated.
    expect((await get(`/subscriptions/${s.id}`)).body.data.status).toBe('active');
    expect(await events('subscription-updated', s.id)).toEqual([]);
    expectText(await pay(invoice.id), 409, Messages.paymentRequestAlreadyPaid);
  });

  it('through a simulated transfer completing a pending payment', async () => {
    const s = await subscribe();
    const [invoice] = await invoicesOf(t, sk, s.id);
    const pending = await pay(invoice.id, '22229003');
    expect(pending.body.data.status).toBe('pending');
    expect((await get(`/invoices/${invoice.id}`)).body.data.status).toBe('pending');
    await t.http
      .post(`/api/v1/payment/${pending.body.data.id}/simulate-transfer`)
      .set('Authorization', sk)
      .send({});
    expect((await get(`/invoices/${invoice.id}`)).body.data.status).toBe('paid');
  });

  it('makes a past_due subscription active once its last overdue invoice is paid, with subscription-updated', async () => {
    const s = await subscribe({ startedAt: ago(70) });
    expect(s.status).toBe('past_due');
    const [current, second, first] = await invoicesOf(t, sk, s.id);
    expect((await pay(first.id)).body.data.status).toBe('completed');
    expect((await get(`/subscriptions/${s.id}`)).body.data.status).toBe('past_due');
    expect(await events('subscription-updated', s.id)).toEqual([]);
    expect((await pay(current.id)).body.data.status).toBe('completed');
    expect((await get(`/subscriptions/${s.id}`)).body.data.status).toBe('past_due');

    expect((await pay(second.id)).body.data.status).toBe('completed');
    const active = (await get(`/subscriptions/${s.id}`)).body.data;
    expect(active.status).toBe('active');
    expect(await events('subscription-updated', s.id)).toEqual([{ data: active }]);
    expect((await get('/subscriptions?status=active')).body.data.map((x: { id: string }) => x.id)).toContain(
      s.id,
    );
  });

  it('refuses to take money for a void invoice: pay and checkout answer 409, nothing is recorded', async () => {
    const s = await subscribe();
    const [invoice] = await invoicesOf(t, sk, s.id);
    await t.http.post(`/api/v1/subscriptions/${s.id}/cancel`).set('Authorization', sk).send({});
    expectText(await pay(invoice.id), 409, Messages.paymentRequestVoid);
    const checkout = await t.http
      .post('/api/v1/checkout-session')
      .set('Authorization', sk)
      .send({ transactionId: invoice.id });
    expectText(checkout, 409, Messages.paymentRequestVoid);
    expect(
      await t.query('SELECT 1 FROM payments WHERE payment_request_id = $1', [invoice.paymentRequestId]),
    ).toEqual([]);
    expect((await get(`/payment-request/${invoice.paymentRequestId}`)).body.data).toMatchObject({
      status: 'pending',
      paidAt: null,
    });
    expect((await get(`/invoices/${invoice.id}`)).body.data.status).toBe('void');
    expect(await events('invoice-paid', invoice.id)).toEqual([]);
  });

  it('cancelling leaves an invoice whose payment is with the bank to that payment: paid when it completes', async () => {
    const s = await subscribe();
    const [invoice] = await invoicesOf(t, sk, s.id);
    const pending = await pay(invoice.id, '22129003');
    expect(pending.body.data.status).toBe('pending');
    // Its page waits for the bank, and reloads itself every 5 s without JavaScript.
    const page = (await t.http.get(`/checkout/invoices/${invoice.id}`)).text;
    expect(page).toContain('data-state="pending"');
    expect(page).toContain(
      `<noscript><meta http-equiv="refresh" content="5; url=/checkout/invoices/${invoice.id}"></noscript>`,
    );
    await t.http.post(`/api/v1/subscriptions/${s.id}/cancel`).set('Authorization', sk).send({});
    expect((await get(`/invoices/${invoice.id}`)).body.data.status).toBe('pending');
    const done = await t.http
      .post(`/api/v1/payment/${pending.body.data.id}/simulate-transfer`)
      .set('Authorization', sk)
      .send({});
    expect(done.body.data.status).toBe('completed');
    expect((await get(`/invoices/${invoice.id}`)).body.data.status).toBe('paid');
    expect(await events('invoice-voided', invoice.id)).toEqual([]);
  });

  it('and void, in the statement of the failed payment, when it fails; its request can no longer be paid', async () => {
    const s = await subscribe();
    const [invoice] = await invoicesOf(t, sk, s.id);
    const pending = await pay(invoice.id, '22129003');
    await t.http.post(`/api/v1/subscriptions/${s.id}/cancel`).set('Authorization', sk).send({});
    const failed = await t.http
      .post(`/api/v1/payment/${pending.body.data.id}/simulate-transfer`)
      .set('Authorization', sk)
      .send({ outcome: 'failed' });
    expect(failed.body.data.status).toBe('failed');
    const after = (await get(`/invoices/${invoice.id}`)).body.data;
    expect(after.status).toBe('void');
    expect(await events('invoice-voided', invoice.id)).toEqual([{ data: after }]);
    expectText(await pay(invoice.id), 409, Messages.paymentRequestVoid);
  });

  it('never voids an invoice its concurrent payment pays: paid, or void and unpaid, never both', async () => {
    for (let round = 0; round < 5; round++) {
      const s = await subscribe();
      const [invoice] = await invoicesOf(t, sk, s.id);
      await Promise.all([
        pay(invoice.id),
        t.http.post(`/api/v1/subscriptions/${s.id}/cancel`).set('Authorization', sk).send({}),
      ]);
      const after = (await get(`/invoices/${invoice.id}`)).body.data;
      const request = (await get(`/payment-request/${invoice.paymentRequestId}`)).body.data;
      if (after.status === 'paid') expect(request.status).toBe('paid');
      else expect([after.status, request.status]).toEqual(['void', 'pending']);
    }
  });
});
